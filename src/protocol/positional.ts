/**
 * Positional-record codecs: one field table per record, from which both the decoder (wire array →
 * typed object) and the encoder (object → wire array, for the embedded exchange) are derived, so the
 * two can never disagree about a field's position.
 *
 * Decoding never throws and never returns a half-filled record: a wrong shape gives a DecodeError
 * naming the record, the field and its index.
 */

export type FieldKind = "num" | "num?" | "str" | "str?" | "bool" | "any";
export type FieldSpec = Readonly<Record<string, readonly [index: number, kind: FieldKind]>>;

type KindType<K extends FieldKind> = K extends "num"
  ? number
  : K extends "num?"
    ? number | null
    : K extends "str"
      ? string
      : K extends "str?"
        ? string | null
        : K extends "bool"
          ? boolean
          : unknown;

export type Decoded<S extends FieldSpec> = { -readonly [F in keyof S]: KindType<S[F][1]> };

export interface DecodeError {
  readonly record: string;
  readonly field: string;
  readonly index: number;
  readonly reason: "not-an-array" | "too-short" | "wrong-type";
}

export type DecodeResult<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: DecodeError };

export function fail(record: string, field: string, index: number, reason: DecodeError["reason"]): DecodeResult<never> {
  return { ok: false, error: { record, field, index, reason } };
}

/** The smallest array length a spec needs: every required field must be present. */
function requiredLength(spec: FieldSpec): number {
  let n = 0;
  for (const [i, kind] of Object.values(spec)) if (kind === "num" || kind === "str") n = Math.max(n, i + 1);
  return n;
}

export function decodePositional<S extends FieldSpec>(record: string, spec: S, raw: unknown): DecodeResult<Decoded<S>> {
  if (!Array.isArray(raw)) return fail(record, "", -1, "not-an-array");
  if (raw.length < requiredLength(spec)) return fail(record, "", raw.length, "too-short");
  const out: Record<string, unknown> = {};
  for (const field in spec) {
    const [i, kind] = spec[field] as readonly [number, FieldKind];
    const v: unknown = raw[i];
    switch (kind) {
      case "num":
        if (typeof v !== "number" || !Number.isFinite(v)) return fail(record, field, i, "wrong-type");
        out[field] = v;
        break;
      case "num?":
        if (v === null || v === undefined) out[field] = null;
        else if (typeof v === "number" && Number.isFinite(v)) out[field] = v;
        else if (typeof v === "string" && v.trim() !== "" && Number.isFinite(Number(v))) out[field] = Number(v);
        else return fail(record, field, i, "wrong-type");
        break;
      case "str":
        if (typeof v !== "string") return fail(record, field, i, "wrong-type");
        out[field] = v;
        break;
      case "str?":
        if (v === null || v === undefined) out[field] = null;
        else if (typeof v === "string") out[field] = v;
        else return fail(record, field, i, "wrong-type");
        break;
      case "bool":
        out[field] = v === 1 || v === true || v === "1";
        break;
      case "any":
        out[field] = v ?? null;
        break;
    }
  }
  return { ok: true, value: out as Decoded<S> };
}

/**
 * The wire array of a record: each field at its index, null elsewhere (as the exchange sends).
 * `length` may be shorter than the spec (an older layout of the same record, e.g. the 18-field
 * derivatives status): empty fields past it are left out, a field with a value is never dropped.
 */
export function encodePositional<S extends FieldSpec>(spec: S, value: Decoded<S>, length: number): unknown[] {
  const out: unknown[] = new Array<unknown>(length).fill(null);
  for (const field in spec) {
    const [i, kind] = spec[field] as readonly [number, FieldKind];
    const v = (value as Record<string, unknown>)[field];
    const wire = kind === "bool" ? (v ? 1 : 0) : (v ?? null);
    if (i < length || wire !== null) out[i] = wire;
  }
  // A value past `length` grew the array: the positions it skipped are empty fields.
  for (let i = length; i < out.length; i++) out[i] ??= null;
  return out;
}

/** Each field's position in the wire array, for reads that must not allocate (hot paths). */
export type FieldIndexes<S extends FieldSpec> = { readonly [F in keyof S]: S[F][0] };

export function fieldIndexes<S extends FieldSpec>(spec: S): FieldIndexes<S> {
  const out: Record<string, number> = {};
  for (const field in spec) out[field] = (spec[field] as readonly [number, FieldKind])[0];
  return Object.freeze(out) as FieldIndexes<S>;
}

/** Decodes an array of records; the first malformed one fails the whole list. */
export function decodeList<T>(
  raw: unknown,
  decode: (r: unknown) => DecodeResult<T>,
  record: string,
): DecodeResult<T[]> {
  if (!Array.isArray(raw)) return fail(record, "", -1, "not-an-array");
  const out: T[] = [];
  for (const r of raw) {
    const d = decode(r);
    if (!d.ok) return d;
    out.push(d.value);
  }
  return { ok: true, value: out };
}

/**
 * The codec of a positional record whose fields are its value: decode, decode a list, encode, and
 * each field's index — built once from the field table, so decoder and encoder share it.
 * records.ts adds derived fields on top of the same pieces.
 */
export function recordCodec<S extends FieldSpec>(record: string, spec: S, length: number) {
  return {
    spec,
    length,
    fields: fieldIndexes(spec),
    decode(raw: unknown): DecodeResult<Decoded<S>> {
      return decodePositional(record, spec, raw);
    },
    decodeList(raw: unknown): DecodeResult<Decoded<S>[]> {
      return decodeList(raw, (r) => decodePositional(record, spec, r), record);
    },
    encode(value: Decoded<S>): unknown[] {
      return encodePositional(spec, value, length);
    },
  };
}
