/**
 * The theme's colours as canvas strings, for everything drawn on a canvas (the chart, the order
 * books). A canvas cannot use CSS variables, so this reads the computed values of the theme
 * contract's variables, and reads them again when the theme class on <html> changes (a theme switch
 * is a class change, never a React render).
 */
import { vars } from "./contract.css";

export interface CanvasPalette {
  readonly bg: string;
  readonly surfaceRaised: string;
  readonly text: string;
  readonly muted: string;
  readonly border: string;
  readonly up: string;
  readonly down: string;
  readonly upSoft: string;
  readonly downSoft: string;
  readonly accent: string;
  readonly focus: string;
  readonly warning: string;
  readonly danger: string;
  /** The monospace font family numbers are drawn with. */
  readonly font: string;
  /** The body font family, for words. */
  readonly bodyFont: string;
}

/** `var(--name)` (optionally with a fallback) → `--name`. */
function propertyName(ref: string): string {
  const m = /var\((--[^,)\s]+)/.exec(ref);
  return m ? (m[1] as string) : ref;
}

export function readPalette(el: Element): CanvasPalette {
  const cs = getComputedStyle(el);
  const read = (ref: string, fallback: string): string => cs.getPropertyValue(propertyName(ref)).trim() || fallback;
  /* eslint-disable lingui/no-unlocalized-strings -- CSS colour and font fallbacks, not text */
  return {
    bg: read(vars.color.surface, "#10161c"),
    surfaceRaised: read(vars.color.surfaceRaised, "#18212a"),
    text: read(vars.color.text, "#e6e6e6"),
    muted: read(vars.color.textMuted, "#8a94a0"),
    border: read(vars.color.border, "#2a333d"),
    up: read(vars.color.up, "#16b979"),
    down: read(vars.color.down, "#f0616d"),
    upSoft: read(vars.color.upSoft, "rgba(22,185,121,0.35)"),
    downSoft: read(vars.color.downSoft, "rgba(240,97,109,0.35)"),
    accent: read(vars.color.accent, "#3d8bfd"),
    focus: read(vars.color.focus, "#3d8bfd"),
    warning: read(vars.color.warning, "#f0b90b"),
    danger: read(vars.color.danger, "#f0616d"),
    font: read(vars.font.mono, "ui-monospace, monospace"),
    bodyFont: read(vars.font.body, "system-ui, sans-serif"),
  };
  /* eslint-enable lingui/no-unlocalized-strings */
}

/** Calls `onChange` whenever the theme, mode or colour scheme on <html> changes. */
export function observeTheme(onChange: () => void): () => void {
  const observer = new MutationObserver(onChange);
  observer.observe(document.documentElement, {
    attributes: true,
    attributeFilter: ["class", "data-theme", "data-mode", "data-scheme"],
  });
  return () => observer.disconnect();
}
