import { describe, expect, it } from "vitest";
import { PALETTES, type Palette } from "./palettes";

/** WCAG 2 relative luminance of a #rrggbb colour. */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** Every colour the app draws text in, on every background it draws that text on. */
const TEXT: readonly (keyof Palette)[] = ["text", "textMuted", "danger", "warning", "success", "positive", "negative"];
const GROUNDS: readonly (keyof Palette)[] = ["bg", "surface", "surfaceRaised"];

describe("theme palettes", () => {
  it("checks contrast the way WCAG defines it", () => {
    expect(contrast("#000000", "#ffffff")).toBeCloseTo(21, 5);
    expect(contrast("#777777", "#ffffff")).toBeCloseTo(4.48, 2);
  });

  for (const [name, modes] of Object.entries(PALETTES))
    for (const [mode, p] of Object.entries(modes) as [string, Palette][])
      it(`${name} ${mode}: every text colour reaches 4.5:1 on every background`, () => {
        const low: string[] = [];
        for (const fg of TEXT)
          for (const bg of GROUNDS)
            if (contrast(p[fg], p[bg]) < 4.5) low.push(`${fg} on ${bg}: ${contrast(p[fg], p[bg]).toFixed(2)}`);
        // Buttons: their text on the accent, and the accent as a link's text.
        if (contrast(p.accentText, p.accent) < 4.5)
          low.push(`accentText on accent: ${contrast(p.accentText, p.accent).toFixed(2)}`);
        for (const bg of GROUNDS)
          if (contrast(p.accent, p[bg]) < 4.5) low.push(`accent on ${bg}: ${contrast(p.accent, p[bg]).toFixed(2)}`);
        expect(low).toEqual([]);
      });
});
