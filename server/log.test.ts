import { afterEach, describe, expect, it, vi } from "vitest";
import { LOG_REPORTS_PER_MINUTE, logError } from "./log.ts";

describe("the error log", () => {
  afterEach(() => vi.restoreAllMocks());

  it("reports a place's first errors a minute in full, then counts the rest into one line", () => {
    const lines: string[] = [];
    vi.spyOn(process.stderr, "write").mockImplementation((chunk) => {
      lines.push(String(chunk));
      return true;
    });
    const t0 = 1_000_000;
    for (let i = 0; i < 1000; i++)
      logError("socket message (test)", new RangeError("Maximum call stack size exceeded"), t0 + i);
    expect(lines).toHaveLength(LOG_REPORTS_PER_MINUTE);
    expect(lines[0]).toContain("RangeError");
    // The next minute's first error brings the summary of what was left out.
    logError("socket message (test)", new Error("later"), t0 + 60_000);
    expect(lines.at(-2)).toBe(
      `[exchange] ${1000 - LOG_REPORTS_PER_MINUTE} more errors in socket message (test) in the last minute (last: RangeError: Maximum call stack size exceeded)\n`,
    );
    expect(lines.at(-1)).toContain("later");
    expect(lines.join("").length).toBeLessThan(8_000);
  });
});
