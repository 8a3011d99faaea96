/**
 * The conversion dialog's calls (docs/product-rules.md#conversions, wire in
 * docs/protocol.md#conversions): the account's accepted currency agreements, accepting one, a
 * quote, and converting at it. Every answer is read by its src/protocol codec and every failure
 * becomes a `ConversionError`, which the dialog words. The transport is injected (the session's
 * `authCall` in the app, a fake in tests).
 */
import {
  acceptedAgreementCodec,
  acceptedAgreementsCodec,
  agreementRefusalCurrency,
  agreementRefusalOf,
  conversionCodec,
  conversionQuoteCodec,
  conversionRefusalOf,
  encodeAgreementRequest,
  encodeConversionQuoteRequest,
  encodeConvertRequest,
  notificationCodec,
  parseApiError,
  READ_ONLY_CONTEXT_MESSAGE,
  type AcceptedAgreement,
  type AgreementRefusal,
  type Conversion,
  type ConversionQuote,
  type ConversionRefusal,
  type ConversionRequest,
} from "../../protocol";

/** POSTs an authenticated call; status 0 when the exchange could not be reached. */
export type Call = (path: string, body: unknown) => Promise<{ readonly status: number; readonly body: unknown }>;

/** Why a call did not do what was asked, as the dialog tells it. */
export type ConversionError =
  /** A conversion refusal; `currency` names the agreement missing for `agreement`. */
  | { readonly kind: "refused"; readonly refusal: ConversionRefusal; readonly currency: string | null }
  | { readonly kind: "agreement"; readonly refusal: AgreementRefusal }
  | { readonly kind: "read-only" }
  | { readonly kind: "unreachable" }
  /** Anything else: an error the dialog has no words for, or an answer it cannot read. */
  | { readonly kind: "server" };

export type Result<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: ConversionError };

/** The error a failed reply is. */
export function conversionErrorOf(status: number, body: unknown): ConversionError {
  if (status === 0) return { kind: "unreachable" };
  const msg = parseApiError(body)?.message ?? "";
  if (msg === READ_ONLY_CONTEXT_MESSAGE) return { kind: "read-only" };
  const refusal = conversionRefusalOf(msg);
  if (refusal !== null) return { kind: "refused", refusal, currency: agreementRefusalCurrency(msg) };
  const agreement = agreementRefusalOf(msg);
  return agreement === null ? { kind: "server" } : { kind: "agreement", refusal: agreement };
}

async function read<T>(
  call: Call,
  path: string,
  body: unknown,
  decode: (raw: unknown) => T | null,
): Promise<Result<T>> {
  const r = await call(path, body);
  if (r.status !== 200) return { ok: false, error: conversionErrorOf(r.status, r.body) };
  const value = decode(r.body);
  return value === null ? { ok: false, error: { kind: "server" } } : { ok: true, value };
}

export function fetchAgreements(call: Call): Promise<Result<AcceptedAgreement[]>> {
  return read(call, "/v2/auth/r/int/currency/agreements", {}, (raw) => acceptedAgreementsCodec.decode(raw));
}

export function acceptAgreement(call: Call, currency: string, version: string): Promise<Result<AcceptedAgreement>> {
  return read(call, "/v2/auth/w/int/currency/agreement", encodeAgreementRequest(currency, version), (raw) =>
    acceptedAgreementCodec.decode(raw),
  );
}

export function requestQuote(call: Call, r: ConversionRequest): Promise<Result<ConversionQuote>> {
  return read(call, "/v2/auth/w/int/convert/quote", encodeConversionQuoteRequest(r), (raw) =>
    conversionQuoteCodec.decode(raw),
  );
}

/** Converts at a quote: the conversion the answer's notification carries. */
export function convertAtQuote(call: Call, quoteId: string): Promise<Result<Conversion>> {
  return read(call, "/v2/auth/w/int/convert", encodeConvertRequest(quoteId), (raw) => {
    const n = notificationCodec.decode(raw);
    return n.ok && n.value.status === "SUCCESS" ? conversionCodec.decode(n.value.data) : null;
  });
}
