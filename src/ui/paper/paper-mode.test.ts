import { describe, expect, it } from "vitest";
import { DEFAULT_PAIR, PAPER_ACCOUNT_TYPE, PAPER_DEFAULT_PAIR } from "../../protocol";
import { defaultDeskPair, liveOnlyPage, loadPaperHint, PAPER_HINT_KEY, paperOwner, savePaperHint } from "./paper-mode";

/** A Storage of a Map, or one that throws as a browser without storage does. */
function storage(throws = false): Storage {
  const m = new Map<string, string>();
  const guard = (): void => {
    if (throws) throw new Error("SecurityError");
  };
  return {
    get length() {
      return m.size;
    },
    clear: () => m.clear(),
    key: (i) => [...m.keys()][i] ?? null,
    getItem: (k) => (guard(), m.get(k) ?? null),
    setItem: (k, v) => (guard(), void m.set(k, v)),
    removeItem: (k) => (guard(), void m.delete(k)),
  };
}

describe("paper mode", () => {
  it("is the exchange's answer once user info is in, the stored hint before", () => {
    expect(paperOwner({ subaccountType: PAPER_ACCOUNT_TYPE, groupId: 7 }, null)).toBe(7);
    expect(paperOwner({ subaccountType: null, groupId: null }, 7)).toBeNull();
    // A sub-account is no paper account, whatever its group.
    expect(paperOwner({ subaccountType: "trading", groupId: 7 }, 7)).toBeNull();
    expect(paperOwner(null, 7)).toBe(7);
    expect(paperOwner(null, null)).toBeNull();
  });

  it("opens the desk on paper trading's own pair", () => {
    expect(defaultDeskPair(true)).toBe(PAPER_DEFAULT_PAIR);
    expect(defaultDeskPair(false)).toBe(DEFAULT_PAIR);
  });

  it("names the live-only pages, their sub-paths included, and nothing else", () => {
    expect(liveOnlyPage("/deposit")).toBe("deposit");
    expect(liveOnlyPage("/deposit/BTC")).toBe("deposit");
    expect(liveOnlyPage("/withdraw/USD")).toBe("withdraw");
    expect(liveOnlyPage("/api")).toBe("api-keys");
    expect(liveOnlyPage("/wallets")).toBeNull();
    expect(liveOnlyPage("/deposits-and-withdrawals")).toBeNull();
    expect(liveOnlyPage("/apis")).toBeNull();
    expect(liveOnlyPage("/t/TESTBTC:TESTUSD")).toBeNull();
  });

  it("keeps the hint as the owner's id, and reads a damaged one as none", () => {
    const s = storage();
    savePaperHint(s, 12);
    expect(loadPaperHint(s)).toBe(12);
    savePaperHint(s, null);
    expect(loadPaperHint(s)).toBeNull();
    for (const bad of ["", "x", "-3", "1.5", "0"]) {
      s.setItem(PAPER_HINT_KEY, bad);
      expect(loadPaperHint(s), bad).toBeNull();
    }
    // Without storage: no hint, and saving one does not throw.
    const none = storage(true);
    expect(() => savePaperHint(none, 3)).not.toThrow();
    expect(loadPaperHint(none)).toBeNull();
  });
});
