import { describe, expect, it } from "vitest";
import { LEDGER_CATEGORY } from "../../protocol";
import {
  cursorAfter,
  dayEnd,
  dayStart,
  exportLedger,
  ledgerPageOf,
  ledgerQuery,
  NO_FILTERS,
  REPORT_PAGE,
} from "./ledger";

describe("reports: the filters as a ledger query", () => {
  it("asks for the first page of everything, then continues after the oldest row", () => {
    expect(ledgerQuery(NO_FILTERS, "hist")).toEqual({
      ok: true,
      path: "/v2/auth/r/ledgers/hist",
      body: { limit: REPORT_PAGE },
    });
    const filters = { currency: "USD", category: LEDGER_CATEGORY.TRANSFER, from: "2024-03-01", to: "2024-03-31" };
    const first = ledgerQuery(filters, "hist");
    expect(first).toEqual({
      ok: true,
      path: "/v2/auth/r/ledgers/USD/hist",
      body: {
        start: new Date(2024, 2, 1).getTime(),
        end: new Date(2024, 3, 1).getTime() - 1,
        category: 51,
        limit: REPORT_PAGE,
      },
    });
    const next = ledgerQuery(filters, "hist", { end: 1_709_300_000_000, endId: 42 });
    expect(next.ok && next.body).toMatchObject({
      end: 1_709_300_000_000,
      end_id: 42,
      start: new Date(2024, 2, 1).getTime(),
    });
    expect(ledgerQuery(filters, "export")).toMatchObject({ ok: true, path: "/v2/auth/r/ledgers/USD/export" });
    const exported = ledgerQuery(filters, "export");
    expect(exported.ok && "limit" in exported.body).toBe(false);
  });

  it("refuses a date that is none and a range that ends before it starts", () => {
    expect(ledgerQuery({ ...NO_FILTERS, from: "2024-02-30" }, "hist")).toEqual({ ok: false, problem: "from-date" });
    expect(ledgerQuery({ ...NO_FILTERS, to: "yesterday" }, "hist")).toEqual({ ok: false, problem: "to-date" });
    expect(ledgerQuery({ ...NO_FILTERS, from: "2024-05-02", to: "2024-05-01" }, "hist")).toEqual({
      ok: false,
      problem: "range",
    });
    // One day is a range of its own: from its first millisecond to its last.
    expect(ledgerQuery({ ...NO_FILTERS, from: "2024-05-01", to: "2024-05-01" }, "hist").ok).toBe(true);
    expect((dayEnd("2024-05-01") ?? 0) - (dayStart("2024-05-01") ?? 0)).toBeGreaterThanOrEqual(23 * 3600_000 - 1);
  });
});

describe("reports: pages and the export", () => {
  const row = (id: number, time: number) => [id, "USD", "exchange", time, null, -1, 9, null, "Transfer of 1 USD"];

  it("reads a page by the ledger codec and knows when there may be more", async () => {
    const full = Array.from({ length: REPORT_PAGE }, (_, i) => row(100 - i, 5000 - i));
    const r = await ledgerPageOf(() => Promise.resolve({ status: 200, body: full }), "/v2/auth/r/ledgers/hist", {});
    expect(r.ok && r.more).toBe(true);
    expect(r.ok && cursorAfter(r.rows)).toEqual({ end: 5000 - REPORT_PAGE + 1, endId: 100 - REPORT_PAGE + 1 });
    const short = await ledgerPageOf(() => Promise.resolve({ status: 200, body: [row(1, 1)] }), "/x", {});
    expect(short.ok && short.more).toBe(false);
    const bad = await ledgerPageOf(() => Promise.resolve({ status: 200, body: [["nonsense"]] }), "/x", {});
    expect(bad).toEqual({ ok: false, error: "server" });
    const refused = await ledgerPageOf(() => Promise.resolve({ status: 0, body: null }), "/x", {});
    expect(refused).toEqual({ ok: false, error: "unreachable" });
  });

  it("collects the streamed CSV with progress, the token in a header and the server's file name", async () => {
    const seen: { url: string; init: RequestInit | undefined }[] = [];
    const chunks = ["id,date\r\n", "1,a\r\n2,b\r\n", "3,c\r\n"];
    const fakeFetch: typeof fetch = (input, init) => {
      seen.push({ url: typeof input === "string" ? input : "", init });
      const stream = new ReadableStream<Uint8Array>({
        start(c) {
          for (const x of chunks) c.enqueue(new TextEncoder().encode(x));
          c.close();
        },
      });
      return Promise.resolve(
        new Response(stream, {
          status: 200,
          headers: { "content-disposition": 'attachment; filename="ledgers-USD-2024-05-01.csv"' },
        }),
      );
    };
    const progress: number[] = [];
    const r = await exportLedger(fakeFetch, "http://x/v2/auth/r/ledgers/export", "tok", { start: 1 }, (n) =>
      progress.push(n),
    );
    expect(r.ok && r.filename).toBe("ledgers-USD-2024-05-01.csv");
    expect(r.ok && r.rows).toBe(3);
    expect(r.ok && (await r.blob.text())).toBe(chunks.join(""));
    expect(progress).toEqual([0, 2, 3]);
    expect(seen[0]?.url).not.toContain("tok");
    expect((seen[0]?.init?.headers as Record<string, string>)["bfx-token"]).toBe("tok");
  });

  it("turns a refusal or a broken stream into an error, never a file", async () => {
    const refusal: typeof fetch = () =>
      Promise.resolve(new Response(JSON.stringify(["error", 10020, "start: must not be after end"]), { status: 400 }));
    expect(await exportLedger(refusal, "u", "t", {}, () => undefined)).toEqual({ ok: false, error: "refused" });
    const broken: typeof fetch = () =>
      Promise.resolve(
        new Response(
          new ReadableStream<Uint8Array>({
            start(c) {
              c.enqueue(new TextEncoder().encode("id\r\n1\r\n"));
              c.error(new Error("reset"));
            },
          }),
          { status: 200 },
        ),
      );
    expect(await exportLedger(broken, "u", "t", {}, () => undefined)).toEqual({ ok: false, error: "unreachable" });
    const down: typeof fetch = () => Promise.reject(new TypeError("failed to fetch"));
    expect(await exportLedger(down, "u", "t", {}, () => undefined)).toEqual({ ok: false, error: "unreachable" });
  });
});
