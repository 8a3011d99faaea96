import { describe, expect, it } from "vitest";
import { placeAxisLabels, splitTimePattern, withoutSeconds, zonedDate } from "./time-labels";

/** Every character 6 px wide: placement only needs consistent widths. */
const measure = (text: string): number => text.length * 6;

describe("time pattern parts", () => {
  it("splits date and time parts, whatever their order", () => {
    expect(splitTimePattern("YY-MM-DD HH:mm:ss")).toEqual({ date: "YY-MM-DD", time: "HH:mm:ss" });
    expect(splitTimePattern("HH:mm DD.MM.YYYY")).toEqual({ date: "DD.MM.YYYY", time: "HH:mm" });
    expect(splitTimePattern("YYYY/MM/DD")).toEqual({ date: "YYYY/MM/DD", time: null });
    expect(splitTimePattern("[HH:mm]")).toEqual({ date: null, time: "HH:mm" });
    // Interleaved: not separable.
    expect(splitTimePattern("DD HH MM")).toEqual({ date: "DD HH MM", time: "DD HH MM" });
  });

  it("drops the seconds that end a time part", () => {
    expect(withoutSeconds("HH:mm:ss")).toBe("HH:mm");
    expect(withoutSeconds("HH.mm.ss")).toBe("HH.mm");
    expect(withoutSeconds("HH:mm")).toBe("HH:mm");
    expect(withoutSeconds("ss:mm:HH")).toBe("ss:mm:HH");
  });

  it("gives uPlot a date whose local fields read the wall time at the offset", () => {
    const d = zonedDate(Date.UTC(2026, 10, 20, 22, 30) / 1000, 3);
    expect([d.getDate(), d.getHours(), d.getMinutes()]).toEqual([21, 1, 30]);
  });
});

describe("axis label placement", () => {
  it("keeps labels centred on their ticks when they fit", () => {
    const placed = placeAxisLabels(
      [
        { lines: ["10:00"], x: 100 },
        { lines: ["11:00"], x: 200 },
      ],
      { lo: 0, hi: 400 },
      measure,
      4,
    );
    expect(placed.map((l) => l.left)).toEqual([85, 185]);
  });

  it("moves a label at the left edge inside the canvas", () => {
    const placed = placeAxisLabels(
      [
        { lines: ["10:00", "26-11-20"], x: 10 },
        { lines: ["11:00"], x: 120 },
      ],
      { lo: 0, hi: 400 },
      measure,
      4,
    );
    expect(placed[0]).toMatchObject({ left: 0, width: 48, lines: ["10:00", "26-11-20"] });
    expect(placed[1]?.left).toBe(105);
  });

  it("drops an edge label that would run into its neighbour, handing its date to it", () => {
    const placed = placeAxisLabels(
      [
        { lines: ["10:00", "26-11-20"], x: 4 },
        { lines: ["11:00"], x: 50 },
        { lines: ["12:00"], x: 100 },
      ],
      { lo: 0, hi: 400 },
      measure,
      4,
    );
    expect(placed.map((l) => l.lines)).toEqual([["11:00", "26-11-20"], ["12:00"]]);
    expect(placed[0]?.left).toBe(26);
    for (const l of placed) expect(l.left).toBeGreaterThanOrEqual(0);
  });

  it("keeps the last label inside the right edge, or drops it when it would overlap", () => {
    expect(placeAxisLabels([{ lines: ["10:00"], x: 395 }], { lo: 0, hi: 400 }, measure, 4)[0]?.left).toBe(370);
    expect(placeAxisLabels([{ lines: ["10:00"], x: 2 }], { lo: 3, hi: 400 }, measure, 4)[0]?.left).toBe(3);
    const placed = placeAxisLabels(
      [
        { lines: ["10:00"], x: 360 },
        { lines: ["11:00"], x: 398 },
      ],
      { lo: 0, hi: 400 },
      measure,
      4,
    );
    expect(placed.map((l) => l.lines[0])).toEqual(["10:00"]);
  });
});
