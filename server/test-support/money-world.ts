/**
 * For the money property tests (server/exchange/money-property.test.ts): the test accounts and the
 * exchange they reach over HTTP only, the calls (a session token, or an API key's signature), the
 * journal of what the exchange acknowledged, and the reads the checks make. The operations are
 * money-ops.ts, the checks money-checks.ts.
 */
import { createHmac } from "node:crypto";
import type { Venue } from "../exchange/venue.ts";
import {
  authTradeCodec,
  ledgerCodec,
  ledgerReconciliationCodec,
  movementRowCodec,
  notificationCodec,
  orderCodec,
  walletCodec,
  type AuthTrade,
  type LedgerEntry,
  type LedgerReconciliation,
  type MovementRow,
  type Order,
  type Wallet,
} from "../../src/protocol/index.ts";

export type Random = () => number;

export interface ApiKey {
  readonly key: string;
  readonly secret: string;
}

export interface MoneyAccount {
  readonly id: number;
  readonly name: string;
  /** A session token (every capability): calls that may run concurrently use it. */
  readonly token: string;
  /**
   * API keys with order, wallet and withdraw permissions. A key's nonces must rise, so concurrent
   * signed calls each take their own.
   */
  readonly keys: readonly ApiKey[];
  /** A sub-account's master, else null. */
  readonly master: number | null;
}

/** A trading pair the accounts trade, at prices strictly inside the frozen simulator's spread. */
export interface MoneyMarket {
  readonly symbol: string;
  readonly base: string;
  readonly quote: string;
  readonly prices: readonly number[];
}

export interface MoneyHost {
  /** `http://host:port` of the public API (login, /dev, market data) and of the authenticated one. */
  readonly base: string;
  readonly authBase: string;
  /**
   * Resolves once every deposit sent so far has had its confirmations (and so is credited, unless
   * below its minimum).
   */
  settleDeposits(): Promise<void>;
  /** Resolves once every confirmed withdrawal sent so far has gone through PROCESSING to COMPLETED. */
  settleWithdrawals(): Promise<void>;
  /**
   * Moves the exchange's clock on by an hour (unconfirmed withdrawals expire); absent where the clock
   * is the process's own.
   */
  readonly passHour?: () => Promise<void>;
}

export interface AckedDeposit {
  readonly account: number;
  readonly id: number;
  readonly currency: string;
  readonly units: number;
  /** Recorded below the method's minimum: never credited. */
  readonly below: boolean;
  /** Seen COMPLETED in a reply. */
  credited: boolean;
  readonly method: string;
  /**
   * The destination it was sent to, and the chain transaction id it named (null: the exchange made one
   * up).
   */
  readonly address: string;
  readonly txId: string | null;
}

export interface AckedTransfer {
  readonly account: MoneyAccount;
  readonly body: Readonly<Record<string, unknown>>;
  readonly reply: unknown;
}

export interface AckedOrder {
  readonly account: number;
  readonly id: number;
  readonly symbol: string;
  /** Units executed as of the last reply about it. */
  executed: number;
  /** A cancellation of it was acknowledged. */
  canceled: boolean;
}

export interface AckedWithdrawal {
  readonly account: number;
  readonly id: number;
  readonly currency: string;
  /** What left the wallet: the amount asked for, fee included. */
  readonly units: number;
  /** The status as last acknowledged (request, confirmation, cancel, or read). */
  status: string;
  /** A confirmation of it was acknowledged. */
  confirmed: boolean;
  /** A cancellation of it was acknowledged. */
  canceled: boolean;
}

export interface AckedConversion {
  readonly account: MoneyAccount;
  readonly quote: string;
  readonly from: string;
  readonly to: string;
  readonly amount: number;
  readonly receive: number;
  readonly reply: unknown;
}

interface SignedRequest {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly raw: string;
}

/**
 * What the exchange acknowledged: only a reply received counts (an operation cut by a kill did, or did
 * not, happen).
 */
export class Journal {
  readonly deposits = new Map<number, AckedDeposit>();
  readonly transfers: AckedTransfer[] = [];
  readonly orders = new Map<number, AckedOrder>();
  readonly withdrawals = new Map<number, AckedWithdrawal>();
  readonly conversions: AckedConversion[] = [];
  /** Confirmation links read from the mails: token → withdrawal id (-1: not a live link). */
  readonly links = new Map<string, number>();
  /** The last signed request sent, for replaying it byte for byte. */
  lastSigned: SignedRequest | null = null;
  /** Outcomes per operation, for the test's report (and to see that the stream did what it should). */
  readonly outcomes = new Map<string, number>();
  count(what: string): void {
    this.outcomes.set(what, (this.outcomes.get(what) ?? 0) + 1);
  }
}

export interface MoneyWorld {
  readonly host: MoneyHost;
  readonly accounts: readonly MoneyAccount[];
  readonly markets: readonly MoneyMarket[];
  readonly journal: Journal;
  /** What an operation found wrong on the spot (a repeat that moved money, an overdraw accepted). */
  readonly problems: string[];
  /** Deposit destinations already issued, by `account:method:wallet`. */
  readonly destinations: Map<string, string>;
}

export function moneyWorld(
  host: MoneyHost,
  accounts: readonly MoneyAccount[],
  markets: readonly MoneyMarket[],
): MoneyWorld {
  return { host, accounts, markets, journal: new Journal(), problems: [], destinations: new Map() };
}

/**
 * `count` accounts at verification level 2 (deposits and withdrawals allowed), the first with one
 * sub-account (which makes one more), each with a long-lived session token and four API keys
 * (orders, wallets, withdrawals: a key needs no second factor to withdraw). Written straight into
 * the exchange's database before it serves: signing up through the API would test sign-up, not
 * money.
 */
export function createMoneyAccounts(v: Pick<Venue, "accounts" | "db">, count: number, now: number): MoneyAccount[] {
  const open = (name: string, master: number | null): MoneyAccount => {
    const id = v.accounts.createUser(`${name}@example.com`, name, "pw-money-property-1", now, true);
    if (master !== null) {
      v.db
        .prepare(
          "INSERT INTO subaccounts (user_id, master_id, type, read_only, created_at) VALUES (?, ?, 'trading', 0, ?)",
        )
        .run(id, master, now);
      v.db.prepare("INSERT OR IGNORE INTO subaccount_groups (master_id) VALUES (?)").run(master);
    }
    // Half the accounts confirm their withdrawals by the mailed link, the other half turned the check off.
    if (id % 2 === 1)
      v.db
        .prepare("INSERT INTO security_settings (user_id, name, value) VALUES (?, 'no_enforce_withdrawal_check', '1')")
        .run(id);
    const token = v.accounts.issueToken(id, now, 12 * 3_600_000);
    const keys = [0, 1, 2, 3].map((k) => v.accounts.createApiKey(id, `money ${k}`, ["o", "w", "wd", "a"], now));
    return { id, name, token, keys, master };
  };
  const accounts = Array.from({ length: count }, (_, i) => open(`money${i}`, null));
  const first = accounts[0];
  if (first) accounts.push(open("money0sub", first.id));
  return accounts;
}

/**
 * The markets the accounts trade, each with the prices strictly between the simulator's best bid
 * and best ask (five significant digits, the exchange's price precision), at most `count` of
 * them around the middle. Read before any test order rests, so the touch is the simulator's own.
 */
export async function moneyMarkets(base: string, symbols: readonly string[], count = 12): Promise<MoneyMarket[]> {
  const out: MoneyMarket[] = [];
  for (const symbol of symbols) {
    const t: unknown = await (await fetch(`${base}/v2/ticker/${symbol}`)).json();
    const row: readonly unknown[] = Array.isArray(t) ? t : [];
    const [bid, , ask] = row;
    if (typeof bid !== "number" || typeof ask !== "number") throw new Error(`${symbol} ticker: ${JSON.stringify(t)}`);
    const tick = 10 ** (Math.floor(Math.log10(bid)) - 4);
    const inside: number[] = [];
    for (let k = 1; bid + k * tick < ask - tick / 2; k++) inside.push(Number((bid + k * tick).toPrecision(5)));
    const from = Math.max(0, Math.floor((inside.length - count) / 2));
    const [b, q] = pairOf(symbol);
    out.push({ symbol, base: b, quote: q, prices: inside.filter((p) => p > bid && p < ask).slice(from, from + count) });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Calls

export interface Reply {
  readonly status: number;
  readonly body: unknown;
}

/** Nonces for the signed calls: strictly increasing across every key of the process. */
let nonce = Date.now() * 1000;

/** `"token"`: the session token; a number: that API key, signed as the real API wants it. */
export type Via = "token" | number;

export async function call(
  w: MoneyWorld,
  a: MoneyAccount,
  path: string,
  body: Readonly<Record<string, unknown>> = {},
  via: Via = "token",
): Promise<Reply> {
  const raw = JSON.stringify(body);
  const url = `${w.host.authBase}${path}`;
  let headers: Record<string, string>;
  if (via === "token") headers = { "content-type": "application/json", "bfx-token": a.token };
  else {
    const key = a.keys[via] as ApiKey;
    const n = String(++nonce);
    headers = {
      "content-type": "application/json",
      "bfx-nonce": n,
      "bfx-apikey": key.key,
      "bfx-signature": createHmac("sha384", key.secret).update(`/api${path}${n}${raw}`).digest("hex"),
    };
  }
  const reply = await send(url, headers, raw);
  // Kept once answered: a request a kill cut may never have reached the exchange, and then sending
  // it again is its first time, not a replay.
  if (via !== "token") w.journal.lastSigned = { url, headers, raw };
  return reply;
}

export async function send(url: string, headers: Readonly<Record<string, string>>, raw: string): Promise<Reply> {
  const res = await fetch(url, { method: "POST", headers, body: raw });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // kept as text: the check that reads it reports it
  }
  return { status: res.status, body };
}

/** The data of a SUCCESS notification, or null for a refusal (an `error` reply or an ERROR notification). */
export function succeeded(r: Reply): unknown {
  if (r.status !== 200) return null;
  const n = notificationCodec.decode(r.body);
  return n.ok && n.value.status === "SUCCESS" ? (n.value.data ?? null) : null;
}

export const units = (x: number): number => Math.round(x * 1e8);
export const pick = <T>(r: Random, list: readonly T[]): T => list[Math.floor(r() * list.length)] as T;
export const requestId = (r: Random): string =>
  `mp${Math.floor(r() * 2 ** 48).toString(36)}${Math.floor(r() * 2 ** 30)}`;

export function decoded<T>(what: string, d: { ok: true; value: T } | { ok: false; error: unknown }): T {
  if (!d.ok) throw new Error(`${what} does not decode: ${JSON.stringify(d.error)}`);
  return d.value;
}

export async function walletsOf(w: MoneyWorld, a: MoneyAccount): Promise<Wallet[]> {
  return decoded("wallets", walletCodec.decodeList((await call(w, a, "/v2/auth/r/wallets")).body));
}

/** Every row of a keyset-paged history (`end` + `end_id`, docs/protocol.md#ledger-history), newest first. */
export async function allPages(
  w: MoneyWorld,
  a: MoneyAccount,
  path: string,
  cursor: (row: unknown[]) => [mts: number, id: number],
): Promise<unknown[][]> {
  const out: unknown[][] = [];
  let body: Record<string, unknown> = { limit: 2500 };
  for (;;) {
    const r = await call(w, a, path, body);
    if (r.status !== 200 || !Array.isArray(r.body)) throw new Error(`${path}: ${r.status} ${JSON.stringify(r.body)}`);
    const rows = r.body as unknown[][];
    out.push(...rows);
    const last = rows[rows.length - 1];
    if (rows.length < 2500 || !last) return out;
    const [end, endId] = cursor(last);
    body = { limit: 2500, end, end_id: endId };
  }
}

/** Everything the checks read of one account. */
export interface AccountBooks {
  readonly account: MoneyAccount;
  readonly wallets: Wallet[];
  readonly ledgers: LedgerEntry[];
  readonly reconcile: LedgerReconciliation[];
  readonly movements: MovementRow[];
  readonly trades: AuthTrade[];
  readonly open: Order[];
}

export async function readBooks(w: MoneyWorld, a: MoneyAccount): Promise<AccountBooks> {
  const [wallets, ledgerRows, reconcile, movements, tradeRows, open] = await Promise.all([
    walletsOf(w, a),
    allPages(w, a, "/v2/auth/r/ledgers/hist", (l) => [l[3] as number, l[0] as number]),
    call(w, a, "/v2/auth/r/ledgers/reconcile"),
    call(w, a, "/v2/auth/r/movements/hist", { limit: 1000 }),
    allPages(w, a, "/v2/auth/r/trades/hist", (t) => [t[2] as number, t[0] as number]),
    call(w, a, "/v2/auth/r/orders"),
  ]);
  return {
    account: a,
    wallets,
    ledgers: decoded("ledgers", ledgerCodec.decodeList(ledgerRows)),
    reconcile: decoded("reconciliation", ledgerReconciliationCodec.decodeList(reconcile.body)),
    movements: decoded("movements", movementRowCodec.decodeList(movements.body)),
    trades: decoded("trades", authTradeCodec.decodeList(tradeRows)),
    open: decoded("open orders", orderCodec.decodeList(open.body)),
  };
}

/** A `POST /dev/deposit`: a deposit arriving (the development endpoints need their header). */
export async function sendDeposit(w: MoneyWorld, body: Record<string, unknown>): Promise<Reply> {
  return send(`${w.host.base}/dev/deposit`, { "x-orderflow-dev": "1" }, JSON.stringify(body));
}

/** A trading symbol's base and quote currencies. */
export function pairOf(symbol: string): [string, string] {
  const s = symbol.slice(1);
  const [base, quote] = s.includes(":") ? s.split(":") : [s.slice(0, 3), s.slice(3)];
  return [base ?? "", quote ?? ""];
}
