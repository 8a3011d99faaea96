/**
 * Currency conversions and currency agreements on the embedded exchange
 * (docs/product-rules.md#conversions, #currency-agreements; wire in docs/protocol.md#conversions).
 * The rules — which currency converts to which, the fee, the quote's lifetime, the amount rules,
 * the refusals — are src/protocol conversions.ts, the ones the dialog checks.
 *
 * - `w/int/convert/quote {from, to, amount, wallet}` prices a conversion at the exchange's guarded
 *   rate of that moment (derived.ts `settlementRate`: the markets' mids, refused while a book is
 *   swept, wide or just pushed) and stores the quote: a random id, the account, every figure in
 *   units. Nothing moves.
 * - `w/int/convert {quote}` converts at the stored figures in one SQLite transaction (balances.ts
 *   `funds`): the quote checked to be the caller's, unused and not expired, the balance checked
 *   now, `amount` debited and `receive` credited in the same wallet with a ledger row on each
 *   currency (category 905, "currency conversion"), the quote marked used with the answer it got.
 *   A repeat answers that first answer and moves nothing. The `n` notification and the wallet
 *   updates reach the account's sockets after COMMIT (events.ts).
 * - `r/int/currency/agreements` and `w/int/currency/agreement {currency, version}`: the currencies
 *   whose terms the account accepted (`currency_agreements`); converting into or out of a currency
 *   whose current agreement is not accepted is refused.
 *
 * Reached through `conversionsOf(gate)` (one per gateway, as server/subaccounts.ts is), so the
 * venue's wiring stays as it is.
 */
import { randomBytes } from "node:crypto";
import {
  acceptedAgreementCodec,
  acceptedAgreementsCodec,
  agreementsMissing,
  AGREEMENT_REFUSALS,
  conversionAgreementRefusal,
  conversionCodec,
  conversionFeePpm,
  conversionFigures,
  CONVERSION_NOTIFICATION,
  CONVERSION_QUOTE_MS,
  conversionQuoteCodec,
  CONVERSION_REFUSALS,
  ERROR_CODES,
  isConversionQuoteId,
  MAX_CONVERSION_AMOUNT,
  readAgreementRequest,
  readConversionQuoteRequest,
  type AcceptedAgreement,
  type Conversion,
  type ConversionRefusal,
  type TransferWallet,
  unitsToDecimal,
} from "../../src/protocol/index.ts";
import { fromUnits, toUnits, type Db } from "../store/db.ts";
import { fail, notice, ok, type Reply } from "../reply.ts";
import type { AccountGateway } from "./account-gateway.ts";
import type { Balances } from "./balances.ts";
import { fxRate, settlementRate } from "./derived.ts";
import type { Exchange } from "./exchange.ts";
import type { Positions } from "./positions.ts";

/**
 * Refusals of malformed input — the client's error, HTTP 400 like `w/transfer`'s; the others
 * (balance, rate, a quote gone stale or unknown, an agreement missing) are the state of the
 * account or market: 500, as the real API answers its errors.
 */
const MALFORMED: ReadonlySet<ConversionRefusal> = new Set([
  "wallet",
  "from",
  "to",
  "sameCurrency",
  "pair",
  "amount",
  "precision",
  "tooSmall",
  "tooLarge",
  "quote",
]);

const refuse = (r: ConversionRefusal): Reply =>
  fail(ERROR_CODES.GENERIC, CONVERSION_REFUSALS[r], MALFORMED.has(r) ? 400 : 500);

/** Unused quotes are kept this long past their expiry (so a late try is told "expired"), then dropped. */
const STALE_QUOTES_KEPT_MS = 3_600_000;
/** An account's unused quotes beyond this many (newest kept) are dropped as new ones are made. */
const OPEN_QUOTES_KEPT = 50;

interface QuoteRow {
  readonly id: string;
  readonly wallet: TransferWallet;
  readonly from_currency: string;
  readonly to_currency: string;
  readonly amount: number;
  readonly rate: number;
  readonly fee: number;
  readonly receive: number;
  readonly mts: number;
  readonly expires: number;
  readonly reply: string | null;
}

/** The quote was taken by another request inside the transaction: roll back, answer that one's reply. */
class AlreadyConverted extends Error {}
/** Thrown inside the money transaction when the wallet no longer holds what the quote takes. */
class Insufficient extends Error {}

const instances = new WeakMap<AccountGateway, Conversions>();

/** The gateway's conversions (made, with their tables, on first use). */
export function conversionsOf(gate: AccountGateway): Conversions {
  let c = instances.get(gate);
  if (!c) {
    c = new Conversions(gate.accounts.db, gate.balances, gate.positions, gate.exchange, gate.now);
    instances.set(gate, c);
  }
  return c;
}

export class Conversions {
  constructor(
    readonly db: Db,
    readonly balances: Balances,
    readonly positions: Positions,
    readonly exchange: Exchange,
    readonly now: () => number,
    /** How long a quote holds (CONVERSION_QUOTE_MS; tests shorten it). */
    readonly quoteMs = CONVERSION_QUOTE_MS,
  ) {
    db.exec(`
CREATE TABLE IF NOT EXISTS conversions (
  id TEXT PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users(id),
  wallet TEXT NOT NULL,
  from_currency TEXT NOT NULL,
  to_currency TEXT NOT NULL,
  amount INTEGER NOT NULL,
  rate REAL NOT NULL,
  fee INTEGER NOT NULL,
  receive INTEGER NOT NULL,
  mts INTEGER NOT NULL,
  expires INTEGER NOT NULL,
  converted INTEGER,
  reply TEXT
);
CREATE INDEX IF NOT EXISTS conversions_by_user ON conversions (user_id, converted, mts);
CREATE TABLE IF NOT EXISTS currency_agreements (
  user_id INTEGER NOT NULL REFERENCES users(id),
  currency TEXT NOT NULL,
  version TEXT NOT NULL,
  mts INTEGER NOT NULL,
  PRIMARY KEY (user_id, currency)
);`);
  }

  /** The conversion and agreement calls; null when the path is not one of them. */
  handle(userId: number, path: string, body: Record<string, unknown>): Reply | null {
    switch (path) {
      case "/v2/auth/w/int/convert/quote":
        return this.#quote(userId, body);
      case "/v2/auth/w/int/convert":
        return this.#convert(userId, body);
      case "/v2/auth/r/int/currency/agreements":
        return ok(acceptedAgreementsCodec.encode(this.accepted(userId)));
      case "/v2/auth/w/int/currency/agreement":
        return this.#accept(userId, body);
      default:
        return null;
    }
  }

  /** The account's accepted agreements, by currency. */
  accepted(userId: number): AcceptedAgreement[] {
    return this.db
      .prepare("SELECT currency, version, mts FROM currency_agreements WHERE user_id = ? ORDER BY currency")
      .all(userId) as AcceptedAgreement[];
  }

  /** The refusal of a conversion touching a currency whose current agreement is not accepted; null when none is missing. */
  #agreementRefusal(userId: number, from: string, to: string): Reply | null {
    const accepted = new Map(this.accepted(userId).map((a) => [a.currency, a.version]));
    const missing = agreementsMissing([from, to], accepted)[0];
    return missing === undefined ? null : fail(ERROR_CODES.GENERIC, conversionAgreementRefusal(missing));
  }

  #quote(userId: number, body: Record<string, unknown>): Reply {
    const read = readConversionQuoteRequest(body);
    if (!read.ok) return refuse(read.refusal);
    const { from, to, wallet, amountUnits } = read.value;
    const gated = this.#agreementRefusal(userId, from, to);
    if (gated) return gated;
    // From margin, a losing position's collateral stays (Positions.spendable).
    if (this.positions.spendable(userId, wallet, from) < amountUnits) return refuse("insufficient");
    // The guarded settlement rate (each market at its book's mid), not the last prices `calc/fx`
    // answers: the converting account could push a thin market's last price and convert at it.
    // No market linking the two at all is `rate`; markets that link them but cannot be trusted
    // this moment are `unreliableRate`, which passes once the books refill.
    const feePpm = conversionFeePpm(from, to);
    if (feePpm === null || fxRate(this.exchange, from, to) === null) return refuse("rate");
    const market = settlementRate(this.exchange, from, to);
    if (market === null) return refuse("unreliableRate");
    const figures = conversionFigures(amountUnits, market, feePpm);
    if (figures === null || figures.receiveUnits > toUnits(MAX_CONVERSION_AMOUNT)) return refuse("tooLarge");
    if (figures.receiveUnits <= 0) return refuse("tooSmall");
    const now = this.now();
    const id = randomBytes(16).toString("hex");
    const expires = now + this.quoteMs;
    this.db.transaction(() => {
      this.db
        .prepare(
          "INSERT INTO conversions (id, user_id, wallet, from_currency, to_currency, amount, rate, fee, receive, mts, expires) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        )
        .run(
          id,
          userId,
          wallet,
          from,
          to,
          amountUnits,
          figures.rate,
          figures.feeUnits,
          figures.receiveUnits,
          now,
          expires,
        );
      // Quotes nobody converted: kept an hour past expiry ("expired" rather than "not found"),
      // and never more than a few dozen per account, however often a client asks.
      this.db
        .prepare("DELETE FROM conversions WHERE user_id = ? AND converted IS NULL AND expires < ?")
        .run(userId, now - STALE_QUOTES_KEPT_MS);
      this.db
        .prepare(
          "DELETE FROM conversions WHERE user_id = ? AND converted IS NULL AND id NOT IN (SELECT id FROM conversions WHERE user_id = ? AND converted IS NULL ORDER BY mts DESC, rowid DESC LIMIT ?)",
        )
        .run(userId, userId, OPEN_QUOTES_KEPT);
    })();
    return ok(
      conversionQuoteCodec.encode({
        id,
        from,
        to,
        wallet,
        amount: fromUnits(amountUnits),
        rate: figures.rate,
        fee: fromUnits(figures.feeUnits),
        receive: fromUnits(figures.receiveUnits),
        mts: now,
        expires,
      }),
    );
  }

  #row(userId: number, id: string): QuoteRow | undefined {
    // By id and account together: another account's quote is not found, whoever holds its id.
    return this.db
      .prepare(
        "SELECT id, wallet, from_currency, to_currency, amount, rate, fee, receive, mts, expires, reply FROM conversions WHERE id = ? AND user_id = ?",
      )
      .get(id, userId) as QuoteRow | undefined;
  }

  #convert(userId: number, body: Record<string, unknown>): Reply {
    const id = body["quote"];
    if (!isConversionQuoteId(id)) return refuse("quote");
    const q = this.#row(userId, id);
    if (!q) return refuse("notFound");
    // Converted already: the first answer again, nothing moved (a retried request, a double click).
    if (q.reply !== null) return ok(JSON.parse(q.reply));
    const now = this.now();
    if (now >= q.expires) return refuse("expired");
    const gated = this.#agreementRefusal(userId, q.from_currency, q.to_currency);
    if (gated) return gated;
    if (this.positions.spendable(userId, q.wallet, q.from_currency) < q.amount) return refuse("insufficient");
    const conversion: Conversion = {
      id: q.id,
      from: q.from_currency,
      to: q.to_currency,
      wallet: q.wallet,
      amount: fromUnits(q.amount),
      rate: q.rate,
      fee: fromUnits(q.fee),
      receive: fromUnits(q.receive),
      mts: now,
    };
    const reply = notice(
      now,
      CONVERSION_NOTIFICATION,
      conversionCodec.encode(conversion),
      "SUCCESS",
      `${unitsToDecimal(q.amount)} ${q.from_currency} converted to ${unitsToDecimal(q.receive)} ${q.to_currency}`,
    );
    // Both rows say what was converted into what, at which rate and for what fee, amounts as exact
    // decimals (never 1e-8); the category is read from the first words (src/protocol ledgers.ts:
    // 905, "currency conversion").
    const [amount, receive, fee] = [q.amount, q.receive, q.fee].map(unitsToDecimal);
    const text = `Currency conversion of ${amount} ${q.from_currency} to ${receive} ${q.to_currency} at ${q.rate} (fee ${fee} ${q.to_currency}) #${q.id.slice(0, 8)}`;
    try {
      this.balances.funds((move) => {
        // Taken in the transaction that moves the money, and only if still unused: the quote is
        // used exactly when the money moved, and money moves once per quote.
        const taken = this.db
          .prepare("UPDATE conversions SET converted = ?, reply = ? WHERE id = ? AND user_id = ? AND converted IS NULL")
          .run(now, JSON.stringify(reply), q.id, userId);
        if (taken.changes !== 1) throw new AlreadyConverted();
        // Checked again inside the write (a rollback also leaves the quote unused).
        if (this.positions.spendable(userId, q.wallet, q.from_currency) < q.amount) throw new Insufficient();
        move(userId, q.wallet, q.from_currency, -q.amount, text);
        move(userId, q.wallet, q.to_currency, q.receive, text);
        // Queued in the transaction: sent after COMMIT, dropped if it rolls back.
        this.balances.events.emit(userId, "n", reply);
      });
    } catch (e) {
      if (e instanceof Insufficient) return refuse("insufficient");
      if (!(e instanceof AlreadyConverted)) throw e;
      const first = this.#row(userId, q.id)?.reply;
      return first ? ok(JSON.parse(first)) : refuse("notFound");
    }
    // What the margin wallet can trade changed: margin info follows, as after a transfer.
    if (q.wallet === "margin") {
      this.positions.marginChanged(userId, q.from_currency);
      this.positions.marginChanged(userId, q.to_currency);
    }
    return ok(reply);
  }

  #accept(userId: number, body: Record<string, unknown>): Reply {
    const read = readAgreementRequest(body);
    if (!read.ok) return fail(ERROR_CODES.GENERIC, AGREEMENT_REFUSALS[read.refusal], 400);
    const now = this.now();
    // Accepting the version already accepted keeps its first moment; a new version replaces it.
    this.db
      .prepare(
        "INSERT INTO currency_agreements (user_id, currency, version, mts) VALUES (?, ?, ?, ?) ON CONFLICT (user_id, currency) DO UPDATE SET version = excluded.version, mts = excluded.mts WHERE currency_agreements.version <> excluded.version",
      )
      .run(userId, read.currency, read.version, now);
    const row = this.db
      .prepare("SELECT currency, version, mts FROM currency_agreements WHERE user_id = ? AND currency = ?")
      .get(userId, read.currency) as AcceptedAgreement;
    return ok(acceptedAgreementCodec.encode(row));
  }
}
