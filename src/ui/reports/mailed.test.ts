/**
 * A mailed report asks for what the live export would give (docs/product-rules.md#reports): its
 * kind, symbol and filters read from the export's query; and when the page suggests one.
 */
import { describe, expect, it } from "vitest";
import { archiveQuery, NO_ARCHIVE_FILTERS } from "../history/archive";
import { ledgerQuery, NO_FILTERS } from "./ledger";
import { isLargeRange, reportRequestOf } from "./mailed";

const DAY = 86_400_000;

describe("reportRequestOf", () => {
  it("reads the ledger's and the archive's exports", () => {
    const ledger = ledgerQuery({ ...NO_FILTERS, currency: "BTC", from: "2024-01-01", category: 51 }, "export");
    expect(ledger.ok && reportRequestOf(ledger.path, ledger.body)).toEqual({
      kind: "ledgers",
      symbol: "BTC",
      // The start is that day's first millisecond in the reader's zone (src/ui/history/range.ts).
      filters: { start: expect.any(Number) as number, category: 51 },
    });
    const all = ledgerQuery(NO_FILTERS, "export");
    expect(all.ok && reportRequestOf(all.path, all.body)).toEqual({ kind: "ledgers", filters: {} });
    const trades = archiveQuery("trades", { ...NO_ARCHIVE_FILTERS, symbol: "tBTCUSD" }, "export");
    expect(trades.ok && reportRequestOf(trades.path, trades.body)).toEqual({
      kind: "trades",
      symbol: "tBTCUSD",
      filters: {},
    });
    const loans = archiveQuery("funding", { ...NO_ARCHIVE_FILTERS, funding: "loans" }, "export");
    expect(loans.ok && reportRequestOf(loans.path, loans.body)).toEqual({ kind: "funding-loans", filters: {} });
  });

  it("is null for anything that is no export", () => {
    expect(reportRequestOf("/v2/auth/r/ledgers/hist", {})).toBeNull();
    expect(reportRequestOf("/v2/auth/r/wallets/export", {})).toBeNull();
  });
});

describe("isLargeRange", () => {
  it("suggests a mailed report past a year", () => {
    const now = Date.UTC(2026, 5, 1);
    expect(isLargeRange(null, null, now)).toBe(false);
    expect(isLargeRange(now - 300 * DAY, null, now)).toBe(false);
    expect(isLargeRange(now - 400 * DAY, null, now)).toBe(true);
    expect(isLargeRange(now - 400 * DAY, now - 100 * DAY, now)).toBe(false);
  });
});
