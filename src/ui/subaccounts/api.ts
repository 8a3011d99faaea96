/**
 * The sub-accounts page's calls (server/subaccounts.ts; a transfer to another account of the group
 * is the transfer form's, src/ui/wallets), through the session's
 * transport (`authCall`: the session's token, 429 told app-wide, a dead session is the forced
 * logout), with their answers decoded by the src/protocol codecs and their refusals sorted into
 * what the page says (docs/product-rules.md#sub-accounts).
 */
import {
  encodeSubaccountRequest,
  parseApiError,
  subaccountBalanceCodec,
  subaccountRefusalOf,
  subaccountRowCodec,
  READ_ONLY_CONTEXT_MESSAGE,
  CONTEXT_SWITCH_DISABLED_MESSAGE,
  type SubaccountBalance,
  type SubaccountRefusal,
  type SubaccountRequest,
  type SubaccountRow,
} from "../../protocol";
import { authCall } from "../session";

/** Why a call was refused, as the page tells it. */
export type SubaccountError =
  | { readonly kind: "field"; readonly refusal: SubaccountRefusal }
  | { readonly kind: "read-only" }
  | { readonly kind: "switch-disabled" }
  | { readonly kind: "unreachable" }
  | { readonly kind: "server" };

export type Result<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: SubaccountError };

/** Sorts a refusal by the exchange's message. */
export function subaccountErrorOf(status: number, body: unknown): SubaccountError {
  if (status === 0) return { kind: "unreachable" };
  const msg = parseApiError(body)?.message ?? "";
  if (msg === READ_ONLY_CONTEXT_MESSAGE) return { kind: "read-only" };
  if (msg === CONTEXT_SWITCH_DISABLED_MESSAGE) return { kind: "switch-disabled" };
  const refusal = subaccountRefusalOf(msg);
  return refusal ? { kind: "field", refusal } : { kind: "server" };
}

async function call<T>(path: string, body: unknown, read: (b: unknown) => T | null): Promise<Result<T>> {
  const reply = await authCall(path, body);
  if (reply.status !== 200) return { ok: false, error: subaccountErrorOf(reply.status, reply.body) };
  const value = read(reply.body);
  return value === null ? { ok: false, error: { kind: "server" } } : { ok: true, value };
}

export function listSubaccounts(): Promise<Result<SubaccountRow[]>> {
  return call("/v2/auth/r/subaccounts", {}, (b) => {
    const d = subaccountRowCodec.decodeList(b);
    return d.ok ? d.value : null;
  });
}

/** Every wallet of the group (a sub-account: its own), optionally one currency or wallet type. */
export function groupBalances(
  filter: { readonly ccy?: string; readonly type?: string } = {},
): Promise<Result<SubaccountBalance[]>> {
  return call("/v2/auth/r/subaccounts/balances", filter, (b) => {
    const d = subaccountBalanceCodec.decodeList(b);
    return d.ok ? d.value : null;
  });
}

export function createSubaccount(r: SubaccountRequest): Promise<Result<SubaccountRow>> {
  return call("/v2/auth/w/subaccounts/create", encodeSubaccountRequest(r), (b) => {
    const d = subaccountRowCodec.decode(b);
    return d.ok ? d.value : null;
  });
}

/** The token of the context `id` (a sub-account, or the master to switch back). */
export function contextToken(id: number, readOnly: boolean): Promise<Result<string>> {
  return call("/v2/auth/w/subaccounts/context", { id, readOnly: readOnly ? 1 : 0 }, (b) =>
    Array.isArray(b) && typeof b[0] === "string" && b[0] !== "" ? b[0] : null,
  );
}

export function setContextSwitchDisabled(disabled: boolean): Promise<Result<boolean>> {
  return call("/v2/auth/w/subaccounts/settings", { disableContextSwitch: disabled ? 1 : 0 }, (b) =>
    Array.isArray(b) && (b[0] === 0 || b[0] === 1) ? b[0] === 1 : null,
  );
}
