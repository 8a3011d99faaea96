/**
 * Mailed reports over real HTTP and SQLite (docs/product-rules.md#reports, docs/protocol.md#mailed-reports):
 * a report generated in slices is the live export's file over the same filters, mailed as a link
 * that only the account's own session opens, for 24 hours, any number of times; at most three
 * generate at once; bad input queues nothing; a report queued when the exchange stops is generated
 * after it starts again.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ERROR_CODES,
  REPORT_PATHS,
  REPORT_REFUSALS,
  REPORT_TTL_MS,
  reportQueuedCodec,
  reportRowCodec,
} from "../../src/protocol/index.ts";
import type { ApiServer } from "../api-server.ts";
import { listenApi, mailsTo, postJson } from "../test-support/api.ts";
import { signedPost } from "../test-support/session.ts";
import { reportsOf } from "./reports.ts";
import { openVenue } from "./venue.ts";

const START = Date.now();
let clock = START;
const venue = openVenue({
  dbPath: ":memory:",
  seed: 3,
  now: () => clock,
  markets: [{ symbol: "tBTCUSD", start: 30_000 }],
});
const { accounts, gateway } = venue;
const reports = reportsOf(gateway);
const HOUR = 60 * 60 * 1000;

let n = 0;
function account(): { id: number; email: string; token: string } {
  n += 1;
  const email = `report${n}@example.com`;
  const id = accounts.createUser(email, `report${n}`, "a-long-password-1", clock, true);
  return { id, email, token: accounts.issueToken(id, clock, 7 * 24 * HOUR) };
}

let api: ApiServer;
let base = "";
let host = "";
beforeAll(async () => {
  const started = await listenApi({ exchange: venue.exchange, account: gateway, now: () => clock });
  api = started.api;
  host = started.host;
  base = `http://${host}`;
});
afterAll(() => api.close());

const queuedCount = (userId: number): number =>
  (accounts.db.prepare("SELECT COUNT(*) AS n FROM reports WHERE user_id = ?").get(userId) as { n: number }).n;

/** Ticks until no queued work remains (each tick is one slice of the exchange's clock). */
function generateAll(): number {
  let ticks = 0;
  while (reports.tick()) ticks++;
  return ticks;
}

async function fetchText(path: string, body: unknown, token: string): Promise<Response> {
  return fetch(base + path, { method: "POST", headers: { "bfx-token": token }, body: JSON.stringify(body) });
}

/** The token in the newest "Your report is ready" mail to `email`. */
async function mailedToken(email: string): Promise<string> {
  const mail = (await mailsTo(base, email)).find((m) => m.subject === "Your report is ready");
  return /\/reports\/download\?token=([A-Za-z0-9_-]+)/.exec(mail?.body ?? "")?.[1] ?? "";
}

describe("mailed reports", () => {
  const owner = account();
  beforeAll(() => {
    // Enough rows for several export pages (500 each), some sharing a millisecond, one with a
    // description that needs quoting.
    for (let i = 0; i < 1_300; i++) {
      clock = 1_000_000 + Math.floor(i / 3) * 1000;
      gateway.funds.deposit(owner.id, i % 2 === 0 ? "USD" : "BTC", 1 + i / 100, `Deposit ${i}, "quoted"`);
    }
    clock = START;
  });

  it("generates in slices the live export's file, mails a link the owner's session downloads more than once", async () => {
    const filters = { start: 1_100_000, end: 1_400_000_000 };
    const [status, body] = await postJson(base + REPORT_PATHS.generate, { kind: "ledgers", filters }, owner.token);
    expect(status, JSON.stringify(body)).toBe(200);
    const queued = reportQueuedCodec.decode(body);
    expect(queued.ok && queued.value.status).toBe("QUEUED");
    // Nothing is mailed before the file exists.
    expect(await mailedToken(owner.email)).toBe("");
    // One SQLite page (500 rows) a tick: the header, two full pages and the last, then the end.
    reports.sliceMs = 0;
    expect(generateAll()).toBe(4);
    reports.sliceMs = 20;
    const token = await mailedToken(owner.email);
    expect(token.length).toBeGreaterThan(20);
    // Only the link's hash is stored.
    const stored = accounts.db.prepare("SELECT token_hash FROM reports WHERE user_id = ?").get(owner.id) as {
      token_hash: string;
    };
    expect(stored.token_hash).not.toContain(token);

    const live = await fetchText("/v2/auth/r/ledgers/export", filters, owner.token);
    const liveText = await live.text();
    for (let i = 0; i < 2; i++) {
      const res = await fetchText(REPORT_PATHS.download, { token }, owner.token);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe(live.headers.get("content-type"));
      expect(res.headers.get("content-disposition")).toBe(live.headers.get("content-disposition"));
      expect(await res.text()).toBe(liveText);
    }
    // From the account's own list, by id: the same file, for the owner only.
    const id = queued.ok ? queued.value.id : 0;
    expect(await (await fetchText(REPORT_PATHS.download, { id }, owner.token)).text()).toBe(liveText);
    expect((await postJson(base + REPORT_PATHS.download, { id }, account().token))[0]).toBe(400);
    const rows = liveText.split("\r\n").filter((l) => /^\d+,/.test(l)).length;
    expect(rows).toBe(1_000);

    const [, list] = await postJson(base + REPORT_PATHS.list, {}, owner.token);
    const decoded = reportRowCodec.decodeList(list);
    expect(decoded.ok).toBe(true);
    if (!decoded.ok) return;
    expect(decoded.value[0]).toMatchObject({
      kind: "ledgers",
      status: "READY",
      rows,
      start: 1_100_000,
      end: 1_400_000_000,
      expires: clock + REPORT_TTL_MS,
    });
  });

  it("refuses the link to another account's session, to an API key, and once expired", async () => {
    const other = account();
    const token = await mailedToken(owner.email);
    const refusal = ["error", ERROR_CODES.PARAMS, REPORT_REFUSALS.link];
    expect(await postJson(base + REPORT_PATHS.download, { token }, other.token)).toEqual([400, refusal]);
    const key = accounts.createApiKey(owner.id, "reports", ["a", "w"], clock);
    const [status, body] = await signedPost(host, key, REPORT_PATHS.download, { token });
    expect([status, body]).toEqual([400, ["error", ERROR_CODES.PARAMS, REPORT_REFUSALS.session]]);

    clock += REPORT_TTL_MS;
    reports.tick();
    expect(await postJson(base + REPORT_PATHS.download, { token }, owner.token)).toEqual([400, refusal]);
    const [, list] = await postJson(base + REPORT_PATHS.list, {}, owner.token);
    expect((list as unknown[][])[0]?.[5]).toBe("EXPIRED");
    const file = accounts.db.prepare("SELECT csv FROM reports WHERE user_id = ?").get(owner.id) as { csv: unknown };
    expect(file.csv).toBeNull();
    clock = START;
  });

  it("generates at most three at once per account, and refuses bad input without queueing", async () => {
    const a = account();
    for (let i = 0; i < 3; i++)
      expect((await postJson(base + REPORT_PATHS.generate, { kind: "trades", filters: {} }, a.token))[0]).toBe(200);
    expect(await postJson(base + REPORT_PATHS.generate, { kind: "orders" }, a.token)).toEqual([
      400,
      ["error", ERROR_CODES.PARAMS, REPORT_REFUSALS.tooMany],
    ]);
    expect(queuedCount(a.id)).toBe(3);
    // Another account is not held up by this one's.
    const b = account();
    const bad: [unknown, string][] = [
      [{ kind: "balances" }, REPORT_REFUSALS.kind],
      [{ kind: "ledgers", filters: { start: "yesterday" } }, "start: invalid"],
      [{ kind: "ledgers", filters: { start: 5, end: 4 } }, "start: must not be after end"],
      [{ kind: "ledgers", filters: { category: 7777 } }, "category: invalid"],
      [{ kind: "ledgers", symbol: "usd; DROP" }, REPORT_REFUSALS.symbol],
      [{ kind: "orders", filters: [1] }, "filters: invalid"],
    ];
    for (const [body, message] of bad)
      expect(await postJson(base + REPORT_PATHS.generate, body, b.token)).toEqual([
        400,
        ["error", ERROR_CODES.PARAMS, message],
      ]);
    expect(queuedCount(b.id)).toBe(0);
    expect((await postJson(base + REPORT_PATHS.generate, { kind: "positions" }, b.token))[0]).toBe(200);
    generateAll();
    // Once generated, more may be asked for.
    expect((await postJson(base + REPORT_PATHS.generate, { kind: "funding-offers" }, a.token))[0]).toBe(200);
    generateAll();
  });
});

describe("a restart", () => {
  const dir = mkdtempSync(join(tmpdir(), "reports-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("generates a report still queued when the exchange stopped", async () => {
    const path = join(dir, "exchange.db");
    const first = openVenue({
      dbPath: path,
      seed: 3,
      now: () => clock,
      markets: [{ symbol: "tBTCUSD", start: 30_000 }],
    });
    const id = first.accounts.createUser("restart@example.com", "restartuser", "a-long-password-1", clock, true);
    first.funds.deposit(id, "USD", 12, "Deposit before the restart");
    const token = first.accounts.issueToken(id, clock, HOUR);
    const started = await listenApi({ exchange: first.exchange, account: first.gateway, now: () => clock });
    const [status] = await postJson(`http://${started.host}${REPORT_PATHS.generate}`, { kind: "ledgers" }, token);
    expect(status).toBe(200);
    await started.api.close();
    first.db.close();

    const second = openVenue({
      dbPath: path,
      seed: 3,
      now: () => clock,
      markets: [{ symbol: "tBTCUSD", start: 30_000 }],
    });
    const again = reportsOf(second.gateway);
    while (again.tick());
    const row = second.db.prepare("SELECT status, rows FROM reports WHERE user_id = ?").get(id) as {
      status: string;
      rows: number;
    };
    expect(row).toEqual({ status: "READY", rows: 1 });
    const mail = second.db
      .prepare("SELECT body FROM outbox WHERE recipient = ? AND subject = ?")
      .get("restart@example.com", "Your report is ready") as { body: string } | undefined;
    expect(mail?.body).toMatch(/\/reports\/download\?token=/);
    second.db.close();
  });
});
