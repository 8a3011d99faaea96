/**
 * Deposits (docs/product-rules.md#deposits): the methods a currency arrives by, the confirmations
 * and minimum of each, how the exchange makes an account's deposit addresses, and the movement row
 * with its confirmation count. Shared by the exchange (which issues addresses and credits deposits)
 * and the deposit page (which shows them), so both read one table.
 *
 * Addresses are real addresses of their network, made from a 32-byte seed the exchange derives
 * from the account, the method and a counter: bech32 P2WPKH for Bitcoin and Litecoin (BIP-173),
 * EIP-55 for Ethereum and USDt on Ethereum, a base58 public key for Solana and USDt on Solana. XRP
 * and bank wires credit one customer among many on a shared destination: the exchange's pool
 * address (an XRP classic address; a bank account) with a per-account destination tag or payment
 * reference. The encodings come from `@scure/base` and `@noble/hashes`, as `addresses.ts` checks
 * them — every address made here passes `checkAddress` (deposits.test.ts).
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { utf8ToBytes } from "@noble/hashes/utils.js";
import { base32crockford, base58, base58xrp, bech32 } from "@scure/base";
import { checkAddress, type WithdrawalMethod } from "./addresses";
import { recordCodec, type Decoded, type FieldSpec } from "./positional";

/** How a deposit method's destination looks. */
export type DepositKind =
  /** An address of its own per account. */
  | "address"
  /** The exchange's shared address and a per-account payment id (the currency's `hasPaymentIdForDeposits`). */
  | "pooled"
  /** A bank wire to the exchange's account with a per-account payment reference. */
  | "wire";

export interface DepositMethod {
  /** The method's wire name (`w/deposit/address`'s `method`; the currency data's `txMethods` key). */
  readonly method: string;
  readonly currency: string;
  /** The network as the page names it (a proper name, not translated). */
  readonly network: string;
  readonly kind: DepositKind;
  /** The network whose address rules apply (`addresses.ts`); null for a bank wire. */
  readonly addressRules: WithdrawalMethod | null;
  /** Confirmations before the deposit is credited (for a wire: the bank's one settlement). */
  readonly confirmations: number;
  /** The smallest deposit credited; a smaller one is recorded and not credited. */
  readonly minimum: number;
  /** The currency data's `hasPaymentIdForDeposits`: a deposit without the payment id cannot be credited. */
  readonly hasPaymentIdForDeposits: boolean;
}

/** The deposit methods, in the order the page offers them; USDt arrives on two networks (tether protocols). */
export const DEPOSIT_METHODS: readonly DepositMethod[] = [
  {
    method: "bitcoin",
    currency: "BTC",
    network: "Bitcoin",
    kind: "address",
    addressRules: "bitcoin",
    confirmations: 3,
    minimum: 0.0001,
    hasPaymentIdForDeposits: false,
  },
  {
    method: "ethereum",
    currency: "ETH",
    network: "Ethereum (ERC-20)",
    kind: "address",
    addressRules: "ethereum",
    confirmations: 12,
    minimum: 0.005,
    hasPaymentIdForDeposits: false,
  },
  {
    method: "litecoin",
    currency: "LTC",
    network: "Litecoin",
    kind: "address",
    addressRules: "litecoin",
    confirmations: 6,
    minimum: 0.01,
    hasPaymentIdForDeposits: false,
  },
  {
    method: "ripple",
    currency: "XRP",
    network: "XRP Ledger",
    kind: "pooled",
    addressRules: "ripple",
    confirmations: 1,
    minimum: 10,
    hasPaymentIdForDeposits: true,
  },
  {
    method: "solana",
    currency: "SOL",
    network: "Solana",
    kind: "address",
    addressRules: "solana",
    confirmations: 1,
    minimum: 0.05,
    hasPaymentIdForDeposits: false,
  },
  {
    method: "tetheruse",
    currency: "UST",
    network: "Ethereum (ERC-20)",
    kind: "address",
    addressRules: "ethereum",
    confirmations: 12,
    minimum: 10,
    hasPaymentIdForDeposits: false,
  },
  {
    method: "tethersol",
    currency: "UST",
    network: "Solana (SPL)",
    kind: "address",
    addressRules: "solana",
    confirmations: 1,
    minimum: 5,
    hasPaymentIdForDeposits: false,
  },
  {
    method: "wireusd",
    currency: "USD",
    network: "Bank wire",
    kind: "wire",
    addressRules: null,
    confirmations: 1,
    minimum: 1000,
    hasPaymentIdForDeposits: true,
  },
  {
    method: "wireeur",
    currency: "EUR",
    network: "Bank wire",
    kind: "wire",
    addressRules: null,
    confirmations: 1,
    minimum: 1000,
    hasPaymentIdForDeposits: true,
  },
];

/**
 * The ticker a person knows a currency by: the API's code but for USDt, whose code is `UST`
 * (`pub:map:currency:sym` maps it to USDT; Tether writes it USDt). A proper name, not translated.
 */
export function currencyTicker(code: string): string {
  return code === "UST" ? "USDt" : code;
}

/** The method of a wire name (any case), or undefined. */
export function depositMethod(name: string): DepositMethod | undefined {
  const m = name.toLowerCase();
  return DEPOSIT_METHODS.find((d) => d.method === m);
}

/** The currencies that can be deposited, in the methods' order. */
export const DEPOSIT_CURRENCIES: readonly string[] = [...new Set(DEPOSIT_METHODS.map((d) => d.currency))];

/** A currency's deposit methods. */
export function depositMethodsOf(currency: string): readonly DepositMethod[] {
  return DEPOSIT_METHODS.filter((d) => d.currency === currency);
}

/** The bank account a wire in the currency goes to; the reference tells the exchange whose it is. */
export interface WireAccount {
  readonly beneficiary: string;
  readonly bank: string;
  readonly bankAddress: string;
  /** SWIFT/BIC. */
  readonly swift: string;
  /** IBAN (mod-97 checked), or the account number for a US wire. */
  readonly account: string;
}

/** IBAN check digits (ISO 13616: the BBAN, then the country and "00", letters as numbers, mod 97). */
function ibanOf(country: string, bban: string): string {
  const digits = `${bban}${country}00`.replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55));
  let rest = 0;
  for (const d of digits) rest = (rest * 10 + Number(d)) % 97;
  return `${country}${String(98 - rest).padStart(2, "0")}${bban}`;
}

export const WIRE_ACCOUNTS: Readonly<Record<string, WireAccount>> = {
  USD: {
    beneficiary: "Orderflow Exchange Ltd",
    bank: "Harbor Trust Bank",
    bankAddress: "1 Harbor Plaza, Wilmington DE 19801, United States",
    swift: "HRBTUS33",
    account: "4417230981",
  },
  EUR: {
    beneficiary: "Orderflow Exchange Ltd",
    bank: "Banco Atlántico",
    bankAddress: "Avenida da Liberdade 120, 1250-146 Lisboa, Portugal",
    swift: "BATLPTPL",
    account: ibanOf("PT", "001800034417230981523"),
  },
};

/** Whether a text is a valid IBAN (mod-97), for the tests and the page's sanity. */
export function ibanValid(iban: string): boolean {
  const t = iban.replace(/\s+/g, "").toUpperCase();
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{10,30}$/.test(t)) return false;
  const digits = `${t.slice(4)}${t.slice(0, 4)}`.replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55));
  let rest = 0;
  for (const d of digits) rest = (rest * 10 + Number(d)) % 97;
  return rest === 1;
}

/** The exchange's shared XRP address (from a fixed seed, so it is the same on every run). */
export const XRP_POOL_ADDRESS = xrpAddress(sha256(utf8ToBytes("orderflow:xrp:pool")).subarray(0, 20));

function xrpAddress(accountId: Uint8Array): string {
  const payload = new Uint8Array(21);
  payload.set(accountId, 1);
  const sum = sha256(sha256(payload)).subarray(0, 4);
  const raw = new Uint8Array(25);
  raw.set(payload);
  raw.set(sum, 21);
  return base58xrp.encode(raw);
}

/**
 * An account's destination for a method from its 32-byte seed: an address for `address` methods,
 * the destination tag (1–4294967295 as decimal text) for `pooled`, the payment reference
 * (`OF` and twelve Crockford base-32 characters) for `wire`.
 */
export function depositDestination(m: DepositMethod, seed: Uint8Array): string {
  if (seed.length < 32) throw new Error("deposit seed: 32 bytes needed");
  switch (m.kind) {
    case "pooled": {
      const tag =
        ((seed[0] ?? 0) * 2 ** 24 + (seed[1] ?? 0) * 2 ** 16 + (seed[2] ?? 0) * 2 ** 8 + (seed[3] ?? 0)) >>> 0;
      return String(tag === 0 ? 1 : tag);
    }
    case "wire":
      return `OF${base32crockford.encode(seed.subarray(0, 8)).slice(0, 12)}`;
    case "address":
      break;
    default: {
      const never: never = m.kind;
      return never;
    }
  }
  switch (m.addressRules) {
    case "bitcoin":
      return bech32.encode("bc", [0, ...bech32.toWords(seed.subarray(0, 20))]);
    case "litecoin":
      return bech32.encode("ltc", [0, ...bech32.toWords(seed.subarray(0, 20))]);
    case "ethereum": {
      const hex = Array.from(seed.subarray(0, 20), (b) => b.toString(16).padStart(2, "0")).join("");
      const checked = checkAddress("ethereum", `0x${hex}`);
      // All lower case always passes; the answer is its EIP-55 form.
      if (!checked.ok) throw new Error("ethereum address: not encodable");
      return checked.address;
    }
    case "solana":
      return base58.encode(seed.subarray(0, 32));
    case "ripple":
      return xrpAddress(seed.subarray(0, 20));
    case null:
      throw new Error(`deposit method ${m.method}: no address rules`);
    default: {
      const never: never = m.addressRules;
      return never;
    }
  }
}

/**
 * A movement row (`r/movements[/{ccy}]/hist`): the 22 fields Bitfinex documents, its PAYMENT_ID in
 * field 17, and in two of its reserved slots this exchange's confirmation count (7) and the count
 * needed (8), null for a withdrawal (docs/protocol.md#movements). A deposit's status is `PENDING`
 * (seen, no confirmation yet), `CONFIRMING` (some, not all), `COMPLETED` (credited) or
 * `BELOW MINIMUM` (recorded, never credited); withdrawals here complete at once (`COMPLETED`).
 */
const MOVEMENT_ROW = {
  id: [0, "num"],
  currency: [1, "str"],
  currencyName: [2, "str?"],
  mtsStarted: [5, "num?"],
  mtsUpdated: [6, "num?"],
  confirmations: [7, "num?"],
  confirmationsRequired: [8, "num?"],
  status: [9, "str?"],
  amount: [12, "num"],
  fees: [13, "num?"],
  destinationAddress: [16, "str?"],
  paymentId: [17, "str?"],
  txId: [20, "str?"],
  withdrawNote: [21, "str?"],
} as const satisfies FieldSpec;
export type MovementRow = Decoded<typeof MOVEMENT_ROW>;
export const movementRowCodec = recordCodec("movement row", MOVEMENT_ROW, 22);

/** The notification types of a deposit's arrival and of its credit (`n` frames, `data` a movement row). */
export const DEPOSIT_NOTIFICATIONS = { arrived: "deposit_new", completed: "deposit_complete" } as const;
