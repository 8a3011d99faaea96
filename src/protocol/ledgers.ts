/**
 * Ledger categories and the ledger history query (docs/protocol.md#ledger-history). The exchange
 * writes each ledger row with a description of its own wording; the category is read from that
 * wording here, once, so the exchange (which stores it for the `category` filter) and the app (which
 * shows it) can never disagree. The numbers are Bitfinex's `category` codes.
 */
import {
  decodeList,
  decodePositional,
  encodePositional,
  type Decoded,
  type DecodeResult,
  type FieldSpec,
} from "./positional";
import { HISTORY_LIMIT_MAX, parseRangeQuery, wholeNumber, type RangeQuery } from "./history";
import { WALLET_TYPES, type WalletType } from "./records";

export const LEDGER_CATEGORY = {
  /** A spot trade: what was paid and what was received. */
  EXCHANGE: 5,
  /** A margin position's realised profit or loss. */
  POSITION: 22,
  /** A margin position claimed into the wallet. */
  POSITION_CLAIM: 23,
  /** Margin funding: interest paid to lenders, charged to borrowers. */
  MARGIN_FUNDING: 28,
  /** Anything else the exchange adjusted (Bitfinex's 401; its 31 is a derivatives settlement). */
  ADJUSTMENT: 401,
  /** Between wallets or accounts. */
  TRANSFER: 51,
  DEPOSIT: 101,
  WITHDRAWAL: 104,
  /** A withdrawal cancelled before it was sent: the amount back in the wallet. */
  CANCELED_WITHDRAWAL: 105,
  TRADING_FEE: 201,
  /** One currency converted into another in the same wallet (Bitfinex's "currency conversion"). */
  CONVERSION: 905,
} as const;

export type LedgerCategory = (typeof LEDGER_CATEGORY)[keyof typeof LEDGER_CATEGORY];
export const LEDGER_CATEGORIES: readonly LedgerCategory[] = Object.values(LEDGER_CATEGORY);

/** The category's word in the CSV export (stable, not translated: a spreadsheet filters by it). */
export const LEDGER_CATEGORY_NAME: Readonly<Record<LedgerCategory, string>> = {
  5: "exchange",
  22: "position",
  23: "position claim",
  28: "margin funding",
  51: "transfer",
  101: "deposit",
  104: "withdrawal",
  105: "canceled withdrawal",
  201: "trading fee",
  401: "adjustment",
  905: "currency conversion",
};

/** The exchange's descriptions by their wording, first match wins (server/exchange writes them). */
const WORDING: readonly (readonly [RegExp, LedgerCategory])[] = [
  [/^Currency conversion\b/, LEDGER_CATEGORY.CONVERSION],
  [/^Trading fees\b/, LEDGER_CATEGORY.TRADING_FEE],
  [/^Exchange /, LEDGER_CATEGORY.EXCHANGE],
  [/^Position #\d+ claimed\b/, LEDGER_CATEGORY.POSITION_CLAIM],
  [/^Position #\d+ /, LEDGER_CATEGORY.POSITION],
  [/^Margin Funding /, LEDGER_CATEGORY.MARGIN_FUNDING],
  [/^Transfer of /, LEDGER_CATEGORY.TRANSFER],
  [/^Canceled withdrawal\b/, LEDGER_CATEGORY.CANCELED_WITHDRAWAL],
  [/\bwithdrawal\b/i, LEDGER_CATEGORY.WITHDRAWAL],
  [/\bdeposit\b/i, LEDGER_CATEGORY.DEPOSIT],
];

export function ledgerCategoryOf(description: string | null): LedgerCategory {
  if (description !== null) for (const [re, category] of WORDING) if (re.test(description)) return category;
  return LEDGER_CATEGORY.ADJUSTMENT;
}

export function isLedgerCategory(v: unknown): v is LedgerCategory {
  return typeof v === "number" && (LEDGER_CATEGORIES as readonly number[]).includes(v);
}

/** Bitfinex's most rows a ledger page may ask for. */
export const LEDGER_LIMIT_MAX = HISTORY_LIMIT_MAX;

/**
 * A ledger history query, read: the history calls' common query (src/protocol/history.ts) with the
 * ledgers' own filters.
 */
export interface LedgerQuery extends RangeQuery {
  readonly category: LedgerCategory | null;
  readonly wallet: WalletType | null;
}

export type LedgerQueryResult =
  { readonly ok: true; readonly query: LedgerQuery } | { readonly ok: false; readonly message: string };

/**
 * Reads a request body's `start`, `end`, `end_id`, `limit`, `category` and `wallet`; the message of
 * the first bad one otherwise (the exchange answers it as a 10020 error). `maxLimit` is null for
 * the CSV export, which has no page size.
 */
export function parseLedgerQuery(
  body: Readonly<Record<string, unknown>>,
  maxLimit: number | null = LEDGER_LIMIT_MAX,
): LedgerQueryResult {
  const common = parseRangeQuery(body, maxLimit);
  if (!common.ok) return common;
  const c = wholeNumber(body["category"]);
  if (c !== undefined && !isLedgerCategory(c)) return { ok: false, message: "category: invalid" };
  const w = body["wallet"];
  if (w !== undefined && w !== null && !(WALLET_TYPES as readonly unknown[]).includes(w))
    return { ok: false, message: "wallet: invalid" };
  return {
    ok: true,
    query: { ...common.query, category: c ?? null, wallet: (w as WalletType | undefined) ?? null },
  };
}

/** The CSV export's columns, in order (docs/protocol.md#ledger-export). */
export const LEDGER_CSV_HEADER = ["id", "date", "currency", "wallet", "category", "amount", "balance", "description"];

/** One CSV field, quoted as RFC 4180 asks when it holds a comma, quote or line break. */
export function csvField(v: string): string {
  return /[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}

/** A CSV record with its CRLF line end (RFC 4180). */
export function csvRecord(fields: readonly string[]): string {
  return `${fields.map(csvField).join(",")}\r\n`;
}

/**
 * Integer units of 1e-8 as exact decimal text ("-0.00012", "5"): no float arithmetic, so a
 * spreadsheet sums the column to the exact balance change.
 */
export function unitsToDecimal(units: number): string {
  const neg = units < 0;
  const abs = BigInt(Math.abs(units));
  const whole = abs / 100_000_000n;
  const frac = (abs % 100_000_000n).toString().padStart(8, "0").replace(/0+$/, "");
  return `${neg ? "-" : ""}${whole.toString()}${frac === "" ? "" : `.${frac}`}`;
}

/**
 * One wallet's reconciliation (`r/ledgers/reconcile`, this project): whether its ledger rows chain
 * from zero to its balance — each row's balance the one before plus its amount, the last the
 * wallet's balance. `breakId` names the first row that does not chain (with the balance it should
 * have had and the one it has); a chain that holds but ends off the wallet's balance has no
 * `breakId` and `chained` false.
 */
const RECONCILIATION = {
  currency: [0, "str"],
  wallet: [1, "str"],
  balance: [2, "num"],
  rows: [3, "num"],
  chained: [4, "bool"],
  breakId: [5, "num?"],
  breakTime: [6, "num?"],
  expected: [7, "num?"],
  found: [8, "num?"],
} as const satisfies FieldSpec;
export type LedgerReconciliation = Decoded<typeof RECONCILIATION>;
export const ledgerReconciliationCodec = {
  decodeList(raw: unknown): DecodeResult<LedgerReconciliation[]> {
    return decodeList(
      raw,
      (r) => decodePositional("ledger reconciliation", RECONCILIATION, r),
      "ledger reconciliation",
    );
  },
  encode(value: LedgerReconciliation): unknown[] {
    return encodePositional(RECONCILIATION, value, 9);
  },
};
