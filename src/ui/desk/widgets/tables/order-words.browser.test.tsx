/**
 * The desk's order words in the tables: types, statuses and sides in the user's language, never the
 * exchange's codes, and "—" for the average price of an order with no fill.
 */
import { I18nProvider } from "@lingui/react";
import type { ReactNode } from "react";
import { ref } from "valtio";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { page } from "vitest/browser";
import { render } from "vitest-browser-react";
import type { AccountView, Order, OrderAck } from "../../../../protocol";
import { activateLocale, i18n } from "../../../i18n";
import { resetSettings } from "../../../settings/store";
import { accountView } from "../../../test-support/account";
import { order, trade } from "../../../test-support/account-records";
import { accountStore } from "../../account-store";
import { orderStatusWord, orderTypeWord } from "../../order-words";
import { OrdersWidget, OwnTradesWidget } from "./index";
import { TablesServicesContext, type TablesServices } from "./services";

const OK: OrderAck = { ok: true, status: "SUCCESS", text: "", orderIds: [], localError: null };
const services: TablesServices = {
  orders: {
    cancelOrder: () => Promise.resolve(OK),
    cancelOrders: () => Promise.resolve(OK),
    updateOrder: () => Promise.resolve(OK),
  },
  fetchHistory: () => Promise.resolve([]),
};
const WIDGET = { widgetKey: "widget/orders/1", pair: "BTCUSD", symbol: "tBTCUSD" } as const;

function signIn(view: AccountView): void {
  accountStore.link = "live";
  accountStore.view = ref(view);
}

function mount(node: ReactNode) {
  return render(
    <I18nProvider i18n={i18n}>
      <TablesServicesContext value={services}>
        <div style={{ width: 1000, height: 600 }}>{node}</div>
      </TablesServicesContext>
    </I18nProvider>,
  );
}

/** The text of one cell, found by its row id and its column's id. */
function cell(tableId: string, row: number, column: string): string {
  const table = document.querySelector(`[data-testid="table-${tableId}"]`);
  const headers = [...(table?.querySelectorAll("thead th") ?? [])] as HTMLElement[];
  const at = headers.findIndex((th) => th.dataset["column"] === column);
  const td = table?.querySelectorAll(`tbody tr[data-row="${row}"] td`)[at];
  return td?.textContent?.trim() ?? "";
}

const OPEN: Order[] = [
  order({ id: 1, amount: 0.5, original: 1, type: "EXCHANGE LIMIT", status: "PARTIALLY FILLED @ 100.0(0.5)" }),
  order({ id: 2, amount: -1, type: "STOP LIMIT", status: "ACTIVE", placedId: 9 }),
];
const CLOSED: Order[] = [
  // Cancelled before any fill: the exchange's average price is 0.
  { ...order({ id: 3, amount: 1, original: 1, status: "CANCELED", updated: 3000 }), price_average: 0 },
  {
    ...order({
      id: 4,
      amount: 0,
      original: -2,
      type: "EXCHANGE MARKET",
      status: "EXECUTED @ 99.5(-2.0)",
      updated: 4000,
    }),
    price_average: 99.5,
  },
];

beforeEach(async () => {
  resetSettings();
  await activateLocale("en");
});

afterEach(() => {
  accountStore.link = "signed-out";
  accountStore.view = null;
});

afterAll(async () => {
  await activateLocale("en");
});

describe("order words in the desk's tables", () => {
  it("names open orders' types, statuses and sides in words", async () => {
    signIn(accountView({ orders: OPEN }));
    await mount(<OrdersWidget {...WIDGET} />);
    await expect.poll(() => cell("orders", 1, "type")).toBe("Limit");
    expect(cell("orders", 1, "status")).toBe("Partially filled");
    expect(cell("orders", 2, "type")).toBe("OCO Stop limit");
    expect(cell("orders", 2, "status")).toBe("Active");
    expect(cell("orders", 2, "amount")).toBe("-1 Sell");
    expect(document.body.textContent).not.toMatch(/LIMIT|ACTIVE|PARTIALLY/);
  });

  it("shows closed orders' statuses in words and — for an average price with no fill", async () => {
    signIn(accountView({ history: { tBTCUSD: CLOSED } }));
    await mount(<OrdersWidget {...WIDGET} />);
    await page.getByTestId("tab-order-history").click();
    await expect.poll(() => cell("order_history", 3, "status")).toBe("Cancelled");
    expect(cell("order_history", 3, "average")).toBe("—");
    expect(cell("order_history", 4, "status")).toBe("Executed");
    expect(cell("order_history", 4, "type")).toBe("Market");
    expect(cell("order_history", 4, "average")).toBe("99.500");
    expect(document.body.textContent).not.toMatch(/CANCELED|EXECUTED|MARKET/);
  });

  it("follows the user's language, own trades included", async () => {
    await activateLocale("ru");
    signIn(accountView({ orders: OPEN, trades: [trade({ id: 7, amount: 0.5, type: "EXCHANGE STOP" })] }));
    await mount(
      <>
        <OrdersWidget {...WIDGET} />
        <OwnTradesWidget {...WIDGET} widgetKey="widget/own-trades/1" />
      </>,
    );
    await expect.poll(() => cell("orders", 2, "status")).toBe(orderStatusWord(i18n, "ACTIVE"));
    expect(cell("orders", 2, "status")).not.toBe("Active");
    expect(cell("orders", 1, "type")).toBe(orderTypeWord(i18n, "LIMIT"));
    expect(cell("own_trades", 7, "type")).toBe(orderTypeWord(i18n, "STOP"));
    expect(cell("own_trades", 7, "type")).not.toBe("Stop");
  });

  it("names a block trade at an OTC quote, not its code", async () => {
    await activateLocale("en");
    signIn(accountView({ trades: [trade({ id: 9, amount: 0.05, type: "EXCHANGE OTC" })] }));
    await mount(<OwnTradesWidget {...WIDGET} widgetKey="widget/own-trades/1" />);
    await expect.poll(() => cell("own_trades", 9, "type")).toBe("OTC");
    expect(orderTypeWord(i18n, "EXCHANGE OTC", { withContext: true })).toBe("OTC · Exchange");
  });
});
