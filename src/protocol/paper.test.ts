import { describe, expect, it } from "vitest";
import { PAPER_OPEN_PATH, paperAccountCodec, paperLiveOnly } from "./paper";

describe("paper trading's wire", () => {
  it("round-trips the paper account record", () => {
    const a = { id: 9, username: "ada~paper", mtsCreate: 1_700_000_000_000, ownerId: 4 };
    const wire = paperAccountCodec.encode(a);
    expect(wire).toEqual([9, "ada~paper", 1_700_000_000_000, 4]);
    const back = paperAccountCodec.decode(wire);
    expect(back.ok && back.value).toEqual(a);
    expect(paperAccountCodec.decode(["9", "x", 1, 4]).ok).toBe(false);
  });

  it("keeps money in and out, API keys and transfers to other accounts live-only", () => {
    for (const path of [
      "/v2/auth/w/deposit/address",
      "/v2/auth/w/withdraw",
      "/v2/auth/w/int/movements/confirm",
      "/v2/auth/w/api/key/generate",
      "/v2/auth/w/subaccounts/create",
      PAPER_OPEN_PATH,
    ])
      expect(paperLiveOnly(path, {}), path).toBe(true);
    expect(paperLiveOnly("/v2/auth/w/transfer", { user_id_dst: 3 })).toBe(true);
    expect(paperLiveOnly("/v2/auth/w/transfer", { email_dst: "a@b.c" })).toBe(true);
    // What paper trading is: orders, its own wallets, reads, switching back.
    for (const path of [
      "/v2/auth/w/order/submit",
      "/v2/auth/w/transfer",
      "/v2/auth/r/wallets",
      "/v2/auth/r/movements/hist",
      "/v2/auth/w/subaccounts/context",
      "/v2/auth/w/token",
    ])
      expect(paperLiveOnly(path, {}), path).toBe(false);
  });
});
