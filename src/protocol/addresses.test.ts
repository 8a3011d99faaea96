import { describe, expect, it } from "vitest";
import {
  addressKey,
  checkAddress,
  checkPaymentId,
  reviewAddressRows,
  withdrawalNetwork,
  type AddressProblem,
  type WithdrawalMethod,
} from "./addresses";

/** The text with one character replaced by another of the same alphabet (a typo). */
function typo(text: string, at: number, alphabet: string): string {
  const c = text.charAt(at);
  const swapped = alphabet.charAt((alphabet.indexOf(c) + 1) % alphabet.length);
  return text.slice(0, at) + swapped + text.slice(at + 1);
}

const BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
const XRP58 = "rpshnaf39wBUDNEGHJKLM4PQRST7VWXYZ2bcdeCg65jkm8oFqi1tuvAxyz";
const BECH32 = "qpzry9x8gf2tvdw0s3jn54khce6mua7l";

function problem(method: WithdrawalMethod, text: string): AddressProblem | "ok" {
  const r = checkAddress(method, text);
  return r.ok ? "ok" : r.problem;
}

describe("bitcoin", () => {
  // BIP-350's valid vectors (which include BIP-173's corrected ones) and well-known mainnet addresses.
  it.each([
    "BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4",
    "bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0",
    "bc1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3qccfmv3",
    "1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa",
    "3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy",
  ])("accepts %s", (a) => {
    expect(problem("bitcoin", a)).toBe("ok");
  });

  it("writes bech32 in lower case and keeps base58 as it is", () => {
    expect(checkAddress("bitcoin", " BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4 ")).toEqual({
      ok: true,
      address: "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4",
    });
    expect(checkAddress("bitcoin", "1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa")).toEqual({
      ok: true,
      address: "1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa",
    });
  });

  // BIP-350's invalid vectors, each with the reason the page gives.
  it.each<[string, AddressProblem]>([
    ["bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqh2y7hd", "checksum"], // v1 in bech32
    ["BC1S0XLXVLHEMJA6C4DQV22UAPCTQUPFHLXM9H8Z3K2E72Q4K9HCZ7VQ54WELL", "checksum"], // v16 in bech32
    ["bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kemeawh", "checksum"], // v0 in bech32m
    ["bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5", "checksum"], // BIP-173: checksum
    ["bc1p38j9r5y49hruaue7wxjce0updqjuyyx0kh56v8s25huc6995vvpql3jow4", "characters"], // "o"
    ["BC130XLXVLHEMJA6C4DQV22UAPCTQUPFHLXM9H8Z3K2E72Q4K9HCZ7VQ7ZWS8R", "characters"], // version 17
    ["bc1pw5dgrnzv", "length"], // 1-byte program
    ["bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7v8n0nx0muaewav253zgeav", "length"], // 41 bytes
    ["BC1QR508D6QEJXTDG4Y5R3ZARVARYV98GJ9P", "length"], // v0 with 16 bytes
    ["bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7v07qwwzcrf", "characters"], // padding > 4 bits
    ["bc1gmk9yu", "characters"], // empty data
    ["bc1qw508d6qejxtdg4y5r3zarvAry0c5xw7kv8f3t4", "characters"], // mixed case
  ])("refuses %s (%s)", (a, why) => {
    expect(problem("bitcoin", a)).toBe(why);
  });

  it("tells a test network's address from a typo", () => {
    expect(problem("bitcoin", "tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7")).toBe("testnet");
    expect(problem("bitcoin", "tb1pqqqqp399et2xygdj5xreqhjjvcmzhxw4aywxecjdzew6hylgvsesf3hn0c")).toBe("testnet");
    expect(problem("bitcoin", "mipcBbFg9gMiCh81Kj8tqqdgoZub1ZJRfn")).toBe("testnet");
    expect(problem("bitcoin", "2MzQwSSnBHWHqSAqtTVQ6v47XtaisrJa1Vc")).toBe("testnet");
  });

  it("refuses segwit versions nothing can spend from yet, valid as BIP-350 addresses", () => {
    expect(problem("bitcoin", "BC1SW50QGDZ25J")).toBe("unsupported"); // v16
    expect(problem("bitcoin", "bc1zw508d6qejxtdg4y5r3zarvaryvaxxpcs")).toBe("unsupported"); // v2
    // v1 with a 40-byte program: not taproot.
    expect(problem("bitcoin", "bc1pw508d6qejxtdg4y5r3zarvary0c5xw7kw508d6qejxtdg4y5r3zarvary0c5xw7kt5nd6y")).toBe(
      "length",
    );
  });

  it("catches one mistyped character anywhere in a valid address", () => {
    const segwit = "bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0";
    for (const at of [4, 20, segwit.length - 1]) expect(problem("bitcoin", typo(segwit, at, BECH32))).toBe("checksum");
    const legacy = "1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa";
    for (const at of [3, 17, legacy.length - 1]) expect(problem("bitcoin", typo(legacy, at, BASE58))).toBe("checksum");
  });

  it("knows a Litecoin address is not a Bitcoin one", () => {
    expect(problem("bitcoin", "LVg2kJoFNg45Nbpy53h7Fe1wKyeXVRhMH9")).toBe("other-network");
  });

  it("refuses what is no address", () => {
    expect(problem("bitcoin", "")).toBe("empty");
    expect(problem("bitcoin", "   ")).toBe("empty");
    expect(problem("bitcoin", "hello world")).toBe("characters");
    expect(problem("bitcoin", "0OIl")).toBe("characters");
    expect(problem("bitcoin", "1A1zP1eP5QGefi2DMPTf")).toBe("length");
    expect(problem("bitcoin", "1".repeat(91))).toBe("length");
  });
});

describe("litecoin", () => {
  it.each([
    "LVg2kJoFNg45Nbpy53h7Fe1wKyeXVRhMH9",
    "LTpYZG19YmfvY2bBDYtCKpunVRw7nVgRHW",
    "M7uWktm4AttpT71jJco9LVZcTnCT77yGzp",
    // P2SH under version 0x05 is shared with Bitcoin: both networks take it.
    "3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy",
  ])("accepts %s", (a) => {
    expect(problem("litecoin", a)).toBe("ok");
  });

  it("refuses Bitcoin, testnet and mistyped addresses", () => {
    expect(problem("litecoin", "1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa")).toBe("other-network");
    expect(problem("litecoin", "BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4")).toBe("other-network");
    expect(problem("litecoin", "mzBc4XEFSdzCDcTxAgf6EZXgsZWpztRhef")).toBe("testnet");
    expect(problem("litecoin", typo("LVg2kJoFNg45Nbpy53h7Fe1wKyeXVRhMH9", 10, BASE58))).toBe("checksum");
  });
});

describe("ethereum (EIP-55)", () => {
  // The examples of EIP-55 itself: all caps, all lower, and checksummed mixed case.
  it.each([
    "0x52908400098527886E0F7030069857D2E4169EE7",
    "0x8617E340B3D01FA5F11F306F4090FD50E238070D",
    "0xde709f2102306220921060314715629080e2fb77",
    "0x27b1fdb04752bbc536007a920d24acb045561c26",
    "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
    "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359",
    "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB",
    "0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb",
  ])("accepts %s", (a) => {
    expect(problem("ethereum", a)).toBe("ok");
  });

  it("writes an address in its checksummed case", () => {
    expect(checkAddress("ethereum", "0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed")).toEqual({
      ok: true,
      address: "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
    });
  });

  it("refuses mixed case that is not the checksum", () => {
    // One letter's case flipped in each EIP-55 example.
    expect(problem("ethereum", "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD")).toBe("checksum");
    expect(problem("ethereum", "0xfb6916095ca1df60bB79Ce92cE3Ea74c37c5d359")).toBe("checksum");
    expect(problem("ethereum", "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6Fb")).toBe("checksum");
  });

  it("refuses wrong lengths and characters", () => {
    expect(problem("ethereum", "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeA")).toBe("length");
    expect(problem("ethereum", "5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed")).toBe("characters");
    expect(problem("ethereum", "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeg")).toBe("characters");
  });
});

describe("XRP", () => {
  it.each(["rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh", "rrrrrrrrrrrrrrrrrrrrrhoLvTp", "rrrrrrrrrrrrrrrrrrrrBZbvji"])(
    "accepts %s",
    (a) => {
      expect(problem("ripple", a)).toBe("ok");
    },
  );

  it("refuses typos, other alphabets and other forms", () => {
    expect(problem("ripple", typo("rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh", 12, XRP58))).toBe("checksum");
    // The Bitcoin genesis address is base58 but not in the XRP alphabet's layout.
    expect(problem("ripple", "1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa")).toBe("characters");
    expect(problem("ripple", "X7AcgcsBL6XDcUb289X4mJ8djcdyKaB5hJDWMArnXr61cqZ")).toBe("characters");
  });

  it("takes a destination tag as its payment id", () => {
    expect(withdrawalNetwork("RIPPLE")?.hasPaymentId).toBe(true);
    expect(checkPaymentId("ripple", "")).toBeNull();
    expect(checkPaymentId("ripple", "0")).toBeNull();
    expect(checkPaymentId("ripple", "4294967295")).toBeNull();
    expect(checkPaymentId("ripple", "4294967296")).toBe("payment-id-range");
    expect(checkPaymentId("ripple", "0123")).toBe("payment-id-format");
    expect(checkPaymentId("ripple", "12a")).toBe("payment-id-format");
    expect(checkPaymentId("bitcoin", "12")).toBe("payment-id-unsupported");
  });
});

describe("solana", () => {
  it.each([
    "11111111111111111111111111111111",
    "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA",
    "So11111111111111111111111111111111111111112",
  ])("accepts %s", (a) => {
    expect(problem("solana", a)).toBe("ok");
  });

  it("checks the alphabet and the key's length (Solana has no checksum)", () => {
    expect(problem("solana", "So1111111111111111111111111111111111111111O")).toBe("characters");
    expect(problem("solana", "1111111111111111111111111111111")).toBe("length");
    expect(problem("solana", "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed")).toBe("characters");
  });
});

describe("address rows", () => {
  const good = "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4";

  it("drops empty rows while more than one is left, and keeps a lone empty row to flag it", () => {
    const rows = reviewAddressRows(
      "bitcoin",
      [
        { address: "", paymentId: "" },
        { address: good, paymentId: "" },
        { address: "  ", paymentId: "" },
      ],
      [],
    );
    expect(rows).toEqual([{ address: good, paymentId: "", problem: null }]);
    expect(reviewAddressRows("bitcoin", [{ address: " ", paymentId: "" }], [])).toEqual([
      { address: "", paymentId: "", problem: "empty" },
    ]);
  });

  it("flags a repeat of an earlier row or of the book as existing, in any written form", () => {
    const rows = reviewAddressRows(
      "bitcoin",
      [
        { address: good.toUpperCase(), paymentId: "" },
        { address: good, paymentId: "" },
        { address: "1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa", paymentId: "" },
      ],
      [{ address: "1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa", paymentId: "" }],
    );
    expect(rows.map((r) => r.problem)).toEqual([null, "existing", "existing"]);
  });

  it("tells one XRP account's destination tags apart, and Ethereum's case forms together", () => {
    const xrp = "rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh";
    expect(addressKey("ripple", xrp, "1")).not.toBe(addressKey("ripple", xrp, "2"));
    expect(addressKey("ethereum", "0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed", "")).toBe(
      addressKey("ethereum", "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", ""),
    );
  });
});
