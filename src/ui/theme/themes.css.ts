/**
 * Five themes × two modes, plus the two colour schemes (docs/product-rules.md#themes). Each class assigns
 * the whole contract; the scheme classes only remap up/down onto the theme's positive/negative hues,
 * so red-up works with every theme.
 */
import { createTheme, globalStyle, style } from "@vanilla-extract/css";
import { vars } from "./contract.css";
import { PALETTES, type Palette } from "./palettes";

const FONT_BODY = `system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "PingFang SC", "Microsoft YaHei", sans-serif`;
const FONT_MONO = `ui-monospace, "SFMono-Regular", "Roboto Mono", Menlo, Consolas, monospace`;

function theme(p: Palette): string {
  return createTheme(vars, {
    color: {
      ...p,
      // Defaults for the "default" scheme; schemeRedUp overrides them.
      up: p.positive,
      down: p.negative,
      upSoft: p.positiveSoft,
      downSoft: p.negativeSoft,
    },
    font: { body: FONT_BODY, mono: FONT_MONO },
  });
}

export const themeClasses = Object.fromEntries(
  Object.entries(PALETTES).map(([name, modes]) => [name, { dark: theme(modes.dark), light: theme(modes.light) }]),
) as { readonly [T in keyof typeof PALETTES]: { readonly dark: string; readonly light: string } };

/** Red-up: rising prices drawn in the theme's "negative" hue and falling ones in "positive". */
export const schemeRedUp = style({
  vars: {
    [vars.color.up]: vars.color.negative,
    [vars.color.down]: vars.color.positive,
    [vars.color.upSoft]: vars.color.negativeSoft,
    [vars.color.downSoft]: vars.color.positiveSoft,
  },
});

globalStyle("*, *::before, *::after", { boxSizing: "border-box" });
globalStyle("html, body", {
  margin: 0,
  padding: 0,
  background: vars.color.bg,
  color: vars.color.text,
  fontFamily: vars.font.body,
  fontSize: 14,
  lineHeight: 1.45,
});
globalStyle("a", { color: vars.color.accent });
globalStyle(":focus-visible", { outline: `2px solid ${vars.color.focus}`, outlineOffset: 2 });
globalStyle("button, input, select, textarea", { font: "inherit", color: "inherit" });
