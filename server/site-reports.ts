/**
 * Reports filed from the public site (docs/product-rules.md#site-reports): `POST
 * /v2/int/site/report` checks a report by src/protocol's rules and stores it for the support and
 * security teams, in one SQLite transaction; the answer is the receipt record `[REFERENCE, MTS]`.
 *
 * It is a public write, so: every field is checked for kind and length before anything is written,
 * text is stored as data (the staff tools show it as text, never as markup), and one client address
 * may send SITE_REPORTS_PER_WINDOW calls a window, refused ones included, so the form is no way to
 * fill the database or to probe the rules at speed (HTTP 429 beyond, as the newsletters' guest calls).
 * An IPv6 client counts by its /64 (one host is handed a whole /64), the count is one per database
 * (`siteReportsOf`: the public and the authenticated API hosts share it), and all addresses together
 * store at most SITE_REPORTS_STORED_PER_WINDOW reports a window.
 * No mail is sent to the address given: a form anyone can fill must not make the exchange write to
 * any address they type; the team answers from the stored report.
 */
import { randomBytes } from "node:crypto";
import {
  decodeSiteReport,
  ERROR_CODES,
  SITE_REPORT_PATH,
  SITE_REPORT_WINDOW_MS,
  SITE_REPORTS_PER_WINDOW,
  SITE_REPORTS_STORED_PER_WINDOW,
  siteReportReceiptCodec,
  siteReportRefusalText,
  type SiteReport,
} from "../src/protocol/index.ts";
import { fail, ok, type Reply } from "./reply.ts";
import type { Db } from "./store/db.ts";

const SCHEMA = `
CREATE TABLE IF NOT EXISTS site_reports (
  id INTEGER PRIMARY KEY,
  reference TEXT NOT NULL UNIQUE,
  kind TEXT NOT NULL,
  category TEXT NOT NULL,
  description TEXT NOT NULL,
  email TEXT NOT NULL,
  source TEXT NOT NULL,
  client_address TEXT,
  status TEXT NOT NULL DEFAULT 'received',
  created_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS site_reports_created ON site_reports (created_at)`;

/** Reference characters: no 0/O or 1/I, so a reference read out over the phone is not misheard. */
const REFERENCE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
const PREFIX: Readonly<Record<SiteReport["kind"], string>> = { problem: "RP", spam: "SP" };
const RATE_LIMITED: Reply = { status: 429, body: { error: "ERR_RATE_LIMIT" } };

/**
 * The key an address is counted by: an IPv6 address by its first 64 bits, anything else (IPv4, an
 * IPv4-mapped IPv6 address) as itself.
 */
export function clientKey(address: string | null): string {
  if (address === null) return "?";
  if (!address.includes(":") || /^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(address)) return address;
  const [head = "", tail = ""] = address.split("%")[0]!.split("::");
  const left = head === "" ? [] : head.split(":");
  const right = tail === "" ? [] : tail.split(":");
  const groups = address.includes("::")
    ? [...left, ...Array<string>(8 - left.length - right.length).fill("0"), ...right]
    : left;
  return `${groups
    .slice(0, 4)
    .map((g) => g.toLowerCase().replace(/^0+(?=.)/, ""))
    .join(":")}::/64`;
}

const byDb = new WeakMap<Db, SiteReports>();

/** The one SiteReports of a database, so every API host on it counts the same calls. */
export function siteReportsOf(db: Db, now: () => number): SiteReports {
  let r = byDb.get(db);
  if (!r) {
    r = new SiteReports(db, now);
    byDb.set(db, r);
  }
  return r;
}

export class SiteReports {
  /** Per client address, the times of its recent calls (pruned as they age out). */
  readonly #calls = new Map<string, number[]>();

  constructor(
    readonly db: Db,
    readonly now: () => number,
  ) {
    db.exec(SCHEMA);
  }

  #allow(address: string | null): boolean {
    const now = this.now();
    const since = now - SITE_REPORT_WINDOW_MS;
    // Dropping every address whose calls have all aged out keeps the map as small as the window's callers.
    for (const [key, times] of this.#calls) if ((times.at(-1) ?? 0) <= since) this.#calls.delete(key);
    const key = clientKey(address);
    const list = (this.#calls.get(key) ?? []).filter((t) => t > since);
    list.push(now);
    this.#calls.set(key, list);
    return list.length <= SITE_REPORTS_PER_WINDOW;
  }

  #storedInWindow(): number {
    const row = this.db
      .prepare("SELECT COUNT(*) AS n FROM site_reports WHERE created_at > ?")
      .get(this.now() - SITE_REPORT_WINDOW_MS) as { n: number };
    return row.n;
  }

  /** The public call; null for any other path. */
  handle(path: string, body: Readonly<Record<string, unknown>>, address: string | null): Reply | null {
    if (path !== SITE_REPORT_PATH) return null;
    if (!this.#allow(address) || this.#storedInWindow() >= SITE_REPORTS_STORED_PER_WINDOW) return RATE_LIMITED;
    const decoded = decodeSiteReport(body);
    if (!decoded.ok) return fail(ERROR_CODES.PARAMS, siteReportRefusalText(decoded.field, decoded.reason), 400);
    return this.store(decoded.value, address);
  }

  /** Stores a checked report: the receipt, or nothing written at all. */
  store(r: SiteReport, address: string | null): Reply {
    const db = this.db;
    return db.transaction((): Reply => {
      const mts = this.now();
      const reference = `${PREFIX[r.kind]}-${[...randomBytes(8)].map((b) => REFERENCE_ALPHABET[b % 32]).join("")}`;
      db.prepare(
        `INSERT INTO site_reports (reference, kind, category, description, email, source, client_address, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(reference, r.kind, r.category, r.description, r.email, r.source, address, mts);
      return ok(siteReportReceiptCodec.encode({ reference, mts }));
    })();
  }
}
