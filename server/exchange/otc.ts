/**
 * OTC block trades on the embedded exchange (docs/product-rules.md#otc-block-trades; wire in
 * docs/protocol.md#otc-block-trades). The rules — the pairs, the minimum block, the spread, the
 * quote's lifetime, the price math, the refusals — are src/protocol otc.ts, the ones the page checks.
 * Built like conversions.ts (a quote stored, then taken once), with the amount rules and quote ids
 * shared with it through src/protocol.
 *
 * - `w/int/otc/quote {pair, side, amount}` prices the block from the exchange's own book: the side
 *   it would take (asks for a buy, bids for a sell; the account's own orders left out, as self-trade
 *   prevention would) walked for the whole amount, the average price moved by OTC_SPREAD_PPM against
 *   the account. Refused while the book's mid cannot be trusted (derived.ts `settlementPrice`: a side
 *   empty, a wide spread, a last trade just pushed) and when the side cannot fill it. The quote is
 *   stored with the account; nothing moves.
 * - `w/int/otc/accept {quote}` trades at the stored figures in one SQLite transaction
 *   (balances.ts `funds`): the quote checked to be the caller's, unused and not expired, the
 *   exchange wallet checked now, the two currencies moved with a ledger row each (category
 *   "exchange"), a row in the account's trade history, the quote marked accepted. The `n`
 *   notification, the trade's `te`/`tu` and the wallet updates reach the account's sockets after
 *   COMMIT (events.ts). Unlike a conversion, a second accept is refused ("already accepted"):
 *   a block is a deliberate act, and the page shows the first answer it got.
 * - `r/int/otc/hist` answers the account's newest quotes with their outcome.
 *
 * Reached through `otcOf(gate)` (one per gateway, as conversions are).
 */
import { randomBytes } from "node:crypto";
import {
  authTradeCodec,
  ERROR_CODES,
  isOtcQuoteId,
  OTC_HISTORY_LIMIT,
  OTC_NOTIFICATION,
  OTC_ORDER_TYPE,
  OTC_QUOTE_MS,
  OTC_REFUSALS,
  otcCurrencies,
  otcFigures,
  otcHistoryCodec,
  otcQuoteCodec,
  otcTradeCodec,
  readOtcQuoteRequest,
  type OtcHistoryEntry,
  type OtcRefusal,
  type OtcSide,
  type OtcTrade,
  unitsToDecimal,
} from "../../src/protocol/index.ts";
import { fromUnits, type Db } from "../store/db.ts";
import { fail, notice, ok, type Reply } from "../reply.ts";
import type { AccountGateway } from "./account-gateway.ts";
import type { Balances } from "./balances.ts";
import { settlementPrice } from "./derived.ts";
import type { Exchange } from "./exchange.ts";
import type { Market } from "./market.ts";
import type { Positions } from "./positions.ts";

/**
 * Refusals of malformed input — the client's error, HTTP 400; the others (the book, the balance, a
 * quote gone stale, unknown or used) are the state of the account or market: 500, as the real API
 * answers its errors.
 */
const MALFORMED: ReadonlySet<OtcRefusal> = new Set(["pair", "side", "amount", "precision", "tooSmall", "quote"]);

const refuse = (r: OtcRefusal): Reply => fail(ERROR_CODES.GENERIC, OTC_REFUSALS[r], MALFORMED.has(r) ? 400 : 500);

/** An account's quotes never accepted beyond this many (newest kept) are dropped as new ones are made. */
const UNACCEPTED_KEPT = 100;

/** A stored quote: the wire's fields, `amount` and `total` in units (1e-8). */
type QuoteRow = Pick<
  OtcHistoryEntry,
  "id" | "pair" | "side" | "amount" | "price" | "total" | "mts" | "expires" | "accepted"
>;

/** The quote was taken by another request inside the transaction: roll back, refuse as used. */
class AlreadyAccepted extends Error {}
/** Thrown inside the money transaction when the wallet no longer holds what the block takes. */
class Insufficient extends Error {}

const instances = new WeakMap<AccountGateway, Otc>();

/** The gateway's OTC desk (made, with its table, on first use). */
export function otcOf(gate: AccountGateway): Otc {
  let o = instances.get(gate);
  if (!o) {
    o = new Otc(gate.accounts.db, gate.balances, gate.positions, gate.exchange, gate.orders.nextOrderId, gate.now);
    instances.set(gate, o);
  }
  return o;
}

/**
 * The book side a block would take, best level first as `[price, amount]`, the account's own
 * orders left out.
 */
function bookSide(market: Market, side: OtcSide, owner: number): [number, number][] {
  const levels = side === "buy" ? market.engine.asks : market.engine.bids;
  const out: [number, number][] = [];
  for (const p of levels.prices) {
    const level = levels.levels.get(p);
    if (!level) continue;
    let amount = 0;
    for (let i = level.head; i < level.orders.length; i++) {
      const o = level.orders[i];
      if (o && o.owner !== owner && o.remaining > 0) amount += o.remaining;
    }
    if (amount > 0) out.push([p, amount]);
  }
  return out;
}

export class Otc {
  constructor(
    readonly db: Db,
    readonly balances: Balances,
    readonly positions: Positions,
    readonly exchange: Exchange,
    /** Account order ids (storage's counter): the trade row's order id names no other order. */
    readonly nextOrderId: () => number,
    readonly now: () => number,
    /** How long a quote holds (OTC_QUOTE_MS; tests shorten it). */
    readonly quoteMs = OTC_QUOTE_MS,
  ) {
    db.exec(`
CREATE TABLE IF NOT EXISTS otc_quotes (
  id TEXT PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users(id),
  pair TEXT NOT NULL,
  side TEXT NOT NULL,
  amount INTEGER NOT NULL,
  price REAL NOT NULL,
  total INTEGER NOT NULL,
  mts INTEGER NOT NULL,
  expires INTEGER NOT NULL,
  accepted INTEGER,
  trade_id INTEGER
);
CREATE INDEX IF NOT EXISTS otc_quotes_by_user ON otc_quotes (user_id, mts);`);
  }

  /** The OTC calls; null when the path is not one of them. */
  handle(userId: number, path: string, body: Record<string, unknown>): Reply | null {
    switch (path) {
      case "/v2/auth/w/int/otc/quote":
        return this.#quote(userId, body);
      case "/v2/auth/w/int/otc/accept":
        return this.#accept(userId, body);
      case "/v2/auth/r/int/otc/hist":
        return ok(otcHistoryCodec.encode(this.history(userId)));
      default:
        return null;
    }
  }

  /** The account's newest quotes with their outcome, newest first. */
  history(userId: number): OtcHistoryEntry[] {
    const now = this.now();
    const rows = this.db
      .prepare(
        "SELECT id, pair, side, amount, price, total, mts, expires, accepted FROM otc_quotes WHERE user_id = ? ORDER BY mts DESC, rowid DESC LIMIT ?",
      )
      .all(userId, OTC_HISTORY_LIMIT) as QuoteRow[];
    return rows.map((r) => ({
      ...this.#wire(r),
      status: r.accepted !== null ? "ACCEPTED" : now >= r.expires ? "EXPIRED" : "OPEN",
      accepted: r.accepted,
    }));
  }

  #wire(r: QuoteRow): Omit<OtcHistoryEntry, "status" | "accepted"> {
    return {
      id: r.id,
      pair: r.pair,
      side: r.side,
      amount: fromUnits(r.amount),
      price: r.price,
      total: fromUnits(r.total),
      mts: r.mts,
      expires: r.expires,
    };
  }

  /** Whether the exchange wallet holds what the block takes: the total of the quote currency for a buy, the amount of the base for a sell. */
  #covers(userId: number, q: Pick<QuoteRow, "pair" | "side" | "amount" | "total">): boolean {
    const { base, quote } = otcCurrencies(q.pair);
    return q.side === "buy"
      ? this.positions.spendable(userId, "exchange", quote) >= q.total
      : this.positions.spendable(userId, "exchange", base) >= q.amount;
  }

  #quote(userId: number, body: Record<string, unknown>): Reply {
    const read = readOtcQuoteRequest(body);
    if (!read.ok) return refuse(read.refusal);
    const { pair, side, amountUnits } = read;
    const market = this.exchange.markets.get(`t${pair}`);
    if (!market) return refuse("pair");
    // The same guard as a conversion's rate: a book just swept or pushed prices no block.
    if (settlementPrice(market) === "refused") return refuse("unreliable");
    const figures = otcFigures(amountUnits, side, bookSide(market, side, userId));
    if (figures === null) return refuse("liquidity");
    if (!this.#covers(userId, { pair, side, amount: amountUnits, total: figures.totalUnits }))
      return refuse("insufficient");
    const now = this.now();
    const id = randomBytes(16).toString("hex");
    const expires = now + this.quoteMs;
    this.db.transaction(() => {
      this.db
        .prepare(
          "INSERT INTO otc_quotes (id, user_id, pair, side, amount, price, total, mts, expires) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        )
        .run(id, userId, pair, side, amountUnits, figures.price, figures.totalUnits, now, expires);
      // The history keeps every accepted block; quotes never accepted only the newest hundred,
      // however often a client asks.
      this.db
        .prepare(
          "DELETE FROM otc_quotes WHERE user_id = ? AND accepted IS NULL AND id NOT IN (SELECT id FROM otc_quotes WHERE user_id = ? AND accepted IS NULL ORDER BY mts DESC, rowid DESC LIMIT ?)",
        )
        .run(userId, userId, UNACCEPTED_KEPT);
    })();
    return ok(
      otcQuoteCodec.encode({
        id,
        pair,
        side,
        amount: fromUnits(amountUnits),
        price: figures.price,
        total: fromUnits(figures.totalUnits),
        mts: now,
        expires,
      }),
    );
  }

  #row(userId: number, id: string): QuoteRow | undefined {
    // By id and account together: another account's quote is not found, whoever holds its id.
    return this.db
      .prepare(
        "SELECT id, pair, side, amount, price, total, mts, expires, accepted FROM otc_quotes WHERE id = ? AND user_id = ?",
      )
      .get(id, userId) as QuoteRow | undefined;
  }

  #accept(userId: number, body: Record<string, unknown>): Reply {
    const id = body["quote"];
    if (!isOtcQuoteId(id)) return refuse("quote");
    const q = this.#row(userId, id);
    if (!q) return refuse("notFound");
    if (q.accepted !== null) return refuse("used");
    const now = this.now();
    if (now >= q.expires) return refuse("expired");
    if (!this.#covers(userId, q)) return refuse("insufficient");
    const { base, quote } = otcCurrencies(q.pair);
    const buy = q.side === "buy";
    const symbol = `t${q.pair}`;
    const amount = unitsToDecimal(q.amount);
    // Both rows name the block, its price and the quote (category "exchange", src/protocol
    // ledgers.ts: the wording of a spot fill), amounts as exact decimals.
    const text = `Exchange ${amount} ${base} for ${quote} @ ${q.price} (OTC block trade #${q.id.slice(0, 8)})`;
    let reply: unknown[];
    try {
      reply = this.balances.funds((move) => {
        const tradeId = this.exchange.nextTradeId();
        // Taken in the transaction that moves the money, and only if still unused: the quote is
        // accepted exactly when the money moved, and money moves once per quote.
        const taken = this.db
          .prepare("UPDATE otc_quotes SET accepted = ?, trade_id = ? WHERE id = ? AND user_id = ? AND accepted IS NULL")
          .run(now, tradeId, q.id, userId);
        if (taken.changes !== 1) throw new AlreadyAccepted();
        // Checked again inside the write (a rollback also leaves the quote unused).
        if (!this.#covers(userId, q)) throw new Insufficient();
        const [payCcy, pay, getCcy, get] = buy ? [quote, q.total, base, q.amount] : [base, q.amount, quote, q.total];
        move(userId, "exchange", payCcy, -pay, text);
        move(userId, "exchange", getCcy, get, text);
        const orderId = this.nextOrderId();
        const signed = buy ? q.amount : -q.amount;
        // The block in the account's trade history (r/trades/hist, the archive): a taker's spot
        // trade whose fee is the spread already in the price.
        this.db
          .prepare(
            "INSERT INTO trades (trade_id, user_id, order_id, symbol, mts, amount, price, order_type, order_price, maker, fee, fee_currency) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
          )
          .run(tradeId, userId, orderId, symbol, now, signed, q.price, OTC_ORDER_TYPE, q.price, 0, 0, quote);
        const trade: OtcTrade = {
          id: q.id,
          pair: q.pair,
          side: q.side,
          amount: fromUnits(q.amount),
          price: q.price,
          total: fromUnits(q.total),
          mts: now,
          tradeId,
        };
        const n = notice(
          now,
          OTC_NOTIFICATION,
          otcTradeCodec.encode(trade),
          "SUCCESS",
          `OTC block ${buy ? "bought" : "sold"}: ${amount} ${base} @ ${q.price} ${quote}, ${unitsToDecimal(q.total)} ${quote}`,
        );
        const row = {
          id: tradeId,
          pair: symbol,
          mts_create: now,
          order_id: orderId,
          exec_amount: fromUnits(signed),
          exec_price: q.price,
          order_type: OTC_ORDER_TYPE,
          order_price: q.price,
          maker: -1,
          fee: null,
          fee_currency: null,
          cid: null,
        };
        // Queued in the transaction: sent after COMMIT, dropped if it rolls back.
        this.balances.events.emit(userId, "te", authTradeCodec.encode(row));
        this.balances.events.emit(userId, "tu", authTradeCodec.encode({ ...row, fee: 0, fee_currency: quote }));
        this.balances.events.emit(userId, "n", n);
        return n;
      });
    } catch (e) {
      if (e instanceof Insufficient) return refuse("insufficient");
      if (e instanceof AlreadyAccepted) return refuse("used");
      throw e;
    }
    return ok(reply);
  }
}
