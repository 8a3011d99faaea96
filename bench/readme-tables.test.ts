import { describe, expect, it } from "vitest";
import { compareRounds, verdictText } from "./ab-stats.ts";
import { abTable, renderReadme } from "./readme-tables.mjs";

describe("README's generated tables", () => {
  it("rewrites the body of a generated block and leaves the text around it and unknown blocks alone", () => {
    const text = [
      "Prose before.",
      "<!-- begin generated:core -->",
      "| old | table |",
      "<!-- end generated:core -->",
      "Prose between.",
      "<!-- begin generated:ui -->",
      "kept",
      "<!-- end generated:ui -->",
    ].join("\n");
    const out = renderReadme(text, { core: "| new | table |" });
    expect(out).toBe(
      [
        "Prose before.",
        "<!-- begin generated:core -->",
        "",
        "| new | table |",
        "",
        "<!-- end generated:core -->",
        "Prose between.",
        "<!-- begin generated:ui -->",
        "kept",
        "<!-- end generated:ui -->",
      ].join("\n"),
    );
    // Idempotent: a second run changes nothing.
    expect(renderReadme(out, { core: "| new | table |" })).toBe(out);
    // A block written empty (begin and end on adjacent lines) is filled too.
    expect(renderReadme("<!-- begin generated:rate -->\n<!-- end generated:rate -->", { rate: "x" })).toBe(
      "<!-- begin generated:rate -->\n\nx\n\n<!-- end generated:rate -->",
    );
  });

  it("quotes an A/B result with its medians, ratio, interval and verdict", () => {
    const comparison = compareRounds(
      [400, 410, 420, 405, 415, 400, 430, 410],
      [480, 492, 504, 486, 498, 480, 516, 492],
    );
    const md = abTable(
      {
        kind: "core-ab",
        date: "2026-11-25T00:00:00.000Z",
        base: { short: "e39cbff" },
        head: { short: "ab5ee73", dirty: false },
        rounds: 8,
        level: comparison.level,
        quick: false,
        machine: {
          cpu: "AMD EPYC",
          cores: 2,
          node: "v20.20.2",
          commit: "ab5ee73",
          dirty: false,
          loadBefore: [1.5],
          loadAfter: [2],
        },
        figures: [{ name: "updates-25", comparison, verdict: verdictText(comparison) }],
      },
      "results/ab-core-x.json",
    );
    expect(md).toContain("head ab5ee73 vs base e39cbff");
    expect(md).toContain("load average 1.5 before, 2 after");
    expect(md).toMatch(
      /\| updates-25 \| 410 \(400–430\) \| 492 \(480–516\) \| 1\.200 \| 1\.200–1\.200 \| \*\*slower\*\* \|/,
    );
  });
});
