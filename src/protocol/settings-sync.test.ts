import { describe, expect, it } from "vitest";
import { decodeStampedSetting, planSettingsSync, type StampedSetting } from "./settings-sync";

const mine = (value: unknown, changedAt: number, chosen = true) => ({ value, changedAt, chosen });
const theirs = (value: unknown, changedAt: number): StampedSetting => ({ value, changedAt });

describe("settings sync plan", () => {
  it("keeps the change made last, key by key", () => {
    const plan = planSettingsSync(
      new Map([
        ["theme", mine("classic", 200)],
        ["chart_height", mine(600, 100)],
      ]),
      new Map([
        ["theme", theirs("default", 100)],
        ["chart_height", theirs(520, 300)],
      ]),
    );
    expect([...plan.send]).toEqual([["theme", { value: "classic", changedAt: 200, chosen: true }]]);
    expect([...plan.apply]).toEqual([["chart_height", { value: 520, changedAt: 300 }]]);
  });

  it("sends a choice the exchange lacks, never a device default, which yields to any stored value", () => {
    const plan = planSettingsSync(
      new Map([
        ["locale", mine("ru", 0, false)],
        ["theme", mine("classic", 5)],
        ["sidebar_side", mine("left", 0, false)],
      ]),
      new Map([["sidebar_side", theirs("right", 0)]]),
    );
    expect([...plan.send.keys()]).toEqual(["theme"]);
    expect([...plan.apply.keys()]).toEqual(["sidebar_side"]);
  });

  it("settles a tie the same way from either side, and does nothing for equal values", () => {
    const a = planSettingsSync(new Map([["k", mine("a", 7)]]), new Map([["k", theirs("b", 7)]]));
    const b = planSettingsSync(new Map([["k", mine("b", 7)]]), new Map([["k", theirs("a", 7)]]));
    expect([...a.apply.values()].map((s) => s.value)).toEqual(["b"]);
    expect([...b.send.values()].map((s) => s.value)).toEqual(["b"]);
    const same = planSettingsSync(new Map([["k", mine([1, 2], 1)]]), new Map([["k", theirs([1, 2], 9)]]));
    expect(same.apply.size + same.send.size).toBe(0);
  });

  it("reads only stamped entries", () => {
    expect(decodeStampedSetting({ v: 1, t: 5 })).toEqual({ value: 1, changedAt: 5 });
    for (const bad of [null, 5, [1], { v: 1 }, { t: 1 }, { v: 1, t: -1 }, { v: 1, t: "5" }, { v: 1, t: Infinity }])
      expect(decodeStampedSetting(bad)).toBeNull();
  });
});
