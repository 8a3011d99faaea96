/**
 * Currency conversions between the fiat and stable currencies the exchange holds
 * (`w/int/convert/quote`, `w/int/convert`; docs/product-rules.md#conversions) and the currency
 * agreements some currencies need before use (`r/int/currency/agreements`,
 * `w/int/currency/agreement`; docs/product-rules.md#currency-agreements). One copy for the dialog
 * that checks the form as it is filled and the exchange that checks it again: which currency
 * converts to which and at what fee, the quote's lifetime, the amount rules, the figures of a
 * quote, the bodies, and the refusals the exchange sends (the web app maps them to localized
 * messages). Nothing here is user text.
 */
import { WALLET_DECIMALS } from "./constants";
import { checkTransferAmount, TRANSFER_REFUSALS, TRANSFER_WALLETS, type TransferWallet } from "./transfers";

/** What a convertible currency is: its kind decides what it converts to and the fee. */
export type ConversionKind = "fiat" | "stable" | "collateral";

/**
 * The currencies that convert, by kind: the fiat currencies the exchange lists with rates (each has
 * a BTC market, so `calc/fx` prices it), USDt (`UST`, the exchange's dollar stable coin) and
 * `USTF0`, USDt's form as derivatives collateral. Paper currencies (TESTUSD) never convert into
 * real ones, and cryptocurrencies are traded on their markets, not converted.
 */
export const CONVERTIBLE_CURRENCIES = {
  USD: "fiat",
  EUR: "fiat",
  JPY: "fiat",
  TRY: "fiat",
  BRL: "fiat",
  UST: "stable",
  USTF0: "collateral",
} as const satisfies Readonly<Record<string, ConversionKind>>;

export type ConvertibleCurrency = keyof typeof CONVERTIBLE_CURRENCIES;

export function isConvertibleCurrency(v: unknown): v is ConvertibleCurrency {
  return typeof v === "string" && Object.hasOwn(CONVERTIBLE_CURRENCIES, v);
}

/**
 * The fee of a conversion by the kinds of its two sides, in parts per million of what the rate
 * gives (1000 = 0.1 %), kept from the currency received. A pair of kinds not listed does not
 * convert: `USTF0` is reached only from USDt (as Bitfinex's transfer converts USDt to its
 * derivatives form), so fiat never converts to it directly.
 */
export const CONVERSION_FEES_PPM: Readonly<Record<string, number>> = {
  // Fiat to the stable coin and back: the issuer's mint and redemption, 0.1 %.
  "fiat>stable": 1000,
  "stable>fiat": 1000,
  // One fiat currency to another: a foreign exchange, 0.2 %.
  "fiat>fiat": 2000,
  // The same USDt in another wallet form: free, one to one.
  "stable>collateral": 0,
  "collateral>stable": 0,
};

/** The fee rate of converting `from` into `to` (0.001 = 0.1 %); null when the pair does not convert. */
export function conversionFeePpm(from: string, to: string): number | null {
  if (from === to || !isConvertibleCurrency(from) || !isConvertibleCurrency(to)) return null;
  return CONVERSION_FEES_PPM[`${CONVERTIBLE_CURRENCIES[from]}>${CONVERTIBLE_CURRENCIES[to]}`] ?? null;
}

/** The currencies `from` converts into, in the table's order. */
export function conversionTargets(from: string): ConvertibleCurrency[] {
  return (Object.keys(CONVERTIBLE_CURRENCIES) as ConvertibleCurrency[]).filter(
    (to) => conversionFeePpm(from, to) !== null,
  );
}

/** How long a quote holds its rate: the exchange refuses to convert at it after this. */
export const CONVERSION_QUOTE_MS = 15_000;

/**
 * The largest amount one conversion takes or gives, in either currency: both stay far below the
 * integer range the exchange counts 1e-8 units in (2^53 units ≈ 90 million), so nothing rounds.
 */
export const MAX_CONVERSION_AMOUNT = 50_000_000;

/** A quote's rate is rounded to this many decimals, and every figure is computed from the rounded rate. */
export const CONVERSION_RATE_DECIMALS = 10;

/**
 * The guards of the settlement rate — the rate a conversion is quoted at and a withdrawal is valued
 * in USD at (server derived.ts `settlementRate`; docs/product-rules.md#conversions). It prices each
 * market at its book's mid rather than its last trade, because one account can push a thin market's
 * last trade anywhere it likes and then convert at that price, or make a large withdrawal look small
 * to its daily limit and the travel rule. A market is refused while its spread is wider than
 * SETTLEMENT_MAX_SPREAD (a book too thin or half swept: its mid is as easy to move as a print) or
 * its last trade is further than SETTLEMENT_MAX_LAST_GAP from the mid (a print just pushed through
 * the book, which the refilled book does not confirm). Both are shares of the mid. The listed
 * markets' books stay well inside them in normal trading (spreads under 0.4 %, the last trade under
 * 0.35 % from the mid over thousands of simulated steps), so only a swept or pushed book is refused;
 * wider bounds would let a sweep move the mid further before the guard notices.
 */
export const SETTLEMENT_MAX_SPREAD = 0.01;
export const SETTLEMENT_MAX_LAST_GAP = 0.005;

const UNIT = 10n ** BigInt(WALLET_DECIMALS);
const RATE_SCALE = 10 ** CONVERSION_RATE_DECIMALS;
const PPM = 1_000_000n;

/** What a conversion of an amount gives, in integer units of 1e-8. */
export interface ConversionFigures {
  /** The rate used: the market's, rounded to CONVERSION_RATE_DECIMALS. */
  readonly rate: number;
  /** The amount at the rate, before the fee (units of the currency received). */
  readonly grossUnits: number;
  /** The fee kept (units of the currency received). */
  readonly feeUnits: number;
  /** What the account receives: gross less the fee. */
  readonly receiveUnits: number;
}

/**
 * The figures of converting `amountUnits` at `marketRate` with a fee of `feePpm`, in exact integer
 * arithmetic: the gross is rounded down to the unit and the fee up, so the venue never pays out a
 * fraction of a unit it did not receive (the account's loss is under one unit on each). Null for
 * an amount or rate that is not positive and finite, or a result beyond 2^53 units.
 */
export function conversionFigures(amountUnits: number, marketRate: number, feePpm: number): ConversionFigures | null {
  if (!Number.isSafeInteger(amountUnits) || amountUnits <= 0) return null;
  if (!Number.isFinite(marketRate) || marketRate <= 0 || !Number.isSafeInteger(feePpm) || feePpm < 0) return null;
  const scaled = Math.round(marketRate * RATE_SCALE);
  if (!Number.isSafeInteger(scaled) || scaled <= 0) return null;
  const rate = BigInt(scaled);
  const gross = (BigInt(amountUnits) * rate) / BigInt(RATE_SCALE);
  // Beyond the integer range the exchange counts in, nothing could be stored exactly.
  if (gross > BigInt(Number.MAX_SAFE_INTEGER)) return null;
  const fee = (gross * BigInt(feePpm) + PPM - 1n) / PPM;
  return {
    rate: scaled / RATE_SCALE,
    grossUnits: Number(gross),
    feeUnits: Number(fee),
    receiveUnits: Number(gross - fee),
  };
}

/** Decimal text as integer units of 1e-8 ("12.5" → 1250000000); null when it is not plain decimal text. */
export function decimalToUnits(text: string): number | null {
  const m = /^(\d+)(?:\.(\d*))?$|^\.(\d+)$/.exec(text.trim());
  if (!m) return null;
  const whole = m[1] ?? "0";
  const frac = m[2] ?? m[3] ?? "";
  if (frac.replace(/0+$/, "").length > WALLET_DECIMALS) return null;
  const units = BigInt(whole) * UNIT + BigInt(frac.padEnd(WALLET_DECIMALS, "0").slice(0, WALLET_DECIMALS) || "0");
  return units <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(units) : null;
}

// ---- the form and its rules ---------------------------------------------------------------------

/** The wallets a conversion happens in: both sides in the same one. */
export const CONVERSION_WALLETS = TRANSFER_WALLETS;

/** A conversion asked for, as the dialog sends it. */
export interface ConversionRequest {
  readonly from: string;
  readonly to: string;
  readonly wallet: TransferWallet;
  /** Decimal text, as typed. */
  readonly amount: string;
}

/**
 * The refusals the exchange answers a conversion with (`["error", CODE, MESSAGE]`); an agreement
 * not yet accepted is `agreement: CCY required` (`conversionAgreementRefusal`).
 */
export const CONVERSION_REFUSALS = {
  wallet: "wallet: invalid",
  from: "from: invalid",
  to: "to: invalid",
  sameCurrency: "to: must differ from the source currency",
  pair: "to: not convertible from this currency",
  amount: TRANSFER_REFUSALS.amount,
  precision: TRANSFER_REFUSALS.precision,
  tooSmall: "amount: too small to convert",
  tooLarge: "amount: above the conversion limit",
  insufficient: "amount: insufficient balance in the wallet",
  rate: "rate: unavailable",
  // The markets that price the pair are swept, one-sided or just moved: no rate to trust now (SETTLEMENT_MAX_SPREAD).
  unreliableRate: "rate: not reliable now",
  quote: "quote: invalid",
  notFound: "quote: not found",
  expired: "quote: expired",
  agreement: "agreement: required",
} as const;

export type ConversionRefusal = keyof typeof CONVERSION_REFUSALS;

/** The refusal naming the currency whose agreement is missing. */
export function conversionAgreementRefusal(currency: string): string {
  return `agreement: ${currency} required`;
}

const AGREEMENT_REFUSAL = /^agreement: ([A-Z0-9]{2,12}) required$/;

/** Which refusal a message is; null for a message of another kind. */
export function conversionRefusalOf(message: string): ConversionRefusal | null {
  if (AGREEMENT_REFUSAL.test(message)) return "agreement";
  for (const [k, v] of Object.entries(CONVERSION_REFUSALS)) if (v === message) return k as ConversionRefusal;
  return null;
}

/** The currency an agreement refusal names; null for any other message. */
export function agreementRefusalCurrency(message: string): string | null {
  return AGREEMENT_REFUSAL.exec(message)?.[1] ?? null;
}

function isConversionWallet(v: unknown): v is TransferWallet {
  return typeof v === "string" && (CONVERSION_WALLETS as readonly string[]).includes(v);
}

/**
 * What is wrong with a conversion's fields, or null: the wallet, the two currencies (both
 * convertible, different, a pair that converts), and the amount by the transfer rules
 * (src/protocol transfers.ts: plain decimal text, above 0, at most 8 decimals) and the
 * conversion limit. The balance and the rate are checked where they are known.
 */
export function conversionProblem(r: {
  readonly from: unknown;
  readonly to: unknown;
  readonly wallet: unknown;
  readonly amount: unknown;
}): ConversionRefusal | null {
  if (!isConversionWallet(r.wallet)) return "wallet";
  if (!isConvertibleCurrency(r.from)) return "from";
  if (!isConvertibleCurrency(r.to)) return "to";
  if (r.from === r.to) return "sameCurrency";
  if (conversionFeePpm(r.from, r.to) === null) return "pair";
  const problem = checkTransferAmount(r.amount, r.from);
  if (problem === "invalid") return "amount";
  if (problem === "precision") return "precision";
  const n = typeof r.amount === "number" ? r.amount : Number(String(r.amount).trim());
  return n > MAX_CONVERSION_AMOUNT ? "tooLarge" : null;
}

/** `w/int/convert/quote`'s body. */
export function encodeConversionQuoteRequest(r: ConversionRequest): Record<string, unknown> {
  return { from: r.from, to: r.to, wallet: r.wallet, amount: r.amount.trim() };
}

/** A request read: its value, or the refusal the exchange answers. */
export type ConversionChecked<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly refusal: ConversionRefusal };

/**
 * A quote request as the exchange reads it: the fields checked by `conversionProblem`, the amount
 * as integer units (a JSON number is read by its shortest decimal text).
 */
export function readConversionQuoteRequest(body: Readonly<Record<string, unknown>>): ConversionChecked<{
  readonly from: ConvertibleCurrency;
  readonly to: ConvertibleCurrency;
  readonly wallet: TransferWallet;
  readonly amountUnits: number;
}> {
  const r = { from: body["from"], to: body["to"], wallet: body["wallet"], amount: body["amount"] };
  const problem = conversionProblem(r);
  if (problem !== null) return { ok: false, refusal: problem };
  const units = decimalToUnits(String(r.amount));
  if (units === null || units <= 0) return { ok: false, refusal: "amount" };
  return {
    ok: true,
    value: {
      from: r.from as ConvertibleCurrency,
      to: r.to as ConvertibleCurrency,
      wallet: r.wallet as TransferWallet,
      amountUnits: units,
    },
  };
}

// ---- quotes and conversions ----------------------------------------------------------------------

/** A quote id: 32 hex characters (16 random bytes), unguessable, so an id names one account's quote. */
const QUOTE_ID = /^[0-9a-f]{32}$/;

export function isConversionQuoteId(v: unknown): v is string {
  return typeof v === "string" && QUOTE_ID.test(v);
}

/**
 * A quote: `amount` of `from` in `wallet` gives `receive` of `to` at `rate` (one `from` in `to`),
 * `fee` of `to` kept; good from `mts` until `expires` (the exchange's clock, epoch ms).
 */
export interface ConversionQuote {
  readonly id: string;
  readonly from: string;
  readonly to: string;
  readonly wallet: TransferWallet;
  readonly amount: number;
  readonly rate: number;
  readonly fee: number;
  readonly receive: number;
  readonly mts: number;
  readonly expires: number;
}

/** A conversion done: the quote it took, `mts` the moment it was made. */
export type Conversion = Omit<ConversionQuote, "expires">;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const isAmount = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v) && v >= 0;

function decodeConversionFields(raw: unknown): Conversion | null {
  if (!isRecord(raw)) return null;
  const { id, from, to, wallet, amount, rate, fee, receive, mts } = raw;
  if (!isConversionQuoteId(id) || typeof from !== "string" || typeof to !== "string") return null;
  if (!isConversionWallet(wallet)) return null;
  if (!isAmount(amount) || !isAmount(rate) || !isAmount(fee) || !isAmount(receive) || !isAmount(mts)) return null;
  return { id, from, to, wallet, amount, rate, fee, receive, mts };
}

function encodeConversionFields(c: Conversion): Record<string, unknown> {
  return {
    id: c.id,
    from: c.from,
    to: c.to,
    wallet: c.wallet,
    amount: c.amount,
    rate: c.rate,
    fee: c.fee,
    receive: c.receive,
    mts: c.mts,
  };
}

/** `w/int/convert/quote`'s answer: `{id, from, to, wallet, amount, rate, fee, receive, mts, expires}`. */
export const conversionQuoteCodec = {
  encode(q: ConversionQuote): Record<string, unknown> {
    return { ...encodeConversionFields(q), expires: q.expires };
  },
  /** The quote, or null when the body is not one. */
  decode(raw: unknown): ConversionQuote | null {
    const c = decodeConversionFields(raw);
    const expires = isRecord(raw) ? raw["expires"] : undefined;
    return c !== null && isAmount(expires) && expires > c.mts ? { ...c, expires } : null;
  },
};

/**
 * The conversion a `w/int/convert` notification carries (`acc_cv`, its DATA field):
 * `{id, from, to, wallet, amount, rate, fee, receive, mts}`.
 */
export const conversionCodec = {
  encode: encodeConversionFields,
  decode: decodeConversionFields,
};

/** The notification type of a conversion (its `n` and its REST answer), a wallet notification like `acc_tf`. */
export const CONVERSION_NOTIFICATION = "acc_cv";

/** `w/int/convert`'s body: the quote to convert at. */
export function encodeConvertRequest(quoteId: string): Record<string, unknown> {
  return { quote: quoteId };
}

// ---- currency agreements -------------------------------------------------------------------------

/** A currency's agreement: the text (by id, which the app words) and its current version. */
export interface CurrencyAgreement {
  readonly textId: string;
  readonly version: string;
}

/**
 * The currencies an account must accept terms for before converting into or out of them (the
 * product's currency-agreement dialog): USDt — its issuer's terms (Tether issues and redeems it,
 * not the exchange; it is not legal tender) — and the Turkish lira and Brazilian real, held with
 * local payment partners under their own terms. A new version needs accepting again.
 */
export const CURRENCY_AGREEMENTS: Readonly<Record<string, CurrencyAgreement>> = {
  UST: { textId: "usdt-issuer-terms", version: "1.0" },
  TRY: { textId: "try-fiat-terms", version: "1.0" },
  BRL: { textId: "brl-fiat-terms", version: "1.0" },
};

export function agreementOf(currency: string): CurrencyAgreement | null {
  return Object.hasOwn(CURRENCY_AGREEMENTS, currency) ? (CURRENCY_AGREEMENTS[currency] ?? null) : null;
}

/** An accepted agreement: `{currency, version, mts}` (`mts`: when it was accepted). */
export interface AcceptedAgreement {
  readonly currency: string;
  readonly version: string;
  readonly mts: number;
}

/**
 * The currencies of a conversion whose current agreement is not accepted, `from` first; `accepted`
 * maps a currency to the version the account accepted.
 */
export function agreementsMissing(currencies: readonly string[], accepted: ReadonlyMap<string, string>): string[] {
  return [...new Set(currencies)].filter((c) => {
    const a = agreementOf(c);
    return a !== null && accepted.get(c) !== a.version;
  });
}

/** `r/int/currency/agreements`' answer: the account's accepted agreements. */
export const acceptedAgreementsCodec = {
  encode(list: readonly AcceptedAgreement[]): Record<string, unknown>[] {
    return list.map((a) => ({ currency: a.currency, version: a.version, mts: a.mts }));
  },
  /** The list, or null when the body is not one. */
  decode(raw: unknown): AcceptedAgreement[] | null {
    if (!Array.isArray(raw)) return null;
    const out: AcceptedAgreement[] = [];
    for (const r of raw as unknown[]) {
      const a = acceptedAgreementCodec.decode(r);
      if (a === null) return null;
      out.push(a);
    }
    return out;
  },
};

/** `w/int/currency/agreement`'s answer: the agreement as accepted. */
export const acceptedAgreementCodec = {
  encode(a: AcceptedAgreement): Record<string, unknown> {
    return { currency: a.currency, version: a.version, mts: a.mts };
  },
  decode(raw: unknown): AcceptedAgreement | null {
    if (!isRecord(raw)) return null;
    const { currency, version, mts } = raw;
    return typeof currency === "string" && typeof version === "string" && isAmount(mts)
      ? { currency, version, mts }
      : null;
  },
};

/** The refusals of `w/int/currency/agreement`. */
export const AGREEMENT_REFUSALS = {
  currency: "currency: no agreement for this currency",
  version: "version: not the current version",
} as const;

export type AgreementRefusal = keyof typeof AGREEMENT_REFUSALS;

export function agreementRefusalOf(message: string): AgreementRefusal | null {
  for (const [k, v] of Object.entries(AGREEMENT_REFUSALS)) if (v === message) return k as AgreementRefusal;
  return null;
}

/** `w/int/currency/agreement`'s body. */
export function encodeAgreementRequest(currency: string, version: string): Record<string, unknown> {
  return { currency, version };
}

/** An acceptance as the exchange reads it: the currency's current version, else the refusal. */
export function readAgreementRequest(
  body: Readonly<Record<string, unknown>>,
):
  | { readonly ok: true; readonly currency: string; readonly version: string }
  | { readonly ok: false; readonly refusal: AgreementRefusal } {
  const currency = body["currency"];
  const agreement = typeof currency === "string" ? agreementOf(currency) : null;
  if (typeof currency !== "string" || agreement === null) return { ok: false, refusal: "currency" };
  if (body["version"] !== agreement.version) return { ok: false, refusal: "version" };
  return { ok: true, currency, version: agreement.version };
}
