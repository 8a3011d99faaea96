/**
 * Transfers between wallets (`POST /v2/auth/w/transfer`, docs/product-rules.md#transfers-between-wallets),
 * one copy for the dialog that checks the form as it is filled and the exchange that checks it
 * again: the amount rules, the body, and the refusals the exchange sends (which the web app maps to
 * localized messages). Nothing here is user text.
 */
import { WALLET_DECIMALS } from "./constants";

/** The wallets a transfer moves between (a creditline or contribution wallet is never a side of one). */
export const TRANSFER_WALLETS = ["exchange", "margin", "funding"] as const;
export type TransferWallet = (typeof TRANSFER_WALLETS)[number];

/** Amounts at or above this are refused: beyond it a count of 1e-8 units would lose precision. */
export const MAX_TRANSFER_AMOUNT = 1e12;

/**
 * Decimals an amount of `currency` may carry. The exchange keeps every currency in whole units of
 * 1e-8 (wallet amounts have 8 decimals), so every currency allows 8: finer would be stored rounded,
 * moving an amount nobody asked for.
 */
export function currencyDecimals(_currency: string): number {
  return WALLET_DECIMALS;
}

export type TransferAmountProblem = "invalid" | "precision";

const DECIMAL_TEXT = /^(?:\d+(?:\.\d*)?|\.\d+)$/;

/**
 * What is wrong with an amount to transfer, or null: it must be plain decimal text (or a JSON
 * number) — no sign, exponent, hex, `NaN` or `Infinity` — above zero, below MAX_TRANSFER_AMOUNT,
 * with at most the currency's decimals.
 */
export function checkTransferAmount(value: unknown, currency: string): TransferAmountProblem | null {
  let text: string;
  if (typeof value === "number") {
    if (!Number.isFinite(value)) return "invalid";
    text = String(value);
    // A JSON number as small as 1e-9 prints with an exponent: it has more decimals than allowed.
    if (/e/i.test(text)) return value > 0 && value < 1 ? "precision" : "invalid";
  } else if (typeof value === "string") text = value.trim();
  else return "invalid";
  if (!DECIMAL_TEXT.test(text)) return "invalid";
  const n = Number(text);
  if (!Number.isFinite(n) || n <= 0 || n >= MAX_TRANSFER_AMOUNT) return "invalid";
  const decimals = (text.split(".")[1] ?? "").replace(/0+$/, "").length;
  return decimals > currencyDecimals(currency) ? "precision" : null;
}

/**
 * The request id a client may send (`request_id`): the same id from the same account is one
 * transfer, however often it arrives — a retried request answers the first one's result and moves
 * nothing again.
 */
const REQUEST_ID = /^[A-Za-z0-9_-]{8,64}$/;

export function isTransferRequestId(v: unknown): v is string {
  return typeof v === "string" && REQUEST_ID.test(v);
}

/** A transfer, as the dialog sends it: between the caller's own wallets, or to another account of its group. */
export interface TransferRequest {
  readonly from: TransferWallet;
  readonly to: TransferWallet;
  readonly currency: string;
  /**
   * The currency credited when it differs: only USDt into its derivatives collateral form (`UST` →
   * `USTF0`, the derivatives wallet; docs/product-rules.md#derivatives).
   */
  readonly currencyTo?: string;
  /** Decimal text, as typed (checked with checkTransferAmount first). */
  readonly amount: string;
  readonly requestId: string;
  /**
   * The account credited when it is not the caller's own: its master or one of its sub-accounts
   * (`user_id_dst`, docs/product-rules.md#sub-accounts).
   */
  readonly toAccount?: number;
}

/** `w/transfer`'s body. */
export function encodeTransferRequest(r: TransferRequest): Record<string, unknown> {
  const body: Record<string, unknown> = {
    from: r.from,
    to: r.to,
    currency: r.currency,
    amount: r.amount.trim(),
    request_id: r.requestId,
  };
  if (r.currencyTo !== undefined && r.currencyTo !== r.currency) body["currency_to"] = r.currencyTo;
  if (r.toAccount !== undefined) body["user_id_dst"] = r.toAccount;
  return body;
}

/** The refusals the exchange answers a transfer with (`["error", CODE, MESSAGE]`). */
export const TRANSFER_REFUSALS = {
  from: "from: invalid",
  to: "to: invalid",
  sameWallet: "to: must differ from the source wallet",
  currency: "currency: invalid",
  currencyTo: "currency_to: invalid",
  amount: "amount: invalid",
  precision: "amount: precision (more decimals than the currency has)",
  insufficient: "amount: insufficient balance in the source wallet",
  requestId: "request_id: invalid",
  requestReused: "request_id: already used for another transfer",
} as const;

export type TransferRefusal = keyof typeof TRANSFER_REFUSALS;

/** Which refusal a message is; null for a message of another kind. */
export function transferRefusalOf(message: string): TransferRefusal | null {
  for (const [k, v] of Object.entries(TRANSFER_REFUSALS)) if (v === message) return k as TransferRefusal;
  return null;
}
