import { describe, expect, it } from "vitest";
import { page } from "vitest/browser";
import type { LiquidationsHistoryView, StatusView } from "../../../../protocol";
import { feedHealth } from "../../../test-support/fake-market";
import { widgetHarness } from "../../../test-support/widget-harness";
import { LiquidationsPanel, liquidationsWidget, type LiquidationsSource } from "./LiquidationsWidget";

const harness = widgetHarness();
const T = Date.UTC(2026, 0, 2, 12, 0, 0);

/** A wire row: `["pos", ID, MTS, null, SYMBOL, AMOUNT, BASE, null, IS_MATCH, IS_MARKET_SOLD, null, LIQ_PRICE]`. */
const row = (id: number, mts: number, amount: number, match: 0 | 1, sold: 0 | 1, symbol = "tBTCUSD"): unknown[] => [
  "pos",
  id,
  mts,
  null,
  symbol,
  amount,
  30_000,
  null,
  match,
  sold,
  null,
  27_500,
];

/** A scripted source: the live channel's listener, and each history call's `end` with its answerer. */
function fakeSource() {
  const live: ((v: StatusView) => void)[] = [];
  const pages: { end: number; answer: (v: LiquidationsHistoryView) => void }[] = [];
  const source: LiquidationsSource = {
    status: (_key, onView) => {
      live.push(onView);
      return new Promise(() => {});
    },
    liquidations: (end, onView) => {
      pages.push({ end, answer: onView });
      onView({ status: "LOADING", error: null, range: null, rows: [] });
      return Promise.resolve();
    },
  };
  const push = (rows: unknown[][]) =>
    live[0]?.({
      handle: "h",
      key: "liq:global",
      status: "SUBSCRIBED",
      payload: rows,
      liquidations: rows,
      health: feedHealth(),
      version: 1,
    });
  return { source, pages, push };
}

const bodyRows = () => document.querySelectorAll('[data-testid="liquidations"] tbody tr');

describe("liquidations widget", () => {
  it("is a margin feature's widget", () => {
    expect(liquidationsWidget.type).toBe("liquidations");
    expect(liquidationsWidget.feature).toBe("margin");
  });

  it("shows the latest page in words, live rows on top, and pages back until nothing older is left", async () => {
    const fake = fakeSource();
    await harness.mount(<LiquidationsPanel source={() => fake.source} />, 640, 400);
    await expect.element(page.getByText("Loading…")).toBeVisible();
    expect(fake.pages[0]?.end).toBe(0);
    const first = [row(2, T - 1000, 0.5, 0, 1), row(1, T - 5000, -2, 1, 0, "tETHUSD")];
    fake.pages[0]?.answer({ status: "READY", error: null, range: { start: T - 5000, end: T - 1000 }, rows: first });
    await expect.poll(() => bodyRows().length).toBe(2);
    const cells = (i: number) => [...(bodyRows()[i]?.querySelectorAll("td") ?? [])].map((td) => td.textContent);
    expect(cells(0).slice(1)).toEqual(["BTC/USD", "Long", "0.5", "27500", "Triggered", "System"]);
    expect(cells(1).slice(1)).toEqual(["ETH/USD", "Short", "2", "27500", "Matched", "Market sale"]);

    // A liquidation happening now lands on top (within the widget's one-second refresh).
    fake.push([row(3, T, 1.25, 0, 1)]);
    await expect.poll(() => cells(0)[3], { timeout: 3000 }).toBe("1.25");
    expect(bodyRows()).toHaveLength(3);

    // Older asks for the page ending at the oldest time held.
    await page.getByRole("button", { name: "Older" }).click();
    expect(fake.pages[1]?.end).toBe(T - 5000);
    fake.pages[1]?.answer({
      status: "READY",
      error: null,
      range: { start: T - 9000, end: T - 1000 },
      rows: [...first, row(0, T - 9000, 3, 1, 1)],
    });
    await expect.poll(() => bodyRows().length).toBe(4);
    // A page that brings nothing new: the start of the history, no more "Older".
    await page.getByRole("button", { name: "Older" }).click();
    fake.pages[2]?.answer({ status: "READY", error: null, range: { start: T - 9000, end: T - 1000 }, rows: [] });
    await expect
      .poll(() => [...document.querySelectorAll("button")].some((b) => b.textContent === "Older"))
      .toBe(false);
  });

  it("says when the history failed, with the reason, and retries", async () => {
    const fake = fakeSource();
    await harness.mount(<LiquidationsPanel source={() => fake.source} />, 640, 300);
    fake.pages[0]?.answer({ status: "ERROR", error: "HTTP 503", range: null, rows: [] });
    await expect.element(page.getByRole("alert")).toHaveTextContent("Could not load liquidations: HTTP 503");
    await expect.element(page.getByText("No liquidations yet")).toBeVisible();
    await page.getByRole("button", { name: "Retry" }).click();
    expect(fake.pages).toHaveLength(2);
    fake.pages[1]?.answer({ status: "READY", error: null, range: { start: T, end: T }, rows: [row(9, T, 1, 0, 1)] });
    await expect.poll(() => bodyRows().length).toBe(1);
    expect(document.querySelector('[role="alert"]')).toBeNull();
  });
});
