/**
 * The theme contract: every colour the UI draws with is a CSS variable, so switching theme, mode or
 * colour scheme is one class change on <html> and never a React re-render of the book.
 */
import { createThemeContract } from "@vanilla-extract/css";

export const vars = createThemeContract({
  color: {
    bg: null,
    surface: null,
    surfaceRaised: null,
    border: null,
    text: null,
    textMuted: null,
    accent: null,
    accentText: null,
    focus: null,
    danger: null,
    warning: null,
    success: null,
    /** The theme's "rising" and "falling" hues; the colour scheme maps them to up/down. */
    positive: null,
    negative: null,
    /** What the UI uses for price up / price down (bids / asks); red-up swaps them. */
    up: null,
    down: null,
    upSoft: null,
    downSoft: null,
    positiveSoft: null,
    negativeSoft: null,
  },
  font: {
    body: null,
    mono: null,
  },
});
