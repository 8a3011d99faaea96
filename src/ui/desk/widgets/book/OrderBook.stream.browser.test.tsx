/**
 * The order book against the real market worker (through the bridge) and the stress source: 250
 * levels a side, checksum-verified, views every 50 ms. The widget must keep up without React
 * commits per view: a Profiler counts commits while the stream runs.
 */
import { I18nProvider } from "@lingui/react";
import { Profiler } from "react";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { render } from "vitest-browser-react";
import { activateLocale, i18n } from "../../../i18n";
import { createMarketBridge } from "../../../market/bridge";
import { resetSettings, updateSetting } from "../../../settings/store";
import type { BookPart } from "./book-columns";
import { inspectorOf } from "./book-painter";
import { MarketSourceContext } from "./market-source";
import { OrderBook } from "./OrderBook";

const bridge = createMarketBridge();

beforeAll(async () => {
  await activateLocale("en");
  await bridge.configure({ wsPublic: inject("exchangeUrl"), watchdogMs: 60_000 });
  await bridge.stress({ intervalMs: 10, count: 8 });
});

afterAll(async () => {
  await bridge.stress(null);
  bridge.dispose();
});

const cellText = (side: string, level: number, part: BookPart) =>
  inspectorOf(document.querySelector('[data-testid="order-book"]'))
    ?.rows()
    .find((r) => r.side === side && r.level === level)?.[part] ?? "";

describe("order book on the live stress stream", () => {
  it("paints a fast 250-level book without a React commit per view", async () => {
    resetSettings();
    updateSetting("book_throttle_ms", 50);
    let commits = 0;
    await render(
      <I18nProvider i18n={i18n}>
        <MarketSourceContext value={bridge}>
          <Profiler id="book" onRender={() => commits++}>
            <div style={{ width: 520, height: 400 }}>
              <OrderBook widgetKey="widget/book/1" pair="STRESS" symbol="tSTRESS" />
            </div>
          </Profiler>
        </MarketSourceContext>
      </I18nProvider>,
    );
    const badge = () => document.querySelector<HTMLElement>('[data-testid="book-health"]');
    await expect.poll(() => badge()?.dataset["health"], { timeout: 8000 }).toBe("ok");
    await expect.poll(() => cellText("bid", 0, "price"), { timeout: 8000 }).not.toBe("");

    // Let the stream settle (subscription, first views), then count commits over a second of views.
    await new Promise((r) => setTimeout(r, 1200));
    const settled = commits;
    const seen = new Set<string>();
    const started = performance.now();
    while (performance.now() - started < 1000) {
      seen.add(`${cellText("bid", 0, "amount")}|${cellText("ask", 0, "amount")}|${cellText("bid", 3, "total")}`);
      await new Promise((r) => requestAnimationFrame(r));
    }
    // The book changed on screen many times…
    expect(seen.size).toBeGreaterThan(3);
    // …while React committed at most the badge's once-a-second refresh.
    expect(commits - settled).toBeLessThanOrEqual(2);
    expect(Number(cellText("bid", 0, "price"))).toBeLessThan(Number(cellText("ask", 0, "price")));
  });
});
