/**
 * Reports from the public site over HTTP against SQLite (site-reports.ts,
 * docs/product-rules.md#site-reports): every refusal names its field and writes nothing, a good
 * report is stored as sent (text as data) and answered with its receipt record, and one address is
 * held to its calls per window.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  SITE_REPORT_PATH,
  SITE_REPORT_WINDOW_MS,
  SITE_REPORTS_PER_WINDOW,
  SITE_REPORTS_STORED_PER_WINDOW,
  siteReportReceiptCodec,
} from "../src/protocol/index.ts";
import type { ApiServer } from "./api-server.ts";
import { openVenue } from "./exchange/venue.ts";
import { clientKey, siteReportsOf } from "./site-reports.ts";
import { listenApi, postJson } from "./test-support/api.ts";

let clock = Date.parse("2026-11-26T12:00:00Z");
const now = (): number => clock;

let api: ApiServer;
let base: string;
let db: ReturnType<typeof openVenue>["db"];
beforeAll(async () => {
  const venue = openVenue({ dbPath: ":memory:", seed: 5, markets: [{ symbol: "tBTCUSD", start: 30_000 }] });
  const listening = await listenApi({ exchange: venue.exchange, account: venue.gateway, now });
  api = listening.api;
  base = `http://${listening.host}`;
  db = venue.db;
});
afterAll(() => api.close());

interface Row {
  reference: string;
  kind: string;
  category: string;
  description: string;
  email: string;
  source: string;
  created_at: number;
}
const rows = (): Row[] => db.prepare("SELECT * FROM site_reports ORDER BY id").all() as Row[];
const send = (body: unknown) => postJson(`${base}${SITE_REPORT_PATH}`, body);
// Each test starts a fresh window, so the limit test alone decides when the limit bites.
const nextWindow = (): void => {
  clock += SITE_REPORT_WINDOW_MS + 1;
};

const problem = (over: Record<string, unknown> = {}) => ({
  kind: "problem",
  category: "trading",
  description: "My stop order on tBTCUSD did not trigger at 29,500 yesterday.",
  email: "",
  source: "",
  ...over,
});

describe("site reports", () => {
  it("refuses each bad field with its reason and stores nothing", async () => {
    nextWindow();
    const cases: [Record<string, unknown>, string][] = [
      [problem({ kind: "praise" }), "kind: invalid"],
      [problem({ category: "" }), "category: missing"],
      [problem({ category: "phone" }), "category: invalid"],
      [problem({ description: "   " }), "description: missing"],
      [problem({ description: "too short" }), "description: short"],
      [problem({ description: "x".repeat(2001) }), "description: long"],
      [problem({ email: "not-an-address" }), "email: invalid"],
      [problem({ source: "https://example.com" }), "source: invalid"],
      [problem({ kind: "spam", category: "sms", source: "" }), "source: missing"],
    ];
    for (const [body, message] of cases) {
      const [status, answer] = await send(body);
      expect([status, answer]).toEqual([400, ["error", 10020, message]]);
    }
    const [status] = await postJson(`${base}${SITE_REPORT_PATH}`, "not an object");
    expect(status).toBe(400);
    expect(rows()).toEqual([]);
  });

  it("stores a good report as sent and answers its receipt", async () => {
    nextWindow();
    const markup = "<img src=x onerror=alert(1)> the chart froze after I switched the pair twice";
    const [status, answer] = await send(
      problem({ category: "website", description: `  ${markup}  `, email: "A@Example.com" }),
    );
    expect(status).toBe(200);
    const receipt = siteReportReceiptCodec.decode(answer);
    if (!receipt.ok) throw new Error("receipt did not decode");
    expect(receipt.value.reference).toMatch(/^RP-[A-HJ-NP-Z2-9]{8}$/);
    expect(receipt.value.mts).toBe(clock);
    const [spamStatus, spamAnswer] = await send({
      kind: "spam",
      category: "messenger",
      description: "A 'support agent' asked for my 2FA code on Telegram.",
      source: "@orderflow_support_help",
    });
    expect(spamStatus).toBe(200);
    expect((spamAnswer as unknown[])[0]).toMatch(/^SP-/);
    expect(rows().slice(-2)).toEqual([
      expect.objectContaining({
        reference: receipt.value.reference,
        kind: "problem",
        category: "website",
        // Trimmed and kept as text: the markup is data, never interpreted.
        description: markup,
        email: "a@example.com",
        source: "",
        created_at: clock,
      }),
      expect.objectContaining({ kind: "spam", category: "messenger", source: "@orderflow_support_help" }),
    ]);
  });

  it("holds one address to its calls per window, refused ones included", async () => {
    nextWindow();
    const before = rows().length;
    for (let i = 0; i < SITE_REPORTS_PER_WINDOW - 1; i++) expect((await send(problem()))[0]).toBe(200);
    expect((await send(problem({ description: "short" })))[0]).toBe(400);
    expect(await send(problem())).toEqual([429, { error: "ERR_RATE_LIMIT" }]);
    expect(rows().length).toBe(before + SITE_REPORTS_PER_WINDOW - 1);
    nextWindow();
    expect((await send(problem()))[0]).toBe(200);
  });

  it("stores at most so many reports a window from all addresses together", async () => {
    nextWindow();
    const fill = db.prepare(
      "INSERT INTO site_reports (reference, kind, category, description, email, source, client_address, created_at) VALUES (?, 'problem', 'website', 'from many addresses', '', '', '192.0.2.1', ?)",
    );
    for (let i = 0; i < SITE_REPORTS_STORED_PER_WINDOW; i++) fill.run(`RP-FILL${i}`, clock);
    const before = rows().length;
    expect(await send(problem())).toEqual([429, { error: "ERR_RATE_LIMIT" }]);
    expect(rows().length).toBe(before);
    nextWindow();
    expect((await send(problem()))[0]).toBe(200);
  });

  it("counts one database's calls once whichever host they reach", () => {
    expect(siteReportsOf(db, now)).toBe(siteReportsOf(db, now));
  });
});

describe("the address a report is counted by", () => {
  it("is an IPv6 client's /64, and any other address as it is", () => {
    expect(clientKey("2001:db8:1:2:aaaa::1")).toBe("2001:db8:1:2::/64");
    expect(clientKey("2001:db8:1:2:ffff:ffff:ffff:fffe")).toBe("2001:db8:1:2::/64");
    expect(clientKey("2001:0db8:0001:0002::")).toBe("2001:db8:1:2::/64");
    expect(clientKey("::1")).toBe("0:0:0:0::/64");
    expect(clientKey("fe80::1%eth0")).toBe("fe80:0:0:0::/64");
    expect(clientKey("::ffff:192.0.2.7")).toBe("::ffff:192.0.2.7");
    expect(clientKey("192.0.2.7")).toBe("192.0.2.7");
    expect(clientKey(null)).toBe("?");
  });
});
