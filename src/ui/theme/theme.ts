/**
 * Applies the theme, mode and colour scheme to <html>. "auto" mode follows the OS through
 * prefers-color-scheme and keeps following it while the page is open.
 */
import { schemeRedUp, themeClasses } from "./themes.css";

export const THEME_NAMES = ["default", "classic", "high-contrast", "colourblind", "experimental"] as const;
export type ThemeName = (typeof THEME_NAMES)[number];
export const THEME_MODES = ["dark", "light", "auto"] as const;
export type ThemeMode = (typeof THEME_MODES)[number];
export const COLOR_SCHEMES = ["default", "red-up"] as const;
export type ColorScheme = (typeof COLOR_SCHEMES)[number];

export interface ThemeChoice {
  readonly name: ThemeName;
  readonly mode: ThemeMode;
  readonly scheme: ColorScheme;
}

/** The concrete mode for a choice: "auto" resolves by the OS preference. */
export function resolveMode(mode: ThemeMode, osPrefersDark: boolean): "dark" | "light" {
  if (mode === "auto") return osPrefersDark ? "dark" : "light";
  return mode;
}

/** The class names to put on <html> for a choice. */
export function themeClassNames(choice: ThemeChoice, osPrefersDark: boolean): string[] {
  const mode = resolveMode(choice.mode, osPrefersDark);
  const names = [themeClasses[choice.name][mode]];
  if (choice.scheme === "red-up") names.push(schemeRedUp);
  return names;
}

const ALL_THEME_CLASSES: ReadonlySet<string> = new Set([
  ...Object.values(themeClasses).flatMap((m) => [m.dark, m.light]),
  schemeRedUp,
]);

export function applyTheme(root: HTMLElement, choice: ThemeChoice, osPrefersDark: boolean): void {
  for (const cls of [...root.classList]) if (ALL_THEME_CLASSES.has(cls)) root.classList.remove(cls);
  root.classList.add(...themeClassNames(choice, osPrefersDark));
  const mode = resolveMode(choice.mode, osPrefersDark);
  root.dataset["theme"] = choice.name;
  root.dataset["mode"] = mode;
  root.dataset["scheme"] = choice.scheme;
  // Native controls and scrollbars follow the mode too.
  root.style.colorScheme = mode;
}
