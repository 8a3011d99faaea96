import { I18nProvider } from "@lingui/react";
import type { ReactNode } from "react";
import { ref } from "valtio";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { page } from "vitest/browser";
import { render } from "vitest-browser-react";
import type { AccountView, Order, OrderAck, OrderUpdate } from "../../../../protocol";
import { loadConfig } from "../../../config";
import { activateLocale, i18n } from "../../../i18n";
import { resetSettings, settings, updateSetting } from "../../../settings/store";
import { requestUrl } from "../../../test-support/fetch";
import { applyTheme } from "../../../theme/theme";
import { accountStore } from "../../account-store";
import { notices } from "../../notices";
import { ACCOUNT_TABLE_WIDGETS, ordersWidgetDef } from "./defs";
import type { HistoryRequest } from "./history-pager";
import { BalancesWidget, OrdersWidget, OwnTradesWidget, PositionsWidget } from "./index";
import { TablesServicesContext, type TablesServices } from "./services";
import { order, orderRow, position, trade, wallet } from "../../../test-support/account-records";
import { accountView } from "../../../test-support/account";

const OK: OrderAck = { ok: true, status: "SUCCESS", text: "Submitted", orderIds: [], localError: null };

interface FakeServices extends TablesServices {
  readonly calls: { cancel: number[]; cancelMany: unknown[]; update: OrderUpdate[]; history: HistoryRequest[] };
}

function fakeServices(historyRows: unknown[][] = []): FakeServices {
  const calls: FakeServices["calls"] = { cancel: [], cancelMany: [], update: [], history: [] };
  return {
    calls,
    orders: {
      cancelOrder: (id) => {
        calls.cancel.push(id);
        return Promise.resolve({ ...OK, orderIds: [id] });
      },
      cancelOrders: (target) => {
        calls.cancelMany.push(target);
        return Promise.resolve(OK);
      },
      updateOrder: (update) => {
        calls.update.push(update);
        return Promise.resolve(OK);
      },
    },
    fetchHistory: (request) => {
      calls.history.push(request);
      return Promise.resolve(
        historyRows.filter((r) => request.end === null || (r[5] as number) <= request.end).slice(0, request.limit),
      );
    },
  };
}

function signIn(view: AccountView): void {
  accountStore.link = "live";
  accountStore.view = ref(view);
}

let services: FakeServices;

function mount(node: ReactNode, width = 900, height = 420) {
  return render(
    <I18nProvider i18n={i18n}>
      <TablesServicesContext value={services}>
        <div style={{ width, height }}>{node}</div>
      </TablesServicesContext>
    </I18nProvider>,
  );
}

const WIDGET = { widgetKey: "widget/orders/1", pair: "BTCUSD", symbol: "tBTCUSD" } as const;

/** The ids of the rendered rows of a table, top to bottom. */
function rowIds(tableId: string): string[] {
  return [...document.querySelectorAll(`[data-testid="table-${tableId}"] tbody tr`)].map(
    (tr) => (tr as HTMLElement).dataset["row"] ?? "",
  );
}

function header(tableId: string, column: string): HTMLElement {
  const th = document.querySelector<HTMLElement>(`[data-testid="table-${tableId}"] th[data-column="${column}"]`);
  if (!th) throw new Error(`no header ${column}`);
  return th;
}

const OPEN: Order[] = [
  order({ id: 11, symbol: "tBTCUSD", amount: 0.5, price: 101, created: 3000 }),
  order({ id: 12, symbol: "tBTCUSD", amount: -2, original: -4, price: 99, created: 1000 }),
  order({ id: 13, symbol: "tBTCUSD", amount: 1, price: 105, created: 2000, type: "EXCHANGE STOP", placedId: 77 }),
  order({ id: 14, symbol: "tETHUSD", amount: -3, price: 20, created: 4000, type: "LIMIT" }),
];

beforeAll(async () => {
  await activateLocale("en");
});

beforeEach(() => {
  resetSettings();
  services = fakeServices();
  notices.toasts.length = 0;
  notices.history.length = 0;
  applyTheme(document.documentElement, { name: "default", mode: "dark", scheme: "default" }, true);
});

afterEach(() => {
  accountStore.link = "signed-out";
  accountStore.view = null;
});

describe("account tables", () => {
  it("declares each widget with a title and sizes that fit the 24-column grid", () => {
    expect(ACCOUNT_TABLE_WIDGETS.map((d) => d.type)).toEqual(["orders", "own-trades", "positions", "balances"]);
    for (const d of ACCOUNT_TABLE_WIDGETS) {
      expect(d.minSize.w).toBeLessThanOrEqual(d.defaultSize.w);
      expect(d.minSize.h).toBeLessThanOrEqual(d.defaultSize.h);
      expect(d.defaultSize.w).toBeLessThanOrEqual(24);
      expect(i18n._(d.title)).not.toBe("");
    }
  });

  it("asks a signed-out user to sign in, with a way back to this page", async () => {
    await mount(<OrdersWidget {...WIDGET} />);
    const link = page.getByRole("link", { name: "Sign in" });
    await expect.element(link).toBeVisible();
    const href = new URL(link.element().getAttribute("href") ?? "", location.origin);
    expect(href.pathname).toBe("/login");
    expect(href.searchParams.get("back")).toBe(`${location.pathname}${location.search}${location.hash}`);
    expect(document.querySelector('[data-testid="table-orders"]')).toBeNull();
  });

  it("sorts by a clicked header, asc then desc, and stores column-asc / column-desc", async () => {
    signIn(accountView({ orders: OPEN }));
    await mount(<OrdersWidget {...WIDGET} />);
    // Default: newest first, not written to the setting.
    await expect.poll(() => rowIds("orders")).toEqual(["11", "13", "12"]);
    expect(settings.tables_sorting).toEqual({});
    expect(header("orders", "price").getAttribute("aria-sort")).toBe("none");
    expect(header("orders", "created").getAttribute("aria-sort")).toBe("descending");
    // OCO legs show the derived type_value; sides take the scheme's up/down colours.
    const cells = (id: string) => document.querySelectorAll(`[data-testid="table-orders"] tr[data-row="${id}"] td`);
    expect(cells("13")[1]?.textContent).toBe("OCO Stop");
    expect(cells("12")[4]?.textContent).toBe("50.0%");
    expect(getComputedStyle(cells("11")[2]!.firstElementChild!).color).toBe("rgb(22, 185, 121)");
    expect(getComputedStyle(cells("12")[2]!.firstElementChild!).color).toBe("rgb(240, 97, 109)");

    await page.getByRole("button", { name: "Price" }).click();
    await expect.poll(() => rowIds("orders")).toEqual(["12", "11", "13"]);
    expect(settings.tables_sorting["orders"]).toBe("price-asc");
    expect(header("orders", "price").getAttribute("aria-sort")).toBe("ascending");
    expect(header("orders", "created").getAttribute("aria-sort")).toBe("none");

    await page.getByRole("button", { name: "Price" }).click();
    await expect.poll(() => rowIds("orders")).toEqual(["13", "11", "12"]);
    expect(settings.tables_sorting["orders"]).toBe("price-desc");
    expect(header("orders", "price").getAttribute("aria-sort")).toBe("descending");
  });

  it("ignores a stored sorting that is not column-asc / column-desc", async () => {
    // A corrupt stored value (bypassing updateSetting's check, as an old store might hold).
    settings.tables_sorting = { orders: "price-sideways" };
    signIn(accountView({ orders: OPEN }));
    await mount(<OrdersWidget {...WIDGET} />);
    await expect.poll(() => rowIds("orders")).toEqual(["11", "13", "12"]);
    expect(header("orders", "price").getAttribute("aria-sort")).toBe("none");
    // A click still sorts and replaces the corrupt entry with a valid one.
    await page.getByRole("button", { name: "Price" }).click();
    await expect.poll(() => settings.tables_sorting["orders"]).toBe("price-asc");
    settings.tables_sorting = { orders: "nosuch-desc" };
    await expect.poll(() => rowIds("orders")).toEqual(["11", "13", "12"]);
  });

  it("applies a valid stored sorting on first render", async () => {
    updateSetting("tables_sorting", { orders: "amount-desc" });
    signIn(accountView({ orders: OPEN }));
    await mount(<OrdersWidget {...WIDGET} />);
    await expect.poll(() => rowIds("orders")).toEqual(["13", "11", "12"]);
  });

  it("filters by pair and side", async () => {
    signIn(accountView({ orders: OPEN }));
    await mount(<OrdersWidget {...WIDGET} />);
    await expect.poll(() => rowIds("orders").sort()).toEqual(["11", "12", "13"]);
    await page.getByTestId("filter-pair").selectOptions("ALL");
    await expect.poll(() => rowIds("orders").sort()).toEqual(["11", "12", "13", "14"]);
    expect(settings.order_filters["pair"]).toBe("ALL");
    await page.getByTestId("filter-side").selectOptions("sell");
    await expect.poll(() => rowIds("orders").sort()).toEqual(["12", "14"]);
    expect(settings.orders_filter).toBe("sell");
    await page.getByTestId("filter-side").selectOptions("buy");
    await expect.poll(() => rowIds("orders").sort()).toEqual(["11", "13"]);
    await page.getByTestId("filter-pair").selectOptions("CURRENT_PAIR");
    await page.getByTestId("filter-context").selectOptions("margin");
    await expect.poll(() => rowIds("orders")).toEqual([]);
    await expect.element(page.getByText("No open orders match the filters.")).toBeVisible();
  });

  it("shows orders_display_limit rows and reveals more on request", async () => {
    const many = Array.from({ length: 45 }, (_, i) => order({ id: 100 + i, created: 100 + i }));
    signIn(accountView({ orders: many }));
    await mount(<OrdersWidget {...WIDGET} />);
    await expect.poll(() => rowIds("orders").length).toBe(20);
    await page.getByTestId("show-more").click();
    await expect.poll(() => rowIds("orders").length).toBe(40);
    await page.getByTestId("show-more").click();
    await expect.poll(() => rowIds("orders").length).toBe(45);
    expect(document.querySelector('[data-testid="show-more"]')).toBeNull();
  });

  it("cancels one order through the bridge and reports it", async () => {
    signIn(accountView({ orders: OPEN }));
    await mount(<OrdersWidget {...WIDGET} />);
    await page.getByRole("button", { name: "Cancel order 12" }).click();
    await expect.poll(() => services.calls.cancel).toEqual([12]);
    await expect.poll(() => notices.history[0]?.text).toBe("Order 12: cancellation submitted");
    expect(notices.history[0]?.kind).toBe("orders");
  });

  it("reports a refused cancel with the exchange's reason", async () => {
    services = {
      ...services,
      orders: {
        ...services.orders,
        cancelOrder: () =>
          Promise.resolve({ ok: false, status: "ERROR", text: "Order not found.", orderIds: [], localError: null }),
      },
    };
    signIn(accountView({ orders: OPEN }));
    await mount(<OrdersWidget {...WIDGET} />);
    await page.getByRole("button", { name: "Cancel order 11" }).click();
    await expect.poll(() => notices.history[0]?.text).toBe("Order 11 could not be cancelled: Order not found.");
    expect(notices.history[0]?.level).toBe("error");
  });

  it("cancels all on this market and on all markets only after confirming", async () => {
    signIn(accountView({ orders: OPEN }));
    await mount(<OrdersWidget {...WIDGET} />);
    await page.getByTestId("cancel-pair").click();
    await expect
      .poll(() => page.getByTestId("confirm-cancel").element().textContent)
      .toContain("Cancel all 3 open orders on BTC/USD?");
    expect(services.calls.cancelMany).toEqual([]);
    await page.getByRole("button", { name: "Keep orders" }).click();
    expect(services.calls.cancelMany).toEqual([]);
    await page.getByTestId("cancel-pair").click();
    await page.getByTestId("confirm-cancel-yes").click();
    await expect.poll(() => services.calls.cancelMany).toEqual([{ symbol: "tBTCUSD" }]);
    await page.getByTestId("cancel-all").click();
    await expect
      .poll(() => page.getByTestId("confirm-cancel").element().textContent)
      .toContain("Cancel all 4 open orders on every market?");
    await page.getByTestId("confirm-cancel-yes").click();
    await expect.poll(() => services.calls.cancelMany).toEqual([{ symbol: "tBTCUSD" }, { all: true }]);
  });

  it("edits price and amount, keeping a sell order's sign", async () => {
    signIn(accountView({ orders: OPEN }));
    await mount(<OrdersWidget {...WIDGET} />);
    await page.getByRole("button", { name: "Edit order 12" }).click();
    const price = page.getByTestId("edit-price");
    await expect.element(price).toHaveValue("99");
    await expect.element(page.getByTestId("edit-amount")).toHaveValue("2");
    await price.fill("98.5");
    await page.getByTestId("edit-amount").fill("1.25");
    await page.getByRole("button", { name: "Save" }).click();
    await expect.poll(() => services.calls.update).toEqual([{ id: 12, price: "98.5", amount: "-1.25" }]);
    await expect.poll(() => document.querySelector('[data-testid="edit-order"]')).toBeNull();
  });

  it("refuses an invalid edit", async () => {
    signIn(accountView({ orders: OPEN }));
    await mount(<OrdersWidget {...WIDGET} />);
    await page.getByRole("button", { name: "Edit order 11" }).click();
    await page.getByTestId("edit-price").fill("-3");
    await expect.element(page.getByRole("button", { name: "Save" })).toBeDisabled();
    expect(services.calls.update).toEqual([]);
  });

  it("merges the live history with older pages loaded on demand", async () => {
    const rest = Array.from({ length: 30 }, (_, i) =>
      orderRow({ id: 500 - i, updated: 5000 - i * 10, status: "CANCELED", amount: 0, original: 1 }),
    );
    services = fakeServices(rest);
    const live = [order({ id: 900, updated: 9000, status: "EXECUTED @ 100(1)", amount: 0, original: -1 })];
    signIn(accountView({ orders: OPEN, history: { tBTCUSD: live } }));
    await mount(<OrdersWidget {...WIDGET} />, 900, 900);
    await page.getByTestId("tab-order-history").click();
    await expect.poll(() => services.calls.history.length).toBe(1);
    expect(services.calls.history[0]).toEqual({ symbol: "tBTCUSD", end: 9000, limit: 25 });
    await expect.poll(() => rowIds("order_history").length).toBe(20);
    expect(rowIds("order_history")[0]).toBe("900");
    await page.getByTestId("show-more").click();
    await expect.poll(() => rowIds("order_history").length).toBe(26);
    await page.getByTestId("load-older").click();
    await expect.poll(() => rowIds("order_history").length).toBe(31);
    expect(services.calls.history[1]?.end).toBe(5000 - 24 * 10);
    // The last page was short: nothing older to ask for.
    expect(document.querySelector('[data-testid="load-older"]')).toBeNull();
    await page.getByTestId("filter-status").selectOptions("EXECUTED");
    await expect.poll(() => rowIds("order_history")).toEqual(["900"]);
  });

  it("shows own trades filtered by side", async () => {
    const trades = [trade({ id: 1, amount: 0.5 }), trade({ id: 2, amount: -0.25 }), trade({ id: 3, pair: "tETHUSD" })];
    signIn(accountView({ trades }));
    await mount(<OwnTradesWidget {...WIDGET} />);
    await expect.poll(() => rowIds("own_trades")).toEqual(["2", "1"]);
    await page.getByTestId("filter-side").selectOptions("buy");
    await expect.poll(() => rowIds("own_trades")).toEqual(["1"]);
  });

  it("colours positions' P/L by sign", async () => {
    signIn(
      accountView({
        positions: [position({ id: 1, pl: 12.5 }), position({ id: 2, pair: "tETHUSD", amount: -2, pl: -3 })],
      }),
    );
    updateSetting("order_filters", { pair: "ALL" });
    await mount(<PositionsWidget {...WIDGET} />);
    await expect.poll(() => rowIds("positions")).toEqual(["1", "2"]);
    const plCell = (id: string) =>
      document.querySelector<HTMLElement>(`[data-testid="table-positions"] tr[data-row="${id}"] td:nth-child(5) span`);
    const gain = getComputedStyle(plCell("1")!).color;
    const loss = getComputedStyle(plCell("2")!).color;
    expect(gain).toBe("rgb(22, 185, 121)");
    expect(loss).toBe("rgb(240, 97, 109)");
  });

  it("filters positions by pair (this market by default) and side, like orders and trades", async () => {
    signIn(
      accountView({
        positions: [
          position({ id: 1, pl: 12.5 }),
          position({ id: 2, pair: "tETHUSD", amount: -2, pl: -3 }),
          position({ id: 3, pair: "tBTCUSD", amount: -1, pl: 1 }),
        ],
      }),
    );
    const screen = await mount(<PositionsWidget {...WIDGET} />);
    await expect.poll(() => rowIds("positions").sort()).toEqual(["1", "3"]);
    // Positions are all margin: no exchange/margin selector.
    expect(document.querySelector('[data-testid="positions-widget"] [data-testid="filter-context"]')).toBeNull();
    await page.getByTestId("filter-side").selectOptions("sell");
    await expect.poll(() => rowIds("positions")).toEqual(["3"]);
    await page.getByTestId("filter-pair").selectOptions("ALL");
    expect(settings.order_filters["pair"]).toBe("ALL");
    await expect.poll(() => rowIds("positions").sort()).toEqual(["2", "3"]);
    await page.getByTestId("filter-side").selectOptions("all");
    await page.getByTestId("filter-pair").selectOptions("CURRENT_PAIR");
    // CURRENT_PAIR follows the widget's pair.
    await screen.rerender(
      <I18nProvider i18n={i18n}>
        <TablesServicesContext value={services}>
          <div style={{ width: 900, height: 420 }}>
            <PositionsWidget {...WIDGET} pair="ETHUSD" symbol="tETHUSD" />
          </div>
        </TablesServicesContext>
      </I18nProvider>,
    );
    await expect.poll(() => rowIds("positions")).toEqual(["2"]);
  });

  it("shows positions' P/L and funding cost and trades' fees in bitcoin in bitcoin view", async () => {
    vi.stubGlobal("fetch", (input: RequestInfo | URL) =>
      Promise.resolve(
        new Response(
          requestUrl(input).includes("/v2/tickers")
            ? JSON.stringify([
                ["tBTCUSD", 50_000, 1, 50_001, 1, 0, 0, 50_000, 10, 50_000, 50_000],
                ["tETHUSD", 2_500, 1, 2_501, 1, 0, 0, 2_500, 10, 2_500, 2_500],
              ])
            : "{}",
          { status: 200 },
        ),
      ),
    );
    try {
      await loadConfig(location.origin);
      const swapped = { ...position({ id: 1, pl: 125 }), swap: -50 };
      signIn(
        accountView({
          positions: [swapped, position({ id: 2, pair: "tBTCF0:USTF0", amount: -1, pl: 7 })],
          trades: [trade({ id: 1, amount: 0.5, fee: -0.1 })],
        }),
      );
      updateSetting("order_filters", { pair: "ALL" });
      const cellOf = (table: string, row: string, column: string) => {
        const th = header(table, column);
        const at = [...(th.parentElement?.children ?? [])].indexOf(th) + 1;
        return (
          document.querySelector(`[data-testid="table-${table}"] tr[data-row="${row}"] td:nth-child(${at})`)
            ?.textContent ?? ""
        );
      };
      await mount(
        <>
          <PositionsWidget {...WIDGET} />
          <OwnTradesWidget {...WIDGET} />
        </>,
      );
      await expect.poll(() => rowIds("positions").sort()).toEqual(["1", "2"]);
      // Off: in the pair's quote currency, as the exchange sends it.
      expect(header("positions", "pl").textContent).not.toContain("BTC");
      expect(cellOf("positions", "1", "pl")).toBe("125");
      expect(cellOf("positions", "1", "swap")).toBe("-50");
      expect(cellOf("own_trades", "1", "fee")).toBe("-0.1 USD");

      updateSetting("bitcoin_view_enabled", true);
      await expect.poll(() => header("positions", "pl").textContent).toContain("P/L (BTC)");
      expect(header("positions", "swap").textContent).toContain("(BTC)");
      await expect.poll(() => cellOf("positions", "1", "pl")).toBe("0.0025");
      expect(cellOf("positions", "1", "swap")).toBe("-0.001");
      // No price converts the derivative's USTF0: it keeps its own currency, named.
      expect(cellOf("positions", "2", "pl")).toBe("7 USTF0");
      expect(cellOf("own_trades", "1", "fee")).toBe("-0.000002 BTC");
      // The P/L keeps its colour by sign.
      const plSpan = document.querySelector<HTMLElement>(
        `[data-testid="table-positions"] tr[data-row="1"] td:nth-child(5) span`,
      );
      expect(getComputedStyle(plSpan as HTMLElement).color).toBe("rgb(22, 185, 121)");
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it("shows balances per wallet tab and hides small ones when asked", async () => {
    signIn(
      accountView({
        wallets: [
          wallet("exchange", "BTC", 1.5, 1),
          wallet("exchange", "ETH", 0.000001),
          wallet("margin", "USD", 100),
          wallet("funding", "USD", 50),
        ],
        balance: { aum: 1234.5, aumNet: 1200 },
      }),
    );
    await mount(<BalancesWidget {...WIDGET} />);
    // Sorted by currency; equal currencies keep the wallets' order.
    await expect.poll(() => rowIds("balances")).toEqual(["exchange:BTC", "margin:USD", "funding:USD"]);
    await page.getByTestId("balances-tab-exchange").click();
    expect(settings.balances_tab).toBe("exchange");
    await expect.poll(() => rowIds("balances")).toEqual(["exchange:BTC"]);
    await page.getByTestId("hide-small").click();
    await expect.poll(() => rowIds("balances")).toEqual(["exchange:BTC", "exchange:ETH"]);
    await expect
      .poll(() => page.getByTestId("balances-total").element().textContent)
      .toContain("Assets under management: 1234.5 USD (net 1200 USD)");
    // Bitcoin view: values in BTC; a BTC wallet is worth its own balance, whatever the prices.
    await page.getByTestId("bitcoin-view").click();
    expect(settings.bitcoin_view_enabled).toBe(true);
    await expect
      .poll(() => document.querySelector('[data-testid="table-balances"] th[data-column="value"]')?.textContent)
      .toContain("Value (BTC)");
    const btcValue = document.querySelector(
      '[data-testid="table-balances"] tr[data-row="exchange:BTC"] td:nth-child(3)',
    )?.textContent;
    expect(btcValue).toBe("1.5");
  });

  it("takes screenshots in the dark and light themes", async () => {
    const history = [
      order({ id: 900, updated: 9000, status: "EXECUTED @ 100.5(1)", amount: 0, original: 1 }),
      order({ id: 901, updated: 8000, status: "CANCELED", amount: -0.4, original: -1, type: "LIMIT" }),
    ];
    signIn(
      accountView({
        orders: OPEN,
        history: { tBTCUSD: history },
        trades: [trade({ id: 1, amount: 0.5 }), trade({ id: 2, amount: -0.25, maker: 0 })],
        positions: [position({ id: 1, pl: 12.5 }), position({ id: 2, pair: "tETHUSD", amount: -2, pl: -3 })],
        wallets: [
          wallet("exchange", "BTC", 1.5, 1),
          wallet("exchange", "USD", 25000, 24000),
          wallet("margin", "USD", 100),
        ],
        balance: { aum: 26000, aumNet: 25900 },
      }),
    );
    updateSetting("order_filters", { pair: "ALL" });
    await page.viewport(1280, 640);
    for (const mode of ["dark", "light"] as const) {
      applyTheme(document.documentElement, { name: "default", mode, scheme: "default" }, true);
      const screen = await render(
        <I18nProvider i18n={i18n}>
          <TablesServicesContext value={services}>
            <div style={{ display: "grid", gridTemplateColumns: "820px 420px", gap: 8, width: 1248 }}>
              <div style={{ height: 320 }}>
                <OrdersWidget {...WIDGET} />
              </div>
              <div style={{ height: 320 }}>
                <BalancesWidget {...WIDGET} />
              </div>
              <div style={{ height: 200 }}>
                <OwnTradesWidget {...WIDGET} />
              </div>
              <div style={{ height: 200 }}>
                <PositionsWidget {...WIDGET} />
              </div>
            </div>
          </TablesServicesContext>
        </I18nProvider>,
      );
      await expect.poll(() => rowIds("orders").length).toBe(4);
      await page.getByRole("button", { name: "Edit order 12" }).click();
      await page.getByTestId("cancel-pair").click();
      await page.screenshot({ path: `../../../../../test-results/shots/tables-${mode}.png` });
      await page.getByTestId("tab-order-history").click();
      await page.screenshot({ path: `../../../../../test-results/shots/tables-history-${mode}.png` });
      await screen.unmount();
    }
  });

  it("takes screenshots at the minimum size and of the sign-in call", async () => {
    await page.viewport(1280, 640);
    const minW = Math.round((1280 / 24) * ordersWidgetDef.minSize.w);
    const minH = 24 * ordersWidgetDef.minSize.h;
    for (const mode of ["dark", "light"] as const) {
      applyTheme(document.documentElement, { name: "default", mode, scheme: "default" }, true);
      signIn(accountView({ orders: OPEN }));
      const screen = await render(
        <I18nProvider i18n={i18n}>
          <TablesServicesContext value={services}>
            <div style={{ display: "flex", gap: 8 }}>
              <div style={{ width: minW, height: minH }}>
                <OrdersWidget {...WIDGET} />
              </div>
              <div style={{ width: minW, height: minH }}>
                <BalancesWidget {...WIDGET} />
              </div>
            </div>
          </TablesServicesContext>
        </I18nProvider>,
      );
      await expect.poll(() => rowIds("orders").length).toBe(3);
      await page.screenshot({ path: `../../../../../test-results/shots/tables-min-${mode}.png` });
      accountStore.link = "signed-out";
      await expect.poll(() => document.querySelectorAll('[data-testid="sign-in-prompt"]').length).toBe(2);
      await page.screenshot({ path: `../../../../../test-results/shots/tables-signed-out-${mode}.png` });
      await screen.unmount();
    }
  });
});
