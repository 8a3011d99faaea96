/**
 * The wire records of the withdrawal address book (`/v1/account_address_book_entries`) and of the
 * address check (`/v1/ui_check_address`), docs/protocol.md#address-book: built by the exchange and
 * read by the page through this one module. They are v1 calls, so their bodies are objects with
 * snake_case keys, as Bitfinex's v1 answers are, not v2's positional arrays.
 */
import {
  withdrawalNetwork,
  type AddressProblem,
  type Beneficiary,
  type PaymentIdProblem,
  type WithdrawalMethod,
} from "./addresses";

/**
 * Where an entry stands: `pending` until the mailed link is opened, `expired` when the link ran out
 * unopened (delete the entry and add it again), `confirmed` once it may receive withdrawals.
 */
export type AddressEntryStatus = "pending" | "expired" | "confirmed";

export interface AddressBookEntry {
  readonly id: number;
  readonly currency: string;
  readonly method: WithdrawalMethod;
  readonly label: string;
  readonly address: string;
  /** The payment id (XRP destination tag); empty when none. */
  readonly paymentId: string;
  readonly beneficiary: Beneficiary;
  readonly status: AddressEntryStatus;
  readonly mtsCreate: number;
  readonly mtsConfirm: number | null;
}

/**
 * A currency's withdrawal settings: `whitelist` — withdrawals go only to its confirmed entries;
 * `disabled` — no withdrawal of it at all (the disabled marker), whatever the whitelist says.
 */
export interface CurrencyWithdrawals {
  readonly currency: string;
  readonly whitelist: boolean;
  readonly disabled: boolean;
  /**
   * A loosening asked for and waiting for the owner's mailed link: when that link stops working
   * (epoch ms), else null. `pendingWhitelistOff`: the whitelist turns off; `pendingEnable`: the
   * currency's withdrawals turn on again.
   */
  readonly pendingWhitelistOff: number | null;
  readonly pendingEnable: number | null;
}

export interface AddressBook {
  readonly entries: readonly AddressBookEntry[];
  readonly currencies: readonly CurrencyWithdrawals[];
}

const STATUSES: ReadonlySet<string> = /* @__PURE__ */ new Set(["pending", "expired", "confirmed"]);
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function encodeEntry(e: AddressBookEntry): Record<string, unknown> {
  return {
    id: e.id,
    currency: e.currency,
    method: e.method,
    label: e.label,
    address: e.address,
    payment_id: e.paymentId === "" ? null : e.paymentId,
    beneficiary: e.beneficiary,
    status: e.status,
    mts_create: e.mtsCreate,
    mts_confirm: e.mtsConfirm,
  };
}

function decodeBeneficiary(v: unknown): Beneficiary | null {
  if (!isRecord(v)) return null;
  if (v["type"] === "self") return { type: "self" };
  const name = v["name"];
  const country = v["country"];
  return v["type"] === "third_party" && typeof name === "string" && typeof country === "string"
    ? { type: "third_party", name, country }
    : null;
}

function decodeEntry(v: unknown): AddressBookEntry | null {
  if (!isRecord(v)) return null;
  const { id, currency, method, label, address, status, mts_create: mtsCreate, mts_confirm: mtsConfirm } = v;
  const network = typeof method === "string" ? withdrawalNetwork(method) : undefined;
  const beneficiary = decodeBeneficiary(v["beneficiary"]);
  const paymentId = v["payment_id"];
  if (
    typeof id !== "number" ||
    typeof currency !== "string" ||
    network === undefined ||
    typeof label !== "string" ||
    typeof address !== "string" ||
    typeof status !== "string" ||
    !STATUSES.has(status) ||
    typeof mtsCreate !== "number" ||
    !(mtsConfirm === null || typeof mtsConfirm === "number") ||
    !(paymentId === null || typeof paymentId === "string") ||
    beneficiary === null
  )
    return null;
  return {
    id,
    currency,
    method: network.method,
    label,
    address,
    paymentId: paymentId ?? "",
    beneficiary,
    status: status as AddressEntryStatus,
    mtsCreate,
    mtsConfirm,
  };
}

const isExpiry = (v: unknown): v is number | null => v === null || (typeof v === "number" && Number.isFinite(v));

/**
 * The address book's body: `{entries: [ENTRY…], currencies: [{currency, whitelist, disabled,
 * pending_whitelist_off, pending_enable}…]}` (the last two: a waiting change's expiry, or null).
 */
export const addressBookCodec = {
  encode(book: AddressBook): Record<string, unknown> {
    return {
      entries: book.entries.map(encodeEntry),
      currencies: book.currencies.map((c) => ({
        currency: c.currency,
        whitelist: c.whitelist,
        disabled: c.disabled,
        pending_whitelist_off: c.pendingWhitelistOff,
        pending_enable: c.pendingEnable,
      })),
    };
  },
  /** The book, or null when the body is not one (an entry or a currency malformed). */
  decode(raw: unknown): AddressBook | null {
    if (!isRecord(raw) || !Array.isArray(raw["entries"]) || !Array.isArray(raw["currencies"])) return null;
    const entries: AddressBookEntry[] = [];
    for (const e of raw["entries"] as unknown[]) {
      const entry = decodeEntry(e);
      if (!entry) return null;
      entries.push(entry);
    }
    const currencies: CurrencyWithdrawals[] = [];
    for (const c of raw["currencies"] as unknown[]) {
      if (!isRecord(c) || typeof c["currency"] !== "string") return null;
      if (typeof c["whitelist"] !== "boolean" || typeof c["disabled"] !== "boolean") return null;
      const off = c["pending_whitelist_off"];
      const enable = c["pending_enable"];
      if (!isExpiry(off) || !isExpiry(enable)) return null;
      currencies.push({
        currency: c["currency"],
        whitelist: c["whitelist"],
        disabled: c["disabled"],
        pendingWhitelistOff: off,
        pendingEnable: enable,
      });
    }
    return { entries, currencies };
  },
};

/** The answer of `/v1/ui_check_address`: valid with the address's best written form, or the reason. */
export type AddressCheckResult =
  | { readonly valid: true; readonly address: string }
  | { readonly valid: false; readonly reason: AddressProblem | PaymentIdProblem };

export const addressCheckCodec = {
  encode(r: AddressCheckResult): Record<string, unknown> {
    return r.valid
      ? { valid: true, address: r.address, reason: null }
      : { valid: false, address: null, reason: r.reason };
  },
  decode(raw: unknown): AddressCheckResult | null {
    if (!isRecord(raw)) return null;
    if (raw["valid"] === true && typeof raw["address"] === "string") return { valid: true, address: raw["address"] };
    const reason = raw["reason"];
    return raw["valid"] === false && typeof reason === "string" && CHECK_REASONS.has(reason)
      ? { valid: false, reason: reason as AddressProblem | PaymentIdProblem }
      : null;
  },
};

const CHECK_REASONS: ReadonlySet<string> = /* @__PURE__ */ new Set([
  "empty",
  "characters",
  "checksum",
  "length",
  "testnet",
  "other-network",
  "unsupported",
  "payment-id-format",
  "payment-id-range",
  "payment-id-unsupported",
]);
