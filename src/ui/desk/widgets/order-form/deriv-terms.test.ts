import { describe, expect, it } from "vitest";
import { DERIV_TERMS_SETTING, derivTermsGate, isSpainRefusal, type SettingsCall } from "./deriv-terms";

/** An exchange's settings store behind the two calls, counting the reads. */
function settingsServer(initial: Record<string, unknown> = {}) {
  const stored: Record<string, unknown> = { ...initial };
  let reads = 0;
  let failWrites = false;
  const call: SettingsCall = (path, body) => {
    const b = body as { keys?: string[]; settings?: Record<string, unknown> };
    if (path === "/v2/auth/r/settings") {
      reads++;
      return Promise.resolve({
        status: 200,
        body: (b.keys ?? []).filter((k) => k in stored).map((k) => [k, stored[k]]),
      });
    }
    if (failWrites) return Promise.resolve({ status: 500, body: ["error", 10020, "settings: too large"] });
    Object.assign(stored, b.settings);
    return Promise.resolve({ status: 200, body: [1] });
  };
  return {
    call,
    stored,
    reads: () => reads,
    failWrites: () => {
      failWrites = true;
    },
  };
}

describe("derivatives terms gate", () => {
  it("asks until accepted, stores the acceptance with the exchange and remembers it per account", async () => {
    const server = settingsServer();
    let who = "token-a";
    const gate = derivTermsGate(server.call, () => who);
    expect(await gate.accepted()).toBe(false);
    expect(await gate.accept(1_790_000_000_000)).toBe(true);
    expect(server.stored[DERIV_TERMS_SETTING]).toBe(1_790_000_000_000);
    const reads = server.reads();
    expect(await gate.accepted()).toBe(true);
    expect(server.reads()).toBe(reads);
    // Another account: asked of the exchange again (which still holds the first account's setting here).
    who = "token-b";
    expect(await gate.accepted()).toBe(true);
    expect(server.reads()).toBe(reads + 1);
  });

  it("reads an acceptance given elsewhere, and says no when the exchange cannot answer", async () => {
    expect(await derivTermsGate(settingsServer({ [DERIV_TERMS_SETTING]: 5 }).call, () => "t").accepted()).toBe(true);
    expect(await derivTermsGate(settingsServer({ [DERIV_TERMS_SETTING]: false }).call, () => "t").accepted()).toBe(
      false,
    );
    const down: SettingsCall = () => Promise.reject(new Error("offline"));
    expect(await derivTermsGate(down, () => "t").accepted()).toBe(false);
    expect(await derivTermsGate(down, () => "t").accept(1)).toBe(false);
  });

  it("does not remember an acceptance the exchange refused to store", async () => {
    const server = settingsServer();
    server.failWrites();
    const gate = derivTermsGate(server.call, () => "t");
    expect(await gate.accept(1)).toBe(false);
    expect(await gate.accepted()).toBe(false);
  });

  it("recognises the Spain refusal only", () => {
    expect(isSpainRefusal("Invalid order: derivatives trading is not available to residents of Spain")).toBe(true);
    expect(isSpainRefusal("Invalid order: not enough tradable balance")).toBe(false);
    expect(isSpainRefusal("Invalid order: Spainish")).toBe(false);
  });
});
