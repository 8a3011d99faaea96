import { sha256 } from "@noble/hashes/sha2.js";
import { utf8ToBytes } from "@noble/hashes/utils.js";
import { describe, expect, it } from "vitest";
import { checkAddress } from "./addresses";
import {
  currencyTicker,
  DEPOSIT_METHODS,
  depositDestination,
  depositMethod,
  ibanValid,
  movementRowCodec,
  WIRE_ACCOUNTS,
  XRP_POOL_ADDRESS,
} from "./deposits";

const seed = (i: number): Uint8Array => sha256(utf8ToBytes(`seed:${i}`));

describe("deposit destinations", () => {
  it("are valid addresses of the method's network for any seed, and differ by seed", () => {
    for (const m of DEPOSIT_METHODS.filter((x) => x.kind === "address")) {
      const made = new Set<string>();
      for (let i = 0; i < 200; i++) {
        const address = depositDestination(m, seed(i));
        expect(checkAddress(m.addressRules ?? "bitcoin", address), `${m.method} ${address}`).toEqual({
          ok: true,
          address,
        });
        made.add(address);
      }
      expect(made.size, m.method).toBe(200);
    }
  });

  it("are a segwit v0 key hash for Bitcoin and Litecoin, and refused as the other network's", () => {
    const btc = depositDestination(depositMethod("bitcoin")!, seed(1));
    const ltc = depositDestination(depositMethod("litecoin")!, seed(1));
    expect(btc).toMatch(/^bc1q[02-9ac-hj-np-z]{38}$/);
    expect(ltc).toMatch(/^ltc1q[02-9ac-hj-np-z]{38}$/);
    expect(checkAddress("litecoin", btc)).toEqual({ ok: false, problem: "other-network" });
  });

  it("are a 32-bit destination tag for XRP, with a valid pool address, and a reference for a wire", () => {
    expect(checkAddress("ripple", XRP_POOL_ADDRESS).ok).toBe(true);
    for (let i = 0; i < 50; i++) {
      const tag = Number(depositDestination(depositMethod("ripple")!, seed(i)));
      expect(Number.isInteger(tag) && tag >= 1 && tag <= 4_294_967_295).toBe(true);
      expect(depositDestination(depositMethod("wireusd")!, seed(i))).toMatch(/^OF[0-9A-HJKMNP-TV-Z]{12}$/);
    }
    expect(() => depositDestination(depositMethod("bitcoin")!, new Uint8Array(8))).toThrow();
  });

  it("gives EUR wires a valid IBAN and tells a mistyped one", () => {
    const iban = WIRE_ACCOUNTS["EUR"]?.account ?? "";
    expect(ibanValid(iban)).toBe(true);
    expect(ibanValid("GB82 WEST 1234 5698 7654 32")).toBe(true);
    expect(ibanValid(iban.slice(0, -1) + (iban.endsWith("3") ? "4" : "3"))).toBe(false);
  });
});

describe("deposit methods", () => {
  it("are found by name in any case; USDt has two networks and is shown as USDt", () => {
    expect(depositMethod("TetherUse")?.currency).toBe("UST");
    expect(DEPOSIT_METHODS.filter((m) => m.currency === "UST").map((m) => m.method)).toEqual([
      "tetheruse",
      "tethersol",
    ]);
    expect(depositMethod("constructor")).toBeUndefined();
    expect(currencyTicker("UST")).toBe("USDt");
    expect(currencyTicker("BTC")).toBe("BTC");
    // Only pooled methods and wires need a payment id to be credited.
    for (const m of DEPOSIT_METHODS) expect(m.hasPaymentIdForDeposits, m.method).toBe(m.kind !== "address");
  });

  it("encode a movement row with its confirmations in the reserved slots 7 and 8 and decode it back", () => {
    const row = {
      id: 7,
      currency: "BTC",
      currencyName: "Bitcoin",
      mtsStarted: 1,
      mtsUpdated: 2,
      confirmations: 1,
      confirmationsRequired: 3,
      status: "CONFIRMING",
      amount: 0.5,
      fees: 0,
      destinationAddress: "bc1q",
      paymentId: null,
      txId: "ab",
      withdrawNote: null,
    };
    const wire = movementRowCodec.encode(row);
    expect(wire).toHaveLength(22);
    expect([wire[7], wire[8], wire[9], wire[12]]).toEqual([1, 3, "CONFIRMING", 0.5]);
    expect(movementRowCodec.decode(wire)).toEqual({ ok: true, value: row });
  });
});
