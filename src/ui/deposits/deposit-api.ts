/**
 * The deposit page's calls (docs/product-rules.md#deposits): the account's destination for a
 * method (`w/deposit/address`, renewed on request) and the currency's deposits
 * (`r/movements/{ccy}/hist`), with the answers checked through src/protocol's codecs and every
 * refusal turned into a kind the page words in the reader's language.
 */
import {
  depositAddressCodec,
  levelGateOf,
  movementRowCodec,
  notificationCodec,
  parseApiError,
  type MovementRow,
} from "../../protocol";
import { authCall } from "../session";

export interface Destination {
  /** The address; for a pooled method or a wire, the destination tag or payment reference. */
  readonly address: string;
  /** The shared address or bank account a tag or reference goes with; null for an own address. */
  readonly pool: string | null;
}

/**
 * Why no destination: the verification level (`level`, its message for the required-level dialog),
 * a residency the terms exclude, a read-only sub-account context, too many addresses, the exchange
 * unreachable or failing.
 */
export type DestinationError =
  | { readonly kind: "level"; readonly message: string }
  | { readonly kind: "region" | "read-only" | "too-many" | "unreachable" | "server" };

export type DestinationResult =
  { readonly ok: true; readonly destination: Destination } | { readonly ok: false; readonly error: DestinationError };

export async function requestDestination(method: string, wallet: string, renew: boolean): Promise<DestinationResult> {
  let reply;
  try {
    reply = await authCall("/v2/auth/w/deposit/address", { wallet, method, op_renew: renew ? 1 : 0 });
  } catch {
    return { ok: false, error: { kind: "unreachable" } };
  }
  if (reply.status === 200) {
    const n = notificationCodec.decode(reply.body);
    const d = n.ok ? depositAddressCodec.decode(n.value.data) : null;
    if (d?.ok) return { ok: true, destination: { address: d.value.address, pool: d.value.poolAddress } };
    return { ok: false, error: { kind: "server" } };
  }
  const message = parseApiError(reply.body)?.message ?? "";
  if (levelGateOf(message)) return { ok: false, error: { kind: "level", message } };
  if (message.startsWith("compliance:")) return { ok: false, error: { kind: "region" } };
  if (message.startsWith("context:")) return { ok: false, error: { kind: "read-only" } };
  if (message.startsWith("address: too many")) return { ok: false, error: { kind: "too-many" } };
  return { ok: false, error: { kind: "server" } };
}

/** The currency's deposits (movements with a positive amount), newest first; null when they could not be read. */
export async function loadDeposits(currency: string): Promise<MovementRow[] | null> {
  try {
    const reply = await authCall(`/v2/auth/r/movements/${encodeURIComponent(currency)}/hist`, { limit: 50 });
    if (reply.status !== 200) return null;
    const rows = movementRowCodec.decodeList(reply.body);
    return rows.ok ? rows.value.filter((r) => r.amount > 0) : null;
  } catch {
    return null;
  }
}

/** Whether a deposit is still waiting for confirmations (the page keeps reading while one is). */
export function isPending(row: MovementRow): boolean {
  return row.status === "PENDING" || row.status === "CONFIRMING";
}
