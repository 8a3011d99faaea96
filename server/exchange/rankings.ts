/**
 * Leaderboards computed from the exchange's own account records (docs/product-rules.md#leaderboards,
 * wire in docs/protocol.md#rankings): `vol` is each account's traded volume in USD (every fill in
 * the `trades` table, at its price, through `fxRate` for a quote other than USD), `plu_diff` its
 * realized profit in USD (the margin P/L ledger rows positions.ts writes on every reduce, close and
 * liquidation), over the key's window ending now (or at `end`). Only accounts with a public
 * nickname are ranked; the e-mail and login name never leave here. Served by REST
 * `rankings/KEY/hist` (rest-public.ts) and the socket's `status` channel (ws-channels.ts), whose
 * ticker timer resends a board when it changed; a board is recomputed at most once a second.
 */
import {
  leaderboardRowCodec,
  parseSymbol,
  RANKING_GLOBAL,
  RANKING_ROWS,
  RANKING_WINDOWS,
  storedNickname,
  type RankingKey,
} from "../../src/protocol/index.ts";
import { fromUnits, type Db } from "../store/db.ts";
import { fxRate } from "./derived.ts";
import type { Exchange } from "./exchange.ts";

/** A board is reused this long before it is computed again. */
export const RANKING_CACHE_MS = 1000;

/** What a margin P/L ledger row's description looks like (positions.ts `#settlePl`). */
const PL_DESCRIPTION = /^Position #[0-9]+ ([A-Z0-9:]+) P\/L @ /;

interface Cached {
  readonly at: number;
  readonly rows: unknown[][];
}

/** Whether two boards rank the same names with the same values (their times aside). */
function sameStandings(a: readonly unknown[][], b: readonly unknown[][]): boolean {
  const strip = (rows: readonly unknown[][]): string => JSON.stringify(rows.map((r) => r.slice(1)));
  return strip(a) === strip(b);
}

export class Rankings {
  readonly #db: Db;
  readonly #ex: Exchange;
  readonly #cache = new Map<string, Cached>();

  constructor(db: Db, exchange: Exchange) {
    this.#db = db;
    this.#ex = exchange;
    db.exec("CREATE INDEX IF NOT EXISTS trades_mts ON trades(mts)");
    db.exec("CREATE INDEX IF NOT EXISTS ledgers_mts ON ledgers(mts)");
  }

  /**
   * The board of `key` over the window ending at `end`, best first, as wire rows (at most
   * RANKING_ROWS). The current board (`end` = now) is cached for RANKING_CACHE_MS.
   */
  board(key: RankingKey, end: number, now: number): unknown[][] {
    // Only the markets the exchange lists have boards: any other symbol is an empty board, neither
    // computed nor cached (the cache stays bounded by markets × kinds × windows).
    if (key.symbol !== RANKING_GLOBAL && !this.#ex.markets.has(key.symbol)) return [];
    const current = end >= now;
    const id = `${key.kind}:${key.timeframe}:${key.symbol}`;
    const hit = current ? this.#cache.get(id) : undefined;
    if (hit && now - hit.at < RANKING_CACHE_MS) return hit.rows;
    let rows = this.#compute(key, current ? now : end);
    // The same standings keep their first time, so the socket resends a board only when it changed.
    if (hit && sameStandings(hit.rows, rows)) rows = hit.rows;
    if (current) this.#cache.set(id, { at: now, rows });
    return rows;
  }

  #compute(key: RankingKey, end: number): unknown[][] {
    const start = end - RANKING_WINDOWS[key.timeframe];
    const totals = key.kind === "vol" ? this.#volumes(key.symbol, start, end) : this.#profits(key.symbol, start, end);
    const names = this.#nicknames([...totals.keys()]);
    const ranked = [...totals]
      .filter(([userId, value]) => names.has(userId) && value !== 0)
      .sort((a, b) => b[1] - a[1] || a[0] - b[0])
      .slice(0, RANKING_ROWS);
    return ranked.map(([userId, value], i) =>
      leaderboardRowCodec.encode({
        mts: end,
        username: names.get(userId) as string,
        rank: i + 1,
        value: Math.round(value * 100) / 100,
        twitter: null,
      }),
    );
  }

  /** USD value of `amount` of `ccy`; null when no chain of markets prices it. */
  #usd(amount: number, ccy: string): number | null {
    if (ccy === "USD") return amount;
    const rate = fxRate(this.#ex, ccy, "USD");
    return rate === null ? null : amount * rate;
  }

  /** Each account's traded USD volume in (start, end]: every fill of the symbol, or of all with the global key. */
  #volumes(symbol: string, start: number, end: number): Map<number, number> {
    const rows = this.#db
      .prepare(
        `SELECT user_id AS userId, symbol, SUM(ABS(amount) * price) AS quoted FROM trades
         WHERE mts > ? AND mts <= ? ${symbol === RANKING_GLOBAL ? "" : "AND symbol = ?"}
         GROUP BY user_id, symbol`,
      )
      .all(...(symbol === RANKING_GLOBAL ? [start, end] : [start, end, symbol])) as {
      userId: number;
      symbol: string;
      quoted: number;
    }[];
    const out = new Map<number, number>();
    for (const r of rows) {
      const info = parseSymbol(r.symbol);
      // Paper trading's TEST pairs are not real volume: never on a board.
      if (!info || info.kind !== "trading" || info.paper) continue;
      const usd = this.#usd(fromUnits(r.quoted), info.quote);
      if (usd !== null) out.set(r.userId, (out.get(r.userId) ?? 0) + usd);
    }
    return out;
  }

  /** Each account's realized margin P/L in USD in (start, end], of one pair's positions or of all. */
  #profits(symbol: string, start: number, end: number): Map<number, number> {
    const rows = this.#db
      .prepare(
        `SELECT user_id AS userId, currency, amount, description FROM ledgers
         WHERE mts > ? AND mts <= ? AND wallet = 'margin' AND description LIKE 'Position #% P/L @ %'`,
      )
      .all(start, end) as { userId: number; currency: string; amount: number; description: string }[];
    const out = new Map<number, number>();
    for (const r of rows) {
      const pair = PL_DESCRIPTION.exec(r.description)?.[1];
      if (pair === undefined || (symbol !== RANKING_GLOBAL && `t${pair}` !== symbol)) continue;
      const pairInfo = parseSymbol(`t${pair}`);
      if (pairInfo?.kind === "trading" && pairInfo.paper) continue;
      const usd = this.#usd(fromUnits(r.amount), r.currency);
      if (usd !== null) out.set(r.userId, (out.get(r.userId) ?? 0) + usd);
    }
    return out;
  }

  /**
   * The public nickname of each of `userIds` that set one. A nickname two accounts chose is shown
   * for the account that opened first only, so no one can pose as another on a board.
   */
  #nicknames(userIds: readonly number[]): Map<number, string> {
    const out = new Map<number, string>();
    if (userIds.length === 0) return out;
    const rows = this.#db
      .prepare("SELECT id, settings FROM users WHERE settings LIKE '%leaderboard_nickname%' ORDER BY id")
      .all() as { id: number; settings: string }[];
    const wanted = new Set(userIds);
    const taken = new Set<string>();
    for (const r of rows) {
      let settings: unknown;
      try {
        settings = JSON.parse(r.settings);
      } catch {
        // Settings that do not parse hold no nickname: the account is not shown.
        continue;
      }
      if (typeof settings !== "object" || settings === null || Array.isArray(settings)) continue;
      const name = storedNickname(settings as Record<string, unknown>);
      if (name === null || taken.has(name.toLowerCase())) continue;
      taken.add(name.toLowerCase());
      if (wanted.has(r.id)) out.set(r.id, name);
    }
    return out;
  }
}
