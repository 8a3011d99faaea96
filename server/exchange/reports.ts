/**
 * Mailed reports (docs/product-rules.md#reports, wire in docs/protocol.md#mailed-reports): a live
 * CSV export (ledger-history.ts, order-history.ts, position-history.ts, funding-history.ts) run by
 * the exchange in the background instead of in the page, for ranges too large to wait for.
 *
 * - `w/int/reports/generate` checks the kind and filters exactly as the live export does (a refusal
 *   queues nothing) and stores the request `QUEUED`; at most `REPORTS_GENERATING_MAX` per account.
 * - `tick` (the host's timer) walks the oldest queued report's export a few SQLite pages at a time
 *   within a small time budget, so the event loop is never held for long. When it ends, the file,
 *   `READY`, its link's SHA-256 and the "Your report is ready" mail are written in one transaction.
 *   The walk lives in memory only: a report still `QUEUED` after a restart is walked again from the
 *   start, so it is generated all the same.
 * - The link (`/reports/download?token=…`) works for 24 hours from the request, any number of times,
 *   and only for the account's own signed-in session: never for an API key or a token limited to
 *   capabilities (the live export in the page refuses those too). Past its life the file is deleted
 *   and the report reads `EXPIRED`.
 */
import { createHash, randomBytes } from "node:crypto";
import { performance } from "node:perf_hooks";
import {
  ERROR_CODES,
  isReportKind,
  parseLedgerQuery,
  parseRangeQuery,
  REPORT_DOWNLOAD_PAGE,
  REPORT_MAX_BYTES,
  REPORT_PATHS,
  REPORT_REFUSALS,
  REPORT_TTL_MS,
  reportQueuedCodec,
  reportRowCodec,
  REPORTS_GENERATING_MAX,
  type ReportKind,
  type ReportStatus,
} from "../../src/protocol/index.ts";
import type { AuthCheck } from "../store/accounts.ts";
import type { Db } from "../store/db.ts";
import { sendMail } from "../mail.ts";
import { logError } from "../log.ts";
import { fail, ok, type Reply } from "../reply.ts";
import type { AccountGateway } from "./account-gateway.ts";
import { fundingRest } from "./funding-api.ts";
import { StreamedBody } from "./history-pages.ts";
import { ledgerCsv } from "./ledger-history.ts";
import { ordersRest } from "./orders-api.ts";
import { positionsCsv } from "./position-history.ts";

const { PARAMS } = ERROR_CODES;
const R = REPORT_REFUSALS;

const digest = (token: string): string => createHash("sha256").update(token).digest("hex");

/** The currency (ledgers), trading pair or funding symbol a kind may be narrowed to. */
const SYMBOL_OF: Record<ReportKind, RegExp> = {
  ledgers: /^[A-Z0-9:]{2,16}$/,
  orders: /^t[A-Z0-9:]{2,20}$/,
  trades: /^t[A-Z0-9:]{2,20}$/,
  positions: /^t[A-Z0-9:]{2,20}$/,
  "funding-offers": /^f[A-Z0-9]{2,16}$/,
  "funding-credits": /^f[A-Z0-9]{2,16}$/,
  "funding-loans": /^f[A-Z0-9]{2,16}$/,
  "funding-trades": /^f[A-Z0-9]{2,16}$/,
};

interface ReportDbRow {
  readonly id: number;
  readonly user_id: number;
  readonly kind: ReportKind;
  readonly symbol: string | null;
  readonly filters: string;
  readonly range_start: number | null;
  readonly range_end: number | null;
  readonly status: ReportStatus;
  readonly rows: number | null;
  readonly created: number;
  readonly expires: number;
}

/** A report being walked: its export's chunks so far. */
interface Walk {
  readonly id: number;
  readonly chunks: Iterator<string>;
  readonly body: StreamedBody;
  readonly parts: string[];
  bytes: number;
  records: number;
}

export class Reports {
  #walk: Walk | null = null;
  /** How long one tick may walk exports before giving the event loop back (one chunk at least). */
  sliceMs = 20;

  constructor(
    readonly gate: AccountGateway,
    readonly now: () => number,
  ) {
    gate.accounts.db.exec(`
CREATE TABLE IF NOT EXISTS reports (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id INTEGER NOT NULL,
  kind TEXT NOT NULL,
  symbol TEXT,
  filters TEXT NOT NULL,
  range_start INTEGER,
  range_end INTEGER,
  status TEXT NOT NULL,
  rows INTEGER,
  filename TEXT,
  csv BLOB,
  token_hash TEXT,
  created INTEGER NOT NULL,
  expires INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS reports_user ON reports (user_id, id DESC);
CREATE INDEX IF NOT EXISTS reports_token ON reports (token_hash) WHERE token_hash IS NOT NULL;`);
  }

  get db(): Db {
    return this.gate.accounts.db;
  }

  /** The report calls; null for any other path. */
  handle(auth: Extract<AuthCheck, { ok: true }>, path: string, body: Record<string, unknown>): Reply | null {
    switch (path) {
      case REPORT_PATHS.generate:
        return this.#generate(auth.userId, body);
      case REPORT_PATHS.list:
        return ok(this.#list(auth.userId));
      case REPORT_PATHS.download:
        return this.#download(auth, body);
      default:
        return null;
    }
  }

  /**
   * The export a report walks: the live export's own builder over the same filters, so the file is
   * what the page's "Export CSV" would have collected. A refusal is the live export's message.
   */
  exportOf(userId: number, kind: ReportKind, symbol: string | null, filters: Record<string, unknown>): Reply {
    const now = this.now();
    const gate = this.gate;
    const suffix = symbol === null ? "" : `/${symbol}`;
    switch (kind) {
      case "ledgers": {
        const q = parseLedgerQuery(filters, null);
        if (!q.ok) return fail(PARAMS, q.message, 400);
        return ok(ledgerCsv(gate.balances.db, userId, symbol, q.query, now));
      }
      case "positions": {
        const q = parseRangeQuery(filters, null);
        if (!q.ok) return fail(PARAMS, q.message, 400);
        return ok(positionsCsv(gate.balances.db, userId, symbol, q.query, now));
      }
      case "orders":
      case "trades":
        return (
          ordersRest(gate.orders, userId, `/v2/auth/r/${kind}${suffix}/export`, filters, now) ??
          fail(PARAMS, R.kind, 400)
        );
      default: {
        const what = kind.slice("funding-".length);
        return (
          fundingRest(gate, userId, `/v2/auth/r/funding/${what}${suffix}/export`, filters) ?? fail(PARAMS, R.kind, 400)
        );
      }
    }
  }

  #generate(userId: number, body: Record<string, unknown>): Reply {
    const kind = body["kind"];
    if (!isReportKind(kind)) return fail(PARAMS, R.kind, 400);
    const rawSymbol = body["symbol"];
    const symbol = rawSymbol === undefined || rawSymbol === null ? null : rawSymbol;
    if (symbol !== null && (typeof symbol !== "string" || !SYMBOL_OF[kind].test(symbol)))
      return fail(PARAMS, R.symbol, 400);
    const rawFilters = body["filters"] ?? {};
    if (typeof rawFilters !== "object" || rawFilters === null || Array.isArray(rawFilters))
      return fail(PARAMS, "filters: invalid", 400);
    // Only what an export reads is kept: no cursor and no page size (an export has neither).
    const { end_id: _endId, limit: _limit, ...filters } = rawFilters as Record<string, unknown>;
    // Checked by building the export (lazy: nothing is read until it is walked).
    const check = this.exportOf(userId, kind, symbol, filters);
    if (!(check.body instanceof StreamedBody)) return check;
    const now = this.now();
    const range = parseRangeQuery(filters, null);
    const start = range.ok ? range.query.start : null;
    const end = range.ok ? range.query.end : null;
    // The count and the insert in one transaction: two requests at once cannot both pass the limit.
    const queued = this.db.transaction((): number | null => {
      const generating = (
        this.db.prepare("SELECT COUNT(*) AS n FROM reports WHERE user_id = ? AND status = 'QUEUED'").get(userId) as {
          n: number;
        }
      ).n;
      if (generating >= REPORTS_GENERATING_MAX) return null;
      return Number(
        this.db
          .prepare(
            `INSERT INTO reports (user_id, kind, symbol, filters, range_start, range_end, status, created, expires)
             VALUES (?, ?, ?, ?, ?, ?, 'QUEUED', ?, ?)`,
          )
          .run(userId, kind, symbol, JSON.stringify(filters), start, end, now, now + REPORT_TTL_MS).lastInsertRowid,
      );
    })();
    if (queued === null) return fail(PARAMS, R.tooMany, 400);
    return ok(reportQueuedCodec.encode({ id: queued, status: "QUEUED" }));
  }

  #list(userId: number): unknown[][] {
    const now = this.now();
    const rows = this.db
      .prepare(
        "SELECT id, user_id, kind, symbol, filters, range_start, range_end, status, rows, created, expires FROM reports WHERE user_id = ? ORDER BY id DESC LIMIT 100",
      )
      .all(userId) as ReportDbRow[];
    return rows.map((r) =>
      reportRowCodec.encode({
        id: r.id,
        kind: r.kind,
        symbol: r.symbol,
        start: r.range_start,
        end: r.range_end,
        // A file past its life reads expired at once, whether or not a tick has deleted it yet.
        status: r.status === "READY" && r.expires <= now ? "EXPIRED" : r.status,
        rows: r.rows,
        created: r.created,
        expires: r.expires,
      }),
    );
  }

  #download(auth: Extract<AuthCheck, { ok: true }>, body: Record<string, unknown>): Reply {
    // A session's page is needed: a key (or a token limited to capabilities) cannot open a link.
    // Refused as a bad parameter, not 10100: that code would end the web session that asked.
    if (auth.keyId !== undefined || auth.caps !== undefined) return fail(PARAMS, R.session, 400);
    // By the mailed link's token, or by id from the account's own list ("Your reports").
    const token = body["token"];
    const id = body["id"];
    let where: readonly [string, string | number];
    if (typeof token === "string" && token.length >= 16 && token.length <= 128)
      where = ["token_hash = ?", digest(token)];
    else if (token === undefined && typeof id === "number" && Number.isSafeInteger(id)) where = ["id = ?", id];
    else return fail(PARAMS, R.link, 400);
    const row = this.db
      .prepare(
        `SELECT filename, csv FROM reports WHERE ${where[0]} AND user_id = ? AND status = 'READY' AND expires > ?`,
      )
      .get(where[1], auth.userId, this.now()) as { filename: string; csv: Buffer } | undefined;
    // Another account's link reads like a wrong one: it tells nothing of whose it is.
    if (!row) return fail(PARAMS, R.link, 400);
    const csv = row.csv;
    return ok(
      new StreamedBody("text/csv; charset=utf-8", row.filename, function* () {
        for (let at = 0; at < csv.length; at += 65_536) yield csv.subarray(at, at + 65_536).toString("utf8");
      }),
    );
  }

  /**
   * One slice of background work: expires old files, then walks the oldest queued report for at
   * most `sliceMs`. Returns whether queued work remains (the tests tick until it is false).
   */
  tick(): boolean {
    const now = this.now();
    this.db
      .prepare(
        "UPDATE reports SET status = 'EXPIRED', csv = NULL, token_hash = NULL WHERE status = 'READY' AND expires <= ?",
      )
      .run(now);
    // A queued report past its life is no use to anyone any more.
    this.db.prepare("UPDATE reports SET status = 'FAILED' WHERE status = 'QUEUED' AND expires <= ?").run(now);
    const began = performance.now();
    do {
      const walk = this.#walk ?? this.#begin();
      if (!walk) return false;
      try {
        const next = walk.chunks.next();
        if (next.done) {
          this.#finish(walk);
          continue;
        }
        walk.parts.push(next.value);
        walk.bytes += Buffer.byteLength(next.value);
        walk.records += countRecords(next.value);
        if (walk.bytes > REPORT_MAX_BYTES) this.#fail(walk.id, "too large");
      } catch (e) {
        logError("reports: generate", e);
        this.#fail(walk.id, "failed");
      }
    } while (performance.now() - began < this.sliceMs);
    return true;
  }

  /** Starts walking the oldest queued report (from its start: walks are never stored). */
  #begin(): Walk | null {
    const r = this.db.prepare("SELECT * FROM reports WHERE status = 'QUEUED' ORDER BY id LIMIT 1").get() as
      ReportDbRow | undefined;
    if (!r) return null;
    const reply = this.exportOf(r.user_id, r.kind, r.symbol, JSON.parse(r.filters) as Record<string, unknown>);
    if (!(reply.body instanceof StreamedBody)) {
      // Checked when asked for; only a rule changed since then could refuse it now.
      this.#fail(r.id, "refused");
      return this.#begin();
    }
    this.#walk = { id: r.id, chunks: reply.body.chunks(), body: reply.body, parts: [], bytes: 0, records: 0 };
    return this.#walk;
  }

  #fail(id: number, why: string): void {
    this.#walk = null;
    this.db.prepare("UPDATE reports SET status = 'FAILED' WHERE id = ? AND status = 'QUEUED'").run(id);
    logError("reports", new Error(`report ${id}: ${why}`));
  }

  /** The file, READY, the link's hash and the mail: one transaction. */
  #finish(walk: Walk): void {
    this.#walk = null;
    const now = this.now();
    const token = randomBytes(24).toString("base64url");
    this.db.transaction(() => {
      const r = this.db.prepare("SELECT * FROM reports WHERE id = ? AND status = 'QUEUED'").get(walk.id) as
        ReportDbRow | undefined;
      if (!r) return;
      const user = this.gate.accounts.byId(r.user_id);
      this.db
        .prepare("UPDATE reports SET status = 'READY', rows = ?, filename = ?, csv = ?, token_hash = ? WHERE id = ?")
        .run(
          Math.max(0, walk.records - 1),
          walk.body.filename,
          Buffer.from(walk.parts.join(""), "utf8"),
          digest(token),
          r.id,
        );
      if (user)
        sendMail(
          this.db,
          user.email,
          "Your report is ready",
          `Your ${r.kind} report (${Math.max(0, walk.records - 1)} rows) is ready. Sign in and open ` +
            `${REPORT_DOWNLOAD_PAGE}?token=${token} to download it. The link works until ` +
            `${new Date(r.expires).toISOString().replace("T", " ").slice(0, 16)} UTC, only for your own account.`,
          now,
        );
    })();
  }
}

/** CSV records ending in `text` (CRLFs outside quotes; a quoted field may hold line breaks). */
function countRecords(text: string): number {
  let n = 0;
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) quoted = !quoted;
    else if (!quoted && c === 13 && text.charCodeAt(i + 1) === 10) n++;
  }
  return n;
}

const instances = new WeakMap<AccountGateway, Reports>();

/** The gateway's reports (one per gateway: the walk under way is its state). */
export function reportsOf(gate: AccountGateway): Reports {
  let r = instances.get(gate);
  if (!r) {
    r = new Reports(gate, gate.now);
    instances.set(gate, r);
  }
  return r;
}
