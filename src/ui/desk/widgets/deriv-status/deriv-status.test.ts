import { describe, expect, it } from "vitest";
import { countdown, DerivStatusStore, fundingPercent, perpetualFor, readDerivStatus, statusKey } from "./deriv-status";

/** A 23-field status row as the exchange sends it (docs/protocol.md#derivatives-status). */
function row(mark: number, next: number): unknown[] {
  return [
    1_790_133_734_000,
    null,
    86_710.5,
    86_670.5,
    null,
    62_210_384.9,
    null,
    next,
    0.00015317,
    3873,
    null,
    0.0001,
    null,
    null,
    mark,
    null,
    null,
    8851.9,
    null,
    null,
    null,
    0.0005,
    0.0025,
  ];
}

describe("derivatives status core", () => {
  it("picks the desk's perpetual", () => {
    const listed = new Set(["BTCF0:USTF0", "ETHF0:USTF0", "BTCUSD", "ETHUSD"]);
    expect(perpetualFor("ETHF0:USTF0", listed)).toBe("ETHF0:USTF0");
    expect(perpetualFor("ETHUSD", listed)).toBe("ETHF0:USTF0");
    // No perpetual for the base: the default one; the list unknown yet: the default one too.
    expect(perpetualFor("LTCUSD", listed)).toBe("BTCF0:USTF0");
    expect(perpetualFor("ETHUSD", null)).toBe("BTCF0:USTF0");
    expect(statusKey("BTCF0:USTF0")).toBe("deriv:tBTCF0:USTF0");
  });

  it("reads a status row and refuses what is not one", () => {
    const s = readDerivStatus(row(86_676.3, 1_790_150_400_000));
    expect(s?.markPrice).toBe(86_676.3);
    expect(s?.clampMin).toBe(0.0005);
    expect(s?.fundingAccruedNextCap).toBe(0.0025);
    expect(readDerivStatus([])).toBeNull();
    expect(readDerivStatus(null)).toBeNull();
    expect(readDerivStatus(["x"])).toBeNull();
  });

  it("counts down to the funding event and formats funding rates", () => {
    expect(countdown(10_000 + 3_723_000, 10_000)).toBe("01:02:03");
    expect(countdown(10_000, 20_000)).toBe("00:00:00");
    expect(countdown(null, 0)).toBeNull();
    expect(fundingPercent(0.0001)).toBe("0.0100%");
    expect(fundingPercent(-0.00025)).toBe("-0.0250%");
    expect(fundingPercent(null)).toBe("—");
  });

  it("publishes the first row at once and later ones once per tick", () => {
    let now = 1000;
    const store = new DerivStatusStore(() => now);
    let renders = 0;
    store.subscribe(() => renders++);
    store.observe({ status: "SUBSCRIBED", payload: row(100, 5000) });
    expect(renders).toBe(1);
    expect(store.getSnapshot().status?.markPrice).toBe(100);
    // A burst of views between two ticks: no render until the tick, then the latest.
    for (let i = 1; i <= 20; i++) store.observe({ status: "SUBSCRIBED", payload: row(100 + i, 5000) });
    expect(renders).toBe(1);
    now = 2000;
    store.tick();
    expect(renders).toBe(2);
    expect(store.getSnapshot().status?.markPrice).toBe(120);
    expect(store.getSnapshot().now).toBe(2000);
    // With a row held, every tick moves the countdown's clock.
    now = 3000;
    store.tick();
    expect(renders).toBe(3);
    expect(countdown(store.getSnapshot().status?.nextFundingEvtMts ?? null, store.getSnapshot().now)).toBe("00:00:02");
  });

  it("stays quiet without a row and keeps the last row through an empty frame", () => {
    const store = new DerivStatusStore(() => 0);
    let renders = 0;
    store.subscribe(() => renders++);
    store.tick();
    expect(renders).toBe(0);
    store.observe({ status: "SUBSCRIBED", payload: row(100, 5000) });
    store.observe({ status: "SUBSCRIBED", payload: [] });
    store.tick();
    expect(store.getSnapshot().status?.markPrice).toBe(100);
  });
});
