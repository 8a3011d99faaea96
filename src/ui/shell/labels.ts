/** Localized labels for enumerations the shell and settings page show. */
import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import type { ColorScheme, ThemeMode, ThemeName } from "../theme/theme";

export const THEME_LABELS: Record<ThemeName, MessageDescriptor> = {
  default: msg`Default`,
  classic: msg`Classic`,
  "high-contrast": msg`High contrast`,
  colourblind: msg`Colour-blind friendly`,
  experimental: msg`Experimental`,
};

export const MODE_LABELS: Record<ThemeMode, MessageDescriptor> = {
  dark: msg`Dark`,
  light: msg`Light`,
  auto: msg`Auto (follow system)`,
};

export const SCHEME_LABELS: Record<ColorScheme, MessageDescriptor> = {
  // Themes differ in hue (the colour-blind theme rises in blue), so the labels name the convention.
  default: msg`Standard: rising prices in the rising colour`,
  "red-up": msg`Swapped: rising prices in red`,
};
