/**
 * The OTC page's calls (docs/product-rules.md#otc-block-trades, wire in
 * docs/protocol.md#otc-block-trades): a quote, accepting it, the history of quotes and the
 * exchange wallet's balances. Every answer is read by its src/protocol codec and every failure
 * becomes an `OtcError`, which the page words. The transport is the conversions' `Call` (the
 * session's `authCall` in the app, a fake in tests).
 */
import {
  encodeOtcAcceptRequest,
  encodeOtcQuoteRequest,
  notificationCodec,
  otcHistoryCodec,
  otcQuoteCodec,
  otcRefusalOf,
  otcTradeCodec,
  parseApiError,
  READ_ONLY_CONTEXT_MESSAGE,
  walletCodec,
  type OtcHistoryEntry,
  type OtcQuote,
  type OtcRefusal,
  type OtcRequest,
  type OtcTrade,
} from "../../protocol";
import type { Call } from "../conversions/api";

export type { Call };

/** Why a call did not do what was asked, as the page tells it. */
export type OtcError =
  | { readonly kind: "refused"; readonly refusal: OtcRefusal }
  | { readonly kind: "read-only" }
  | { readonly kind: "unreachable" }
  /** Anything else: an error the page has no words for, or an answer it cannot read. */
  | { readonly kind: "server" };

export type OtcResult<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: OtcError };

/** The error a failed reply is. */
export function otcErrorOf(status: number, body: unknown): OtcError {
  if (status === 0) return { kind: "unreachable" };
  const msg = parseApiError(body)?.message ?? "";
  if (msg === READ_ONLY_CONTEXT_MESSAGE) return { kind: "read-only" };
  const refusal = otcRefusalOf(msg);
  return refusal === null ? { kind: "server" } : { kind: "refused", refusal };
}

async function read<T>(
  call: Call,
  path: string,
  body: unknown,
  decode: (raw: unknown) => T | null,
): Promise<OtcResult<T>> {
  const r = await call(path, body);
  if (r.status !== 200) return { ok: false, error: otcErrorOf(r.status, r.body) };
  const value = decode(r.body);
  return value === null ? { ok: false, error: { kind: "server" } } : { ok: true, value };
}

export function requestOtcQuote(call: Call, r: OtcRequest): Promise<OtcResult<OtcQuote>> {
  return read(call, "/v2/auth/w/int/otc/quote", encodeOtcQuoteRequest(r), (raw) => otcQuoteCodec.decode(raw));
}

/** Accepts a quote: the trade the answer's notification carries. */
export function acceptOtcQuote(call: Call, quoteId: string): Promise<OtcResult<OtcTrade>> {
  return read(call, "/v2/auth/w/int/otc/accept", encodeOtcAcceptRequest(quoteId), (raw) => {
    const n = notificationCodec.decode(raw);
    return n.ok && n.value.status === "SUCCESS" ? otcTradeCodec.decode(n.value.data) : null;
  });
}

export function fetchOtcHistory(call: Call): Promise<OtcResult<OtcHistoryEntry[]>> {
  return read(call, "/v2/auth/r/int/otc/hist", {}, (raw) => otcHistoryCodec.decode(raw));
}

/** What the exchange wallet has available, by currency (a block trades from and into it). */
export function fetchExchangeAvailable(call: Call): Promise<OtcResult<ReadonlyMap<string, number>>> {
  return read(call, "/v2/auth/r/wallets", {}, (raw) => {
    const list = walletCodec.decodeList(raw);
    if (!list.ok) return null;
    const out = new Map<string, number>();
    for (const w of list.value) if (w.type === "exchange") out.set(w.currency, w.available);
    return out;
  });
}
