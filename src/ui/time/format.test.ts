import { describe, expect, it } from "vitest";
import { DEFAULT_SETTINGS } from "../settings/schema";
import {
  clockPattern,
  exactTime,
  formatTime,
  TIME_FORMAT_CHOICES,
  timeFormatter,
  UTC_OFFSET_CHOICES,
  utcOffsetLabel,
} from "./format";
import { NUMBER_BOUNDS } from "../settings/schema";

// 2026-11-25 21:30:05.250 UTC
const MTS = Date.UTC(2026, 10, 25, 21, 30, 5, 250);

describe("time format", () => {
  it("writes the product's default pattern on a 24-hour clock, shifted by the offset", () => {
    expect(DEFAULT_SETTINGS.time_format).toBe("YY-MM-DD HH:mm:ss");
    expect(formatTime(MTS, DEFAULT_SETTINGS.time_format, 0)).toBe("26-11-25 21:30:05");
    expect(formatTime(MTS, "DD.MM.YYYY HH:mm", 3)).toBe("26.11.2026 00:30");
    expect(formatTime(MTS, "MM/DD/YYYY HH:mm:ss", -5.5)).toBe("11/25/2026 16:00:05");
    expect(formatTime(null, "HH:mm", 0)).toBe("–");
  });

  it("gives the exact time with a four-digit year and the offset", () => {
    expect(exactTime(MTS, 0)).toBe("2026-11-25 21:30:05 UTC");
    expect(exactTime(MTS, 5.75)).toBe("2026-11-26 03:15:05 UTC+5:45");
    expect(utcOffsetLabel(-9.5)).toBe("UTC−9:30");
    expect(utcOffsetLabel(14)).toBe("UTC+14");
  });

  it("takes the clock from the pattern's time part, the 24-hour clock without one", () => {
    expect(clockPattern("YY-MM-DD HH:mm:ss")).toBe("HH:mm:ss");
    expect(clockPattern("HH:mm DD.MM.YYYY")).toBe("HH:mm");
    expect(clockPattern("DD.MM.YYYY")).toBe("HH:mm:ss");
    expect(clockPattern("HH DD mm")).toBe("HH:mm:ss");
    expect(timeFormatter("DD.MM.YYYY HH:mm", 1).clock(MTS)).toBe("22:30");
  });

  it("offers choices the settings accept, the default first", () => {
    expect(TIME_FORMAT_CHOICES[0]).toBe(DEFAULT_SETTINGS.time_format);
    const bound = NUMBER_BOUNDS.utc_offset;
    expect(UTC_OFFSET_CHOICES).toContain(0);
    expect(UTC_OFFSET_CHOICES).toContain(5.5);
    for (const o of UTC_OFFSET_CHOICES) {
      expect(o).toBeGreaterThanOrEqual(bound?.min ?? Infinity);
      expect(o).toBeLessThanOrEqual(bound?.max ?? -Infinity);
    }
    expect([...UTC_OFFSET_CHOICES].sort((a, b) => a - b)).toEqual(UTC_OFFSET_CHOICES);
  });
});
