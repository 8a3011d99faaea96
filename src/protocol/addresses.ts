/**
 * Withdrawal destinations: which networks a currency is withdrawn on, and whether a text is an
 * address of that network (docs/product-rules.md#withdrawal-addresses). One module for the
 * exchange's `/v1/ui_check_address`, its withdrawals and address book, and the pages' as-you-type
 * check, so a browser and the server can never disagree on what is an address.
 *
 * The encodings and hashes come from audited libraries, never from code of our own: base58,
 * base58check, the XRP alphabet and bech32/bech32m from `@scure/base`, SHA-256 and Keccak-256 from
 * `@noble/hashes` (both pure ES, no runtime of their own, so this folder stays pure). What is checked,
 * per network:
 *
 * - Bitcoin: base58check P2PKH (version 0x00) and P2SH (0x05); segwit in bech32 for witness
 *   version 0 (a 20- or 32-byte program) and bech32m for versions 1–16 (2–40 bytes), as BIP-173 and
 *   BIP-350 define them. Testnet forms (`tb1…`, versions 0x6f/0xc4) are told apart from typos.
 * - Litecoin: base58check versions 0x30 (`L`), 0x32 (`M`) and the shared P2SH 0x05 (`3`); `ltc1…`
 *   segwit by the same rules.
 * - Ethereum: `0x` and 40 hex digits; a mixed-case address must carry its EIP-55 checksum (Keccak-256
 *   of the lower-case hex), while an all-lower or all-upper one carries none to check.
 * - XRP: a classic `r…` address in the XRP base58 alphabet (account id 0x00, 20 bytes, a 4-byte
 *   double SHA-256 checksum); the destination tag (a 32-bit unsigned number) is the payment id.
 * - Solana: base58 of a 32-byte public key. Solana addresses carry no checksum, so only the alphabet
 *   and the length can be checked.
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { keccak_256 } from "@noble/hashes/sha3.js";
import { utf8ToBytes } from "@noble/hashes/utils.js";
import { base58, base58xrp, bech32, bech32m, createBase58check } from "@scure/base";

/** A withdrawal method: the network a currency leaves on (the `method` of `w/withdraw`). */
export type WithdrawalMethod = "bitcoin" | "litecoin" | "ethereum" | "ripple" | "solana";

/** What a withdrawal network asks for besides the address. */
export interface WithdrawalNetwork {
  readonly method: WithdrawalMethod;
  readonly currency: string;
  /** The currency's name (a proper name, not translated). */
  readonly currencyName: string;
  /** The network's name as the page shows it (a proper name, not translated). */
  readonly name: string;
  /**
   * Whether a withdrawal may carry a payment id (the currency data's `hasPaymentIdForWithdrawals`):
   * XRP's destination tag, which exchanges use to credit one customer among many on one address.
   */
  readonly hasPaymentId: boolean;
}

/** The withdrawal networks this exchange offers, one per currency. */
export const WITHDRAWAL_NETWORKS: readonly WithdrawalNetwork[] = [
  { method: "bitcoin", currency: "BTC", currencyName: "Bitcoin", name: "Bitcoin", hasPaymentId: false },
  { method: "ethereum", currency: "ETH", currencyName: "Ethereum", name: "Ethereum (ERC-20)", hasPaymentId: false },
  { method: "litecoin", currency: "LTC", currencyName: "Litecoin", name: "Litecoin", hasPaymentId: false },
  { method: "ripple", currency: "XRP", currencyName: "XRP", name: "XRP Ledger", hasPaymentId: true },
  { method: "solana", currency: "SOL", currencyName: "Solana", name: "Solana", hasPaymentId: false },
];

/** The network of a method name (any case), or undefined when there is none. */
export function withdrawalNetwork(method: string): WithdrawalNetwork | undefined {
  const m = method.toLowerCase();
  return WITHDRAWAL_NETWORKS.find((n) => n.method === m);
}

/** The currencies that can be withdrawn, in the order the networks are listed. */
// Pure: the app's first chunk imports this folder's index, and what it does not use must shake out.
export const WITHDRAWAL_CURRENCIES: readonly string[] = /* @__PURE__ */ uniqueCurrencies();

function uniqueCurrencies(): string[] {
  return [...new Set(WITHDRAWAL_NETWORKS.map((n) => n.currency))];
}

/**
 * Why a text is not an address of the network:
 * - `empty`: nothing was entered;
 * - `characters`: characters or a shape the network's addresses never have;
 * - `checksum`: the shape is right but the checksum is not (a mistyped or swapped character);
 * - `length`: it decodes, but to the wrong number of bytes;
 * - `testnet`: a test network's address (coins sent there are not the real currency);
 * - `other-network`: a well-formed address of another network (a Litecoin address for Bitcoin);
 * - `unsupported`: a valid address of a kind nothing can spend from yet (a segwit version above 1),
 *   where coins would be lost.
 */
export type AddressProblem =
  "empty" | "characters" | "checksum" | "length" | "testnet" | "other-network" | "unsupported";

/** Why a payment id is refused: not a whole number, above the network's range, or not taken at all. */
export type PaymentIdProblem = "payment-id-format" | "payment-id-range" | "payment-id-unsupported";

export type AddressCheck =
  | {
      readonly ok: true;
      /** The address as it is best written (EIP-55 case for Ethereum, lower case for bech32). */
      readonly address: string;
    }
  | { readonly ok: false; readonly problem: AddressProblem };

/**
 * Made on first use, not at load: a call at the module's top level would keep the codecs and SHA-256
 * in every bundle that imports src/protocol, the app's first chunk among them.
 */
let base58checkCoder: ReturnType<typeof createBase58check> | null = null;
const base58check = (): ReturnType<typeof createBase58check> => (base58checkCoder ??= createBase58check(sha256));
const BASE58 = /^[1-9A-HJ-NP-Za-km-z]+$/;
const BASE58_XRP = /^[rpshnaf39wBUDNEGHJKLM4PQRST7VWXYZ2bcdeCg65jkm8oFqi1tuvAxyz]+$/;
/** bech32's data characters (BIP-173), in one case; the separator is the last "1". */
const BECH32_DATA = /^[qpzry9x8gf2tvdw0s3jn54khce6mua7l]+$/;

const bad = (problem: AddressProblem): AddressCheck => ({ ok: false, problem });

/** Which human-readable part and base58 versions mean what, per UTXO network. */
interface UtxoRules {
  readonly hrp: string;
  readonly testHrps: readonly string[];
  readonly versions: readonly number[];
  readonly testVersions: readonly number[];
}

const BITCOIN: UtxoRules = { hrp: "bc", testHrps: ["tb", "bcrt"], versions: [0x00, 0x05], testVersions: [0x6f, 0xc4] };
const LITECOIN: UtxoRules = {
  hrp: "ltc",
  testHrps: ["tltc", "rltc"],
  versions: [0x30, 0x32, 0x05],
  testVersions: [0x6f, 0x3a, 0xc4],
};

/**
 * A segwit address (BIP-173, BIP-350): version 0 in bech32 with a 20- or 32-byte program, versions
 * 1–16 in bech32m with 2–40 bytes. A version in the wrong checksum variant is a checksum error — it
 * is exactly the mistake bech32m was introduced to catch. Valid as BIP-350 addresses but refused as
 * destinations: a version 1 program other than 32 bytes (not taproot) and versions 2–16, which no
 * soft fork gives a meaning yet — an output there is spendable by anyone, so the coins are lost.
 */
function checkSegwit(text: string, rules: UtxoRules, other: UtxoRules): AddressCheck {
  // A segwit address is all lower or all upper case (QR codes use upper); mixed case is invalid.
  if (text !== text.toLowerCase() && text !== text.toUpperCase()) return bad("characters");
  const lower = text.toLowerCase();
  const sep = lower.lastIndexOf("1");
  const hrp = lower.slice(0, sep);
  if (!BECH32_DATA.test(lower.slice(sep + 1)) || lower.length > 90) return bad("characters");
  const decoded = bech32.decodeUnsafe(lower) ?? bech32m.decodeUnsafe(lower);
  if (!decoded) return bad("checksum");
  const version = decoded.words[0];
  if (version === undefined || version > 16) return bad("characters");
  const isBech32m = bech32m.decodeUnsafe(lower) !== undefined;
  if ((version === 0) === isBech32m) return bad("checksum");
  const program = bech32.fromWordsUnsafe(decoded.words.slice(1));
  if (!program) return bad("characters");
  const size = program.length;
  if (version === 0 ? size !== 20 && size !== 32 : size < 2 || size > 40) return bad("length");
  if (rules.testHrps.includes(hrp)) return bad("testnet");
  if (hrp === other.hrp || other.testHrps.includes(hrp)) return bad("other-network");
  if (hrp !== rules.hrp) return bad("characters");
  if (version >= 2) return bad("unsupported");
  return version === 1 && size !== 32 ? bad("length") : { ok: true, address: lower };
}

/** A base58check address: 21 bytes, a version byte and a 20-byte hash. */
function checkBase58check(text: string, rules: UtxoRules, other: UtxoRules): AddressCheck {
  if (!BASE58.test(text)) return bad("characters");
  let raw: Uint8Array;
  try {
    raw = base58.decode(text);
  } catch {
    return bad("characters");
  }
  if (raw.length !== 25) return bad("length");
  let payload: Uint8Array;
  try {
    payload = base58check().decode(text);
  } catch {
    return bad("checksum");
  }
  const version = payload[0] ?? -1;
  if (rules.versions.includes(version)) return { ok: true, address: text };
  if (rules.testVersions.includes(version)) return bad("testnet");
  if (other.versions.includes(version) || other.testVersions.includes(version)) return bad("other-network");
  return bad("characters");
}

function checkUtxo(text: string, rules: UtxoRules, other: UtxoRules): AddressCheck {
  const lower = text.toLowerCase();
  const sep = lower.lastIndexOf("1");
  const hrp = sep > 0 ? lower.slice(0, sep) : "";
  const known = [rules.hrp, ...rules.testHrps, other.hrp, ...other.testHrps];
  // Base58 has no "l" and no "0": a text opening with a segwit prefix is read as bech32 only.
  if (known.some((h) => hrp === h || lower.startsWith(`${h}1`))) return checkSegwit(text, rules, other);
  return checkBase58check(text, rules, other);
}

/** EIP-55: each hex letter upper case where the matching nibble of keccak256(lower-case hex) is 8 or more. */
function eip55(hexLower: string): string {
  const hash = keccak_256(utf8ToBytes(hexLower));
  let out = "0x";
  for (let i = 0; i < hexLower.length; i++) {
    const byte = hash[i >> 1] ?? 0;
    const nibble = i % 2 === 0 ? byte >> 4 : byte & 0x0f;
    const c = hexLower.charAt(i);
    out += nibble >= 8 ? c.toUpperCase() : c;
  }
  return out;
}

function checkEthereum(text: string): AddressCheck {
  if (!/^0[xX][0-9a-fA-F]*$/.test(text)) return bad("characters");
  const hex = text.slice(2);
  if (hex.length !== 40) return bad("length");
  const checksummed = eip55(hex.toLowerCase());
  // All one case carries no checksum (EIP-55 keeps such addresses valid); mixed case must match it.
  const oneCase = hex === hex.toLowerCase() || hex === hex.toUpperCase();
  if (!oneCase && `0x${hex}` !== checksummed) return bad("checksum");
  return { ok: true, address: checksummed };
}

function checkXrp(text: string): AddressCheck {
  if (!text.startsWith("r") || !BASE58_XRP.test(text)) return bad("characters");
  let raw: Uint8Array;
  try {
    raw = base58xrp.decode(text);
  } catch {
    return bad("characters");
  }
  if (raw.length !== 25 || raw[0] !== 0x00) return bad("length");
  const payload = raw.subarray(0, 21);
  const sum = sha256(sha256(payload));
  for (let i = 0; i < 4; i++) if (raw[21 + i] !== sum[i]) return bad("checksum");
  return { ok: true, address: text };
}

function checkSolana(text: string): AddressCheck {
  if (!BASE58.test(text)) return bad("characters");
  let raw: Uint8Array;
  try {
    raw = base58.decode(text);
  } catch {
    return bad("characters");
  }
  return raw.length === 32 ? { ok: true, address: text } : bad("length");
}

/**
 * Whether `text` (surrounding spaces ignored) is an address of the method's network, and if so its
 * best written form.
 */
export function checkAddress(method: WithdrawalMethod, text: string): AddressCheck {
  const t = text.trim();
  if (t === "") return bad("empty");
  // Nothing on any network is longer than 90 characters (bech32's own limit).
  if (t.length > 90) return bad("length");
  switch (method) {
    case "bitcoin":
      return checkUtxo(t, BITCOIN, LITECOIN);
    case "litecoin":
      return checkUtxo(t, LITECOIN, BITCOIN);
    case "ethereum":
      return checkEthereum(t);
    case "ripple":
      return checkXrp(t);
    case "solana":
      return checkSolana(t);
    default: {
      const never: never = method;
      return never;
    }
  }
}

/** The largest XRP destination tag: an unsigned 32-bit number. */
const MAX_DESTINATION_TAG = 4_294_967_295;

/**
 * Whether a payment id fits the method: empty is always fine (none sent); XRP takes a destination
 * tag, a decimal number 0–4294967295 without leading zeros; other networks take none.
 */
export function checkPaymentId(method: WithdrawalMethod, text: string): PaymentIdProblem | null {
  const t = text.trim();
  if (t === "") return null;
  if (!withdrawalNetwork(method)?.hasPaymentId) return "payment-id-unsupported";
  if (!/^(?:0|[1-9][0-9]{0,9})$/.test(t)) return "payment-id-format";
  return Number(t) <= MAX_DESTINATION_TAG ? null : "payment-id-range";
}

/**
 * What two entries are compared by: the best written form, and for Ethereum its lower case (an
 * address with and without its EIP-55 case is one account). Only for texts `checkAddress` accepted.
 */
export function addressKey(method: WithdrawalMethod, address: string, paymentId: string): string {
  const checked = checkAddress(method, address);
  const written = checked.ok ? checked.address : address.trim();
  const key = method === "ethereum" ? written.toLowerCase() : written;
  return `${method}:${key}:${paymentId.trim()}`;
}

/** One address row of the add-address form (or of the address book it is compared with). */
export interface AddressRow {
  readonly address: string;
  readonly paymentId: string;
}

/** Why a row is refused: its address, its payment id, or `existing` (already in the book or above). */
export type AddressRowProblem = AddressProblem | PaymentIdProblem | "existing";

export interface ReviewedRow extends AddressRow {
  readonly problem: AddressRowProblem | null;
}

/**
 * The rows of one add-address request as the exchange takes them
 * (docs/product-rules.md#withdrawal-addresses): empty rows are dropped while more than one row is
 * left (a single empty row stays, to say "enter an address"); each row is checked; a row that repeats
 * an address already in `book`, or a row above it, is flagged `existing` — the first copy stands,
 * every later one is the duplicate.
 */
export function reviewAddressRows(
  method: WithdrawalMethod,
  rows: readonly AddressRow[],
  book: readonly AddressRow[],
): ReviewedRow[] {
  const filled = rows.filter((r) => r.address.trim() !== "" || r.paymentId.trim() !== "");
  const kept = filled.length > 0 ? filled : rows.slice(0, 1);
  const seen = new Set(book.map((r) => addressKey(method, r.address, r.paymentId)));
  return kept.map((r) => {
    const checked = checkAddress(method, r.address);
    const problem: AddressRowProblem | null = !checked.ok
      ? checked.problem
      : (checkPaymentId(method, r.paymentId) ??
        (seen.has(addressKey(method, r.address, r.paymentId)) ? "existing" : null));
    if (checked.ok) seen.add(addressKey(method, r.address, r.paymentId));
    return { address: checked.ok ? checked.address : r.address.trim(), paymentId: r.paymentId.trim(), problem };
  });
}

/**
 * The address that, added to a currency's address book, turns the currency's withdrawals off
 * (docs/product-rules.md#withdrawal-addresses); no network has an address of this shape.
 */
export const WITHDRAWALS_DISABLED_MARKER = "DISABLED";

/** The address book's limits, which the page and the exchange both apply. */
export const ADDRESS_BOOK_LIMITS = {
  /** A label: what the owner calls the address, one line. */
  label: 64,
  /** The third party's name the travel rule needs when the owner is not the account holder. */
  beneficiaryName: 100,
  /** Address rows in one add-address request. */
  rows: 10,
  /** Entries per account. */
  entries: 100,
} as const;

/** Whether a label (trimmed) may be stored: 1–64 characters on one line. */
export function labelValid(label: string): boolean {
  const t = label.trim();
  return t.length >= 1 && t.length <= ADDRESS_BOOK_LIMITS.label && !/\p{Cc}/u.test(t);
}

/**
 * Who owns a withdrawal address (the "permitted beneficiary"): the account holder, or a named third
 * party in a country (ISO 3166-1 alpha-2), which the travel rule asks a sending exchange to know.
 */
export type Beneficiary =
  { readonly type: "self" } | { readonly type: "third_party"; readonly name: string; readonly country: string };

/** Why a beneficiary is refused, by field. */
export type BeneficiaryProblem = "type" | "name" | "country";

/** Reads a beneficiary from a request or a form; a third party needs a name and a country code. */
export function readBeneficiary(v: unknown): Beneficiary | BeneficiaryProblem {
  if (typeof v !== "object" || v === null) return "type";
  const b = v as Record<string, unknown>;
  if (b["type"] === "self") return { type: "self" };
  if (b["type"] !== "third_party") return "type";
  const name = typeof b["name"] === "string" ? b["name"].trim() : "";
  if (name === "" || name.length > ADDRESS_BOOK_LIMITS.beneficiaryName || /\p{Cc}/u.test(name)) return "name";
  const country = typeof b["country"] === "string" ? b["country"].trim().toUpperCase() : "";
  if (!/^[A-Z]{2}$/.test(country)) return "country";
  return { type: "third_party", name, country };
}
