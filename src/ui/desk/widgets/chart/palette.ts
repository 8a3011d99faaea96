/** The chart draws with the theme's shared canvas palette (src/ui/theme/canvas-palette.ts). */
export { observeTheme, readPalette, type CanvasPalette as ChartPalette } from "../../../theme/canvas-palette";
