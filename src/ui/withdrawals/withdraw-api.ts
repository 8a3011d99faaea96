/**
 * The withdrawal page's calls (docs/product-rules.md#withdrawals, docs/protocol.md#withdrawals)
 * through the session's transport: what the form needs to know for a method, the address check as
 * it is typed (`/v1/ui_check_address`), the travel-rule facts of a destination, the withdrawal
 * itself, the mailed link's check and confirmation, a cancellation, the texted code, and the
 * currency's withdrawals. Every answer is read by src/protocol's codecs and every refusal sorted
 * into what the page says, by the exchange's named refusals.
 */
import {
  addressCheckCodec,
  encodeWithdrawRequest,
  movementRowCodec,
  notificationCodec,
  parseApiError,
  READ_ONLY_CONTEXT_MESSAGE,
  smsSentCodec,
  travelRuleInfoCodec,
  withdrawalCodec,
  withdrawalConfirmCheckCodec,
  withdrawalStateCodec,
  withdrawInfoCodec,
  withdrawRefusalOf,
  type AddressCheckResult,
  type MovementRow,
  type SmsSent,
  type TravelRuleInfo,
  type Withdrawal,
  type WithdrawalConfirmCheck,
  type WithdrawalMethod,
  type WithdrawalState,
  type WithdrawInfo,
  type WithdrawRefusal,
  type WithdrawRequest,
} from "../../protocol";
import { authCall, type HttpReply } from "../session";
import { apiErrorKind, type ApiErrorKind } from "../shell/api-notice";

/**
 * Why a call did not go through: one of the exchange's named refusals (with its message, which the
 * level refusal's dialog reads), a read-only sub-account context, or something around the call
 * (unreachable, maintenance, a server error; a 429 and a forced sign-out are said app-wide).
 */
export type WithdrawError =
  | { readonly kind: "refused"; readonly refusal: WithdrawRefusal; readonly message: string }
  | { readonly kind: "read-only" }
  | { readonly kind: "app"; readonly app: ApiErrorKind };

export type WithdrawResult<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: WithdrawError };

/** Sorts a failed reply (status 0: the exchange could not be reached). */
export function withdrawErrorOf(status: number, body: unknown): WithdrawError {
  const app = apiErrorKind(status, body);
  if (app !== "refused") return { kind: "app", app };
  const message = parseApiError(body)?.message ?? "";
  if (message === READ_ONLY_CONTEXT_MESSAGE) return { kind: "read-only" };
  const refusal = withdrawRefusalOf(message);
  // A refusal the page does not know is its own bug or an old page against a newer exchange.
  return refusal === null ? { kind: "app", app: "server" } : { kind: "refused", refusal, message };
}

async function call<T>(path: string, body: unknown, read: (b: unknown) => T | null): Promise<WithdrawResult<T>> {
  let reply: HttpReply;
  try {
    reply = await authCall(path, body);
  } catch {
    return { ok: false, error: { kind: "app", app: "unreachable" } };
  }
  if (reply.status !== 200) return { ok: false, error: withdrawErrorOf(reply.status, reply.body) };
  const value = read(reply.body);
  return value === null ? { ok: false, error: { kind: "app", app: "server" } } : { ok: true, value };
}

/** The method's fee and minimum, the account's level, limit, second factor and balances. */
export const withdrawInfo = (method: WithdrawalMethod): Promise<WithdrawResult<WithdrawInfo>> =>
  call("/v2/auth/r/int/movements/withdraw/info", { method }, (b) => withdrawInfoCodec.decode(b));

/** The address as typed: valid with its best written form, or why not. */
export const checkAddressAsTyped = (
  currency: string,
  method: WithdrawalMethod,
  address: string,
  paymentId: string,
): Promise<WithdrawResult<AddressCheckResult>> =>
  call(
    "/v1/ui_check_address",
    { currency, method, address, ...(paymentId.trim() !== "" ? { payment_id: paymentId.trim() } : {}) },
    (b) => addressCheckCodec.decode(b),
  );

/** The book entry of a destination (its permitted beneficiary prefills the travel rule) and the providers. */
export const travelRuleInfo = (address: string, method: WithdrawalMethod): Promise<WithdrawResult<TravelRuleInfo>> =>
  call("/v2/auth/r/int/movements/travel-rule", { address, method }, (b) => travelRuleInfoCodec.decode(b));

/** Asks for the withdrawal; the answer is the request as the exchange recorded it. */
export const requestWithdrawal = (r: WithdrawRequest): Promise<WithdrawResult<Withdrawal>> =>
  call("/v2/auth/w/withdraw", encodeWithdrawRequest(r), (b) => {
    const n = notificationCodec.decode(b);
    const w = n.ok ? withdrawalCodec.decode(n.value.data) : null;
    return w?.ok ? w.value : null;
  });

/** What a texted code is for: the exchange names it in the text and takes the code for it alone. */
export type WithdrawTarget = Pick<WithdrawRequest, "wallet" | "method" | "amount" | "address" | "paymentId">;

/** Texts the code a withdrawal asks for, when the account's second factor is its phone. */
export const sendWithdrawSms = (target: WithdrawTarget): Promise<WithdrawResult<SmsSent>> => {
  // The same fields, written the same way, as the withdrawal the code will confirm.
  const { wallet, method, amount, address, payment_id } = encodeWithdrawRequest({
    ...target,
    note: "",
    requestId: "",
    code: "",
    travelRule: null,
  });
  const body = { wallet, method, amount, address, ...(payment_id !== undefined ? { payment_id } : {}) };
  return call("/v2/auth/w/int/movements/withdraw/sms", body, (b) => {
    const d = smsSentCodec.decode(b);
    return d.ok ? d.value : null;
  });
};

/** What the mailed link would confirm; nothing changes (a mail scanner may open the link). */
export const checkConfirmLink = (token: string): Promise<WithdrawResult<WithdrawalConfirmCheck>> =>
  call("/v2/auth/r/int/movements/confirm/check", { token }, (b) => withdrawalConfirmCheckCodec.decode(b));

/** The owner's press of Confirm: the withdrawal is queued. */
export const confirmWithdrawal = (token: string): Promise<WithdrawResult<WithdrawalState>> =>
  call("/v2/auth/w/int/movements/confirm", { token }, (b) => withdrawalStateCodec.decode(b));

/** Cancels a withdrawal not yet being sent; its amount goes back to the wallet. */
export const cancelWithdrawal = (id: number): Promise<WithdrawResult<WithdrawalState>> =>
  call("/v2/auth/w/int/movements/cancel", { id }, (b) => withdrawalStateCodec.decode(b));

/** The currency's withdrawals (movements with a negative amount), newest first; null when they could not be read. */
export async function loadWithdrawals(currency: string): Promise<MovementRow[] | null> {
  try {
    const reply = await authCall(`/v2/auth/r/movements/${encodeURIComponent(currency)}/hist`, { limit: 50 });
    if (reply.status !== 200) return null;
    const rows = movementRowCodec.decodeList(reply.body);
    return rows.ok ? rows.value.filter((r) => r.amount < 0) : null;
  } catch {
    return null;
  }
}

/** A random request id: one per intended withdrawal (the exchange moves it once per id). */
export function newRequestId(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}
