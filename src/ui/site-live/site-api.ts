/**
 * The public pages' reads of the exchange's configuration (docs/protocol.md#site-figures): the fee
 * schedule with the pairs that differ from it, every deposit and withdrawal method's terms, and the
 * home page's figures and banner. Each answer is checked by its src/protocol decoder; a failed call
 * or a malformed answer is an error the page shows, never a guessed figure.
 */
import {
  decodeFeeEntry,
  decodeWebsiteStats,
  FEE_SCHEDULE_KEY,
  feeScheduleCodec,
  statsRowCodec,
  TX_METHODS_KEY,
  txMethodCodec,
  WEBSITE_STATS_KEY,
  type FeeEntry,
  type FeeSchedule,
  type StatsRow,
  type TxMethodTerms,
  type WebsiteStats,
} from "../../protocol";
import { apiUrl, appConfig } from "../config";

/** The pairs whose trading fees differ from the schedule's (the paper-trading pairs, say). */
const FEE_OVERRIDES_KEY = "pub:info:pair:fee:ovr";

async function getJson(path: string, signal?: AbortSignal): Promise<unknown> {
  const res = await fetch(apiUrl(appConfig().endpoints, path), { signal: signal ?? null });
  if (!res.ok) throw new Error(`${path}: HTTP ${res.status}`);
  return (await res.json()) as unknown;
}

/** `conf/KEY,KEY`: one value per key, in order. */
async function conf(keys: readonly string[], signal?: AbortSignal): Promise<unknown[]> {
  const body = await getJson(`/v2/conf/${keys.map(encodeURIComponent).join(",")}`, signal);
  if (!Array.isArray(body) || body.length !== keys.length) throw new Error("conf: unexpected answer");
  return body as unknown[];
}

export interface FeesData {
  readonly schedule: FeeSchedule;
  readonly overrides: readonly FeeEntry[];
}

export async function fetchFees(signal?: AbortSignal): Promise<FeesData> {
  const [schedule, overrides] = await conf([FEE_SCHEDULE_KEY, FEE_OVERRIDES_KEY], signal);
  const s = feeScheduleCodec.decode(schedule);
  if (!s.ok || !Array.isArray(overrides)) throw new Error("fees: malformed answer");
  const entries: FeeEntry[] = [];
  for (const raw of overrides) {
    const e = decodeFeeEntry(raw);
    if (!e.ok) throw new Error("fees: malformed override");
    entries.push(e.value);
  }
  return { schedule: s.value, overrides: entries };
}

export async function fetchTxMethods(signal?: AbortSignal): Promise<readonly TxMethodTerms[]> {
  const [raw] = await conf([TX_METHODS_KEY], signal);
  const rows = txMethodCodec.decodeList(raw);
  if (!rows.ok) throw new Error("tx methods: malformed answer");
  return rows.value;
}

export interface HomeBanner {
  readonly title: string;
  /** A path on this site. */
  readonly link: string;
}

export interface HomeFigures {
  readonly stats: WebsiteStats;
  /** Null when the exchange has no banner for the language. */
  readonly banner: HomeBanner | null;
}

/**
 * Only a path on this site: a banner must not send a visitor elsewhere. Resolved as a browser would,
 * so "//host", "/\\host" and control characters a browser drops cannot name another origin.
 */
function sameSitePath(link: string): boolean {
  const here = "https://site.invalid";
  return link.startsWith("/") && new URL(link, here).origin === here;
}

function decodeBanner(raw: unknown): HomeBanner | null {
  if (typeof raw !== "object" || raw === null) return null;
  const { title, link } = raw as Record<string, unknown>;
  if (typeof title !== "string" || title === "" || typeof link !== "string" || !sameSitePath(link)) return null;
  return { title, link };
}

export async function fetchHomeFigures(lang: string, signal?: AbortSignal): Promise<HomeFigures> {
  const [stats, banner] = await conf([WEBSITE_STATS_KEY, `pub:raw:banner:home:${lang}`], signal);
  const s = decodeWebsiteStats(stats);
  if (!s) throw new Error("website stats: malformed answer");
  return { stats: s, banner: decodeBanner(banner) };
}

/** The books a visitor can open: trading pairs (`BTCUSD`, `BTCF0:USTF0`) or funding currencies (`USD`). */
export async function fetchBookChoices(kind: "trading" | "funding", signal?: AbortSignal): Promise<readonly string[]> {
  const keys = kind === "trading" ? ["pub:list:pair:exchange", "pub:list:pair:futures"] : ["pub:list:currency:margin"];
  const lists = await conf(keys, signal);
  const out: string[] = [];
  for (const list of lists) {
    if (!Array.isArray(list) || !list.every((v): v is string => typeof v === "string")) {
      throw new Error("book list: malformed answer");
    }
    out.push(...list);
  }
  return out;
}

/** A `stats1` series, oldest first: the last `limit` hourly points. */
export async function fetchStatsSeries(key: string, limit: number, signal?: AbortSignal): Promise<readonly StatsRow[]> {
  const body = await getJson(`/v2/stats1/${encodeURIComponent(key)}/hist?limit=${limit}&sort=1`, signal);
  const rows = statsRowCodec.decodeList(body);
  if (!rows.ok) throw new Error("stats: malformed answer");
  return rows.value;
}
