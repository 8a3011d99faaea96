/**
 * Currency conversion (`POST /v2/calc/fx` and `/v2/calc/fx/batch`, docs/product-rules.md#conversion-rates):
 * the request bodies and the answers, built and read here for both the web app and the embedded
 * exchange, so the two cannot drift apart.
 */
import { FX_FIAT_CURRENCIES } from "./constants";

/** One conversion asked for: one unit of `from` in `to`. */
export interface FxPair {
  readonly from: string;
  readonly to: string;
}

/** A request's conversion as the exchange reads it. */
export interface FxQuery {
  readonly ccy1: string;
  readonly ccy2: string;
  /** The batch form's amount (1 unless sent): the answer is the rate times it. */
  readonly amount: number;
}

const FX_FIAT: ReadonlySet<string> = new Set(FX_FIAT_CURRENCIES);
const CODE = /^[A-Z0-9]{2,12}$/;

/**
 * `fiat_fx`: set when both currencies are on the fx rules' fiat list — a conversion between two
 * fiat currencies, which the product asks for as such.
 */
export function isFiatFx(p: FxPair): boolean {
  return FX_FIAT.has(p.from) && FX_FIAT.has(p.to);
}

/** `calc/fx`'s body. */
export function encodeFxRequest(p: FxPair): Record<string, unknown> {
  return { ccy1: p.from, ccy2: p.to, fiat_fx: isFiatFx(p) };
}

/** `calc/fx/batch`'s body: every pair with amount 1, answered in the order sent. */
export function encodeFxBatchRequest(pairs: readonly FxPair[]): Record<string, unknown> {
  return { pairs: pairs.map((p) => ({ ccy1: p.from, ccy2: p.to, amount: 1, fiat_fx: isFiatFx(p) })) };
}

/** One conversion of a request body (`calc/fx`, or an entry of the batch's `pairs`); null when malformed. */
export function decodeFxQuery(raw: unknown): FxQuery | null {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return null;
  const r = raw as Record<string, unknown>;
  const ccy1 = r["ccy1"];
  const ccy2 = r["ccy2"];
  if (typeof ccy1 !== "string" || typeof ccy2 !== "string" || !CODE.test(ccy1) || !CODE.test(ccy2)) return null;
  const amount = r["amount"] === undefined ? 1 : r["amount"];
  if (typeof amount !== "number" || !Number.isFinite(amount) || amount < 0) return null;
  return { ccy1, ccy2, amount };
}

/** The batch body's conversions, in order (a malformed entry is null); null when `pairs` is not a list. */
export function decodeFxBatchRequest(raw: unknown): (FxQuery | null)[] | null {
  if (typeof raw !== "object" || raw === null) return null;
  const pairs = (raw as Record<string, unknown>)["pairs"];
  return Array.isArray(pairs) ? pairs.map(decodeFxQuery) : null;
}

const usable = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v) && v > 0;

/** `calc/fx`'s answer: `[RATE]`. */
export function encodeFxRate(rate: number): unknown[] {
  return [rate];
}

/** The rate of a `calc/fx` answer; null for anything else (an error body, a rate that is not positive). */
export function decodeFxRate(body: unknown): number | null {
  return Array.isArray(body) && usable(body[0]) ? body[0] : null;
}

/** `calc/fx/batch`'s answer: `{data: [RATE | null, …]}` in the order asked. */
export function encodeFxBatch(rates: readonly (number | null)[]): Record<string, unknown> {
  return { data: rates };
}

/**
 * The rates of a batch answer, one per pair sent (null where the exchange could not convert); null
 * when the answer is not a list of that length.
 */
export function decodeFxBatch(body: unknown, count: number): (number | null)[] | null {
  if (typeof body !== "object" || body === null) return null;
  const data = (body as Record<string, unknown>)["data"];
  if (!Array.isArray(data) || data.length !== count) return null;
  return data.map((v) => (usable(v) ? v : null));
}

/** A currency's name by its code: the conf key `pub:map:currency:label`. */
export const CURRENCY_LABELS_KEY = "pub:map:currency:label";

/** `pub:map:currency:label`'s value: `[[CODE, NAME], …]`. */
export function encodeCurrencyLabels(labels: ReadonlyMap<string, string>): [string, string][] {
  return [...labels];
}

/** The labels of a `conf/pub:map:currency:label` answer (`[VALUE]`); entries not `[code, name]` are skipped. */
export function decodeCurrencyLabels(body: unknown): Map<string, string> {
  const out = new Map<string, string>();
  const value: unknown = Array.isArray(body) ? body[0] : null;
  if (!Array.isArray(value)) return out;
  for (const e of value as unknown[])
    if (Array.isArray(e) && typeof e[0] === "string" && typeof e[1] === "string") out.set(e[0], e[1]);
  return out;
}
