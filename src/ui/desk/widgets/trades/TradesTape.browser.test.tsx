import { describe, expect, it } from "vitest";
import { page } from "vitest/browser";
import type { AccountView, AuthTrade } from "../../../../protocol";
import { settings, updateSetting } from "../../../settings/store";
import { vars } from "../../../theme/contract.css";
import { applyTheme } from "../../../theme/theme";
import { accountStore } from "../../account-store";
import { orderDraft } from "../../desk-state";
import { syntheticTrades, syntheticTradesView } from "../../../test-support/fake-market";
import { widgetHarness } from "../../../test-support/widget-harness";
import { MAX_TRADE_ROWS } from "./trades-painter";
import { TradesTape, tradesTapeWidget } from "./TradesTape";

const harness = widgetHarness();

function mount(width = 360, height = 400) {
  return harness.mount(<TradesTape widgetKey="widget/trades/1" pair="BTCUSD" symbol="tBTCUSD" />, width, height);
}

const publicRows = () => document.querySelectorAll<HTMLElement>('[data-testid="trades-public"] [data-index]');
const rowPrice = (i: number) =>
  document.querySelector<HTMLElement>(`[data-testid="trades-public"] [data-index="${i}"] [data-part="price"]`);

function resolved(colour: string): string {
  const el = document.createElement("span");
  el.style.color = colour;
  document.body.append(el);
  const c = getComputedStyle(el).color;
  el.remove();
  return c;
}

function authTrade(id: number, pair: string, amount: number, price: number, mts: number): AuthTrade {
  return {
    id,
    pair,
    mts_create: mts,
    order_id: id * 10,
    exec_amount: amount,
    exec_price: price,
    order_type: "EXCHANGE LIMIT",
    order_price: price,
    maker: 1,
    fee: -0.0002,
    fee_currency: "BTC",
    cid: null,
    isMaker: true,
  };
}

describe("trades tape widget", () => {
  it("declares itself for the desk grid", () => {
    expect(tradesTapeWidget.type).toBe("trades");
    expect(tradesTapeWidget.component).toBe(TradesTape);
  });

  it("renders public trades newest first, coloured by the taker's side", async () => {
    await mount();
    await expect.poll(() => publicRows().length).toBe(40);
    const trades = syntheticTrades(40);
    expect(harness.fake.liveTrades()[0]).toMatchObject({ symbol: "tBTCUSD" });
    expect(rowPrice(0)?.textContent).toBe(String(trades[0]!.price));
    const row = (i: number) => publicRows()[i]!;
    expect(row(0).dataset["dir"]).toBe("up");
    expect(row(1).dataset["dir"]).toBe("down");
    expect(getComputedStyle(rowPrice(0)!).color).toBe(resolved(vars.color.up));
    expect(getComputedStyle(rowPrice(1)!).color).toBe(resolved(vars.color.down));
    expect(row(0).querySelector('[data-part="time"]')?.textContent).toMatch(/^\d\d:\d\d:\d\d$/);
    expect(row(1).querySelector('[data-part="amount"]')?.textContent).toBe("0.0600");
  });

  it("writes each trade's time as the time_format's clock at the utc_offset", async () => {
    await mount();
    await expect.poll(() => publicRows().length).toBe(40);
    const mts = syntheticTrades(40)[0]!.mts;
    const time = () => publicRows()[0]?.querySelector('[data-part="time"]')?.textContent;
    const clock = (offsetHours: number, seconds: boolean) =>
      new Date(mts + offsetHours * 3_600_000).toISOString().slice(11, seconds ? 19 : 16);
    expect(time()).toBe(clock(0, true));
    updateSetting("utc_offset", 5.5);
    updateSetting("time_format", "DD.MM.YYYY HH:mm");
    await expect.poll(time).toBe(clock(5.5, false));
  });

  it("shows a new trade on top by repainting the same rows, bounded to the newest 100", async () => {
    await mount();
    await expect.poll(() => publicRows().length).toBe(40);
    const first = publicRows()[0];
    const trades = syntheticTrades(40);
    const fresh = { id: 5000, mts: trades[0]!.mts + 1000, amount: -2, price: 49_123 };
    harness.fake.pushTrades(syntheticTradesView("tBTCUSD", [fresh, ...trades], 2));
    await expect.poll(() => rowPrice(0)?.textContent).toBe("49123");
    expect(publicRows()[0]).toBe(first);
    expect(publicRows()[0]!.dataset["dir"]).toBe("down");
    expect(rowPrice(1)?.textContent).toBe(String(trades[0]!.price));

    harness.fake.pushTrades(syntheticTradesView("tBTCUSD", syntheticTrades(300), 3));
    await expect.poll(() => publicRows().length).toBe(MAX_TRADE_ROWS);
  });

  it("paints the rows in or near sight with each view and the others once scrolled to", async () => {
    await mount(360, 160);
    const trades = syntheticTrades(MAX_TRADE_ROWS);
    harness.fake.pushTrades(syntheticTradesView("tBTCUSD", trades, 2));
    await expect.poll(() => publicRows().length).toBe(MAX_TRADE_ROWS);
    await expect.poll(() => rowPrice(0)?.textContent).toBe(String(trades[0]!.price));
    const fresh = { id: 9000, mts: trades[0]!.mts + 1000, amount: 1, price: 48_001 };
    const shifted = [fresh, ...trades.slice(0, -1)];
    harness.fake.pushTrades(syntheticTradesView("tBTCUSD", shifted, 3));
    await expect.poll(() => rowPrice(0)?.textContent).toBe("48001");
    expect(rowPrice(1)?.textContent).toBe(String(shifted[1]!.price));
    // Far below the panel's few visible rows: not written with the views…
    const far = 90;
    expect(rowPrice(far)?.textContent).not.toBe(String(shifted[far]!.price));
    // …until a scroll brings it near, painted before it is seen.
    const panel = page.getByTestId("trades-public").element() as HTMLElement;
    panel.scrollTop = far * 20;
    await expect.poll(() => rowPrice(far)?.textContent).toBe(String(shifted[far]!.price));
    expect(publicRows()[far]!.dataset["dir"]).toBe(shifted[far]!.amount < 0 ? "down" : "up");
  });

  it("fills the order form's price from a trade", async () => {
    await mount();
    await expect.poll(() => publicRows().length).toBe(40);
    const trades = syntheticTrades(40);
    await page.elementLocator(rowPrice(2)!).click();
    expect(orderDraft.price).toBe(String(trades[2]!.price));
    expect(orderDraft.seq).toBe(1);
  });

  it("lists the account's own trades on this market in the second tab", async () => {
    await mount();
    await page.getByTestId("trades-tab-own").click();
    expect(settings.trades_tab).toBe(1);
    await expect.element(page.getByText("Log in to see your trades.")).toBeVisible();
    expect(page.getByTestId("trades-tab-own").element().getAttribute("aria-selected")).toBe("true");

    const t0 = Date.UTC(2026, 0, 2, 10, 0, 0);
    accountStore.link = "live";
    accountStore.view = {
      trades: [
        authTrade(1, "tBTCUSD", 0.5, 49_000, t0),
        authTrade(2, "tETHUSD", 1, 3000, t0 + 1000),
        authTrade(3, "tBTCUSD", -0.25, 49_500.5, t0 + 2000),
      ],
    } as unknown as AccountView;
    const own = page.getByTestId("trades-own");
    await expect.poll(() => own.element().querySelectorAll("[data-dir]").length).toBe(2);
    const rows = own.element().querySelectorAll<HTMLElement>("[data-dir]");
    expect(rows[0]!.dataset["dir"]).toBe("down");
    expect(rows[0]!.textContent).toContain("49501");
    expect(rows[1]!.textContent).toContain("49000");
    await page.elementLocator(rows[0]!.querySelector("button")!).click();
    expect(orderDraft.price).toBe("49500.5");

    await page.getByTestId("trades-tab-market").click();
    expect(settings.trades_tab).toBe(0);
    await expect.poll(() => publicRows().length).toBe(40);
  });

  it("takes screenshots in the dark and light themes", async () => {
    await page.viewport(400, 440);
    for (const mode of ["dark", "light"] as const) {
      applyTheme(document.documentElement, { name: "default", mode, scheme: "default" }, true);
      const screen = await mount(380, 420);
      await expect.poll(() => publicRows().length).toBe(40);
      await page.screenshot({ path: `../../../../../test-results/shots/trades-${mode}.png` });
      accountStore.link = "live";
      accountStore.view = {
        trades: [
          authTrade(1, "tBTCUSD", 0.5, 49_000, Date.UTC(2026, 0, 2, 10, 0, 0)),
          authTrade(3, "tBTCUSD", -0.25, 49_500.5, Date.UTC(2026, 0, 2, 10, 0, 2)),
        ],
      } as unknown as AccountView;
      await page.getByTestId("trades-tab-own").click();
      await page.screenshot({ path: `../../../../../test-results/shots/trades-own-${mode}.png` });
      await page.getByTestId("trades-tab-market").click();
      await screen.unmount();
    }
  });
});
