/**
 * Sub-accounts (docs/product-rules.md#sub-accounts), one copy for the page that checks a form as it
 * is filled and the exchange that checks it again: the records of `/v2/auth/r/subaccounts` and
 * `/v2/auth/r/subaccounts/balances`, and the bodies of the sub-account calls, are built and read
 * here on both sides. Nothing here is user text: a refusal names a field and a reason that the UI
 * maps to a localized message.
 */
import { recordCodec, type Decoded, type FieldSpec } from "./positional";
import { usernameValid } from "./signup";

/**
 * What a sub-account is for, chosen by its master: shown in the list and as user info's
 * `subaccountType`. No rule of the exchange depends on it.
 */
export const SUBACCOUNT_TYPES = ["trading", "funding", "treasury"] as const;
export type SubaccountType = (typeof SUBACCOUNT_TYPES)[number];

/** Sub-accounts one master may hold. */
export const MAX_SUBACCOUNTS = 20;

/** The wallet types the balances call filters on (`type`). */
export const SUBACCOUNT_WALLET_TYPES = ["exchange", "margin", "funding"] as const;

/**
 * A sub-account of `r/subaccounts`:
 * [ID, USERNAME, TYPE, READ_ONLY, MTS_CREATE, MASTER_ID] — READ_ONLY 1 when its master may only
 * look at it (every context into it is read-only).
 */
const SUBACCOUNT_ROW = {
  id: [0, "num"],
  username: [1, "str"],
  type: [2, "str"],
  readOnly: [3, "bool"],
  mtsCreate: [4, "num"],
  masterId: [5, "num"],
} as const satisfies FieldSpec;
export type SubaccountRow = Decoded<typeof SUBACCOUNT_ROW>;

/**
 * One wallet of an account of the group, as `r/subaccounts/balances` answers:
 * [USER_ID, WALLET_TYPE, CURRENCY, BALANCE, AVAILABLE]. The master's own wallets come first, then
 * each sub-account's, so one call gives the combined view.
 */
const SUBACCOUNT_BALANCE = {
  userId: [0, "num"],
  type: [1, "str"],
  currency: [2, "str"],
  balance: [3, "num"],
  available: [4, "num"],
} as const satisfies FieldSpec;
export type SubaccountBalance = Decoded<typeof SUBACCOUNT_BALANCE>;

export const subaccountRowCodec = recordCodec("subaccount", SUBACCOUNT_ROW, 6);
export const subaccountBalanceCodec = recordCodec("subaccount balance", SUBACCOUNT_BALANCE, 5);

export type SubaccountField = "username" | "type" | "readOnly" | "account" | "amount" | "currency" | "wallet";
export type SubaccountReason = "invalid" | "taken" | "limit" | "not-allowed" | "insufficient" | "precision";

export interface SubaccountRefusal {
  readonly field: SubaccountField;
  readonly reason: SubaccountReason;
}

/** `w/subaccounts/create`'s body. */
export interface SubaccountRequest {
  readonly username: string;
  readonly type: SubaccountType;
  readonly readOnly: boolean;
}

export function encodeSubaccountRequest(r: SubaccountRequest): Record<string, unknown> {
  return { username: r.username, type: r.type, readOnly: r.readOnly ? 1 : 0 };
}

/** The create call's body read and checked, or the first field it gets wrong. */
export function decodeSubaccountRequest(
  body: Record<string, unknown>,
):
  | { readonly ok: true; readonly value: SubaccountRequest }
  | { readonly ok: false; readonly refusal: SubaccountRefusal } {
  const username = typeof body["username"] === "string" ? body["username"].trim() : "";
  if (!usernameValid(username)) return { ok: false, refusal: { field: "username", reason: "invalid" } };
  const type = body["type"];
  if (typeof type !== "string" || !(SUBACCOUNT_TYPES as readonly string[]).includes(type))
    return { ok: false, refusal: { field: "type", reason: "invalid" } };
  const ro = body["readOnly"];
  if (ro !== undefined && ro !== 0 && ro !== 1 && ro !== true && ro !== false)
    return { ok: false, refusal: { field: "readOnly", reason: "invalid" } };
  return { ok: true, value: { username, type: type as SubaccountType, readOnly: ro === 1 || ro === true } };
}

/**
 * A refusal of the exchange (`["error", code, "FIELD: reason"]`) as the field and reason the page
 * shows; null for a message of another kind.
 */
export function subaccountRefusalOf(message: string): SubaccountRefusal | null {
  const m = /^(username|type|readOnly|account|amount|currency|wallet|subaccount): ([a-z-]+)/.exec(message);
  if (!m) return null;
  const field = (m[1] === "subaccount" ? "account" : m[1]) as SubaccountField;
  const reasons: readonly SubaccountReason[] = [
    "invalid",
    "taken",
    "limit",
    "not-allowed",
    "insufficient",
    "precision",
  ];
  const reason = reasons.find((r) => r === m[2]) ?? "invalid";
  return { field, reason };
}

/** The refusal text the exchange sends for a field and reason, in the form subaccountRefusalOf reads. */
export function subaccountRefusalMessage(r: SubaccountRefusal, detail = ""): string {
  return `${r.field}: ${r.reason}${detail ? ` (${detail})` : ""}`;
}

/** The message of a write refused because the credential acts in a read-only sub-account context. */
export const READ_ONLY_CONTEXT_MESSAGE = "context: read-only";
/** The message of a context switch refused because the group turned context switching off. */
export const CONTEXT_SWITCH_DISABLED_MESSAGE = "context: switching disabled";
