import { I18nProvider } from "@lingui/react";
import { ref } from "valtio";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { page, userEvent } from "vitest/browser";
import { render } from "vitest-browser-react";
import type { AccountView, OrderAck, OrderRequest } from "../../../../protocol";
import { activateLocale, i18n } from "../../../i18n";
import { resetSettings, settings } from "../../../settings/store";
import { applyTheme } from "../../../theme/theme";
import { accountStore } from "../../account-store";
import { fillOrderForm, orderDraft } from "../../desk-state";
import { notices } from "../../notices";
import type { MarketQuote } from "./order-model";
import { focusOrderForm, OrderFormPanel, orderFormWidget, type OrderFormDeps } from "./index";
import { accountView } from "../../../test-support/account";

const OK: OrderAck = {
  ok: true,
  status: "SUCCESS",
  text: "Submitting exchange limit buy order for 0.5 BTC.",
  orderIds: [42],
  localError: null,
};

const QUOTE: MarketQuote = { last: 100, bid: 99.5, ask: 100.5 };

function account(wallets: { currency: string; available: number }[]): AccountView {
  return accountView({
    wallets: wallets.map((w) => ({
      type: "exchange",
      currency: w.currency,
      balance: w.available,
      available: w.available,
      interest: null,
      description: null,
      meta: null,
    })),
  });
}

function deps(submit: (o: OrderRequest) => Promise<OrderAck>, overrides: Partial<OrderFormDeps> = {}): OrderFormDeps {
  return {
    submit,
    watchQuote: (_symbol, onQuote) => onQuote(QUOTE),
    loadLimits: () => Promise.resolve(new Map([["BTCUSD", { minAmount: 0.0001, maxAmount: 2000 }]])),
    now: () => Date.now(),
    currentPath: () => "/t/BTCUSD",
    ...overrides,
  };
}

async function mount(d: OrderFormDeps, width = 300, height = 620, pair = "BTCUSD") {
  const screen = await render(
    <I18nProvider i18n={i18n}>
      <div style={{ width, height }}>
        <OrderFormPanel widgetKey="widget/order-form/1" pair={pair} symbol={`t${pair}`} deps={d} />
      </div>
    </I18nProvider>,
  );
  await expect.element(page.getByTestId("order-form")).toBeVisible();
  return screen;
}

const field = (id: string) => page.getByTestId(id);
const input = (id: string) => field(id).element() as HTMLInputElement;

beforeAll(async () => {
  await activateLocale("en");
});

beforeEach(() => {
  resetSettings();
  orderDraft.price = "";
  orderDraft.amount = "";
  orderDraft.side = "buy";
  accountStore.link = "live";
  accountStore.view = ref(
    account([
      { currency: "USD", available: 1000 },
      { currency: "BTC", available: 0.8 },
    ]),
  );
});

afterEach(() => {
  accountStore.link = "signed-out";
  accountStore.view = null;
});

describe("order form widget", () => {
  it("is a 24-column grid widget with a localized title", () => {
    expect(orderFormWidget.type).toBe("order-form");
    expect(i18n._(orderFormWidget.title)).toBe("Order form");
    expect(orderFormWidget.minSize.w).toBeLessThanOrEqual(orderFormWidget.defaultSize.w);
    expect(orderFormWidget.defaultSize.w).toBeLessThanOrEqual(24);
  });

  it("shows validation messages beside the fields and blocks the submit", async () => {
    const submit = vi.fn(() => Promise.resolve(OK));
    await mount(deps(submit));
    await field("amount").fill("abc");
    await expect.element(page.getByText("Enter a positive number")).toBeVisible();
    const amount = input("amount");
    expect(amount.getAttribute("aria-invalid")).toBe("true");
    const describedBy = amount.getAttribute("aria-describedby") ?? "";
    expect(document.getElementById(describedBy.split(" ")[0] ?? "")?.textContent).toBe("Enter a positive number");

    await field("submit-order").click();
    // The price was never touched: the submit reveals its error too, and focuses the first bad field.
    await expect.element(page.getByText("Required")).toBeVisible();
    await expect.element(page.getByTestId("form-invalid")).toBeVisible();
    expect(document.activeElement).toBe(input("price"));
    expect(page.getByTestId("order-confirm").query()).toBeNull();
    expect(submit).not.toHaveBeenCalled();

    // A stop on the wrong side of the market.
    await field("order-kind").selectOptions("STOP");
    await field("price").fill("95");
    await field("amount").fill("0.1");
    await expect.element(page.getByText("A buy stop must be above the last price (100)")).toBeVisible();
    await field("submit-order").click();
    expect(submit).not.toHaveBeenCalled();

    await field("amount").fill("0.00001");
    await expect.element(page.getByText("The minimum order size is 0.0001")).toBeVisible();
  });

  it("submits a valid limit order with the exact OrderRequest after the confirmation", async () => {
    const submit = vi.fn((_o: OrderRequest) => Promise.resolve(OK));
    await mount(deps(submit));
    await field("price").fill("100.50");
    await field("amount").fill("0.5");
    await expect.poll(() => input("total").value).toBe("50.25");
    await field("submit-order").click();
    const dialog = page.getByTestId("order-confirm");
    await expect.element(dialog).toBeVisible();
    await expect.element(page.getByTestId("confirm-amount")).toHaveTextContent("0.5 BTC");
    await expect.element(page.getByTestId("confirm-total")).toHaveTextContent("50.25 USD");
    await expect.element(page.getByTestId("confirm-fee")).toHaveTextContent("≈ 0.001 BTC (0.2%)");
    expect(submit).not.toHaveBeenCalled();
    await page.getByTestId("confirm-order").click();
    await expect.poll(() => submit.mock.calls.length).toBe(1);
    expect(submit.mock.calls[0]?.[0]).toEqual({
      type: "EXCHANGE LIMIT",
      symbol: "tBTCUSD",
      amount: "0.5",
      price: "100.5",
    });
    await expect
      .element(page.getByTestId("order-result"))
      .toHaveTextContent("Order placed: Buy 0.5 BTC (Limit) (ID 42)");
    expect(notices.toasts.some((n) => n.kind === "orders" && n.text.includes("ID 42"))).toBe(true);
    expect(page.getByTestId("order-confirm").query()).toBeNull();
  });

  it("submits with Enter and shows the exchange's refusal inline", async () => {
    const refusal: OrderAck = {
      ok: false,
      status: "ERROR",
      text: "Invalid order: not enough exchange balance for -2 tBTCUSD at 101",
      orderIds: [],
      localError: null,
    };
    const submit = vi.fn((_o: OrderRequest) => Promise.resolve(refusal));
    await mount(deps(submit));
    await field("side-sell").click();
    await field("price").fill("101");
    await field("amount").fill("2");
    // The wallet holds 0.8 BTC: a warning, not a block (the exchange has the last word).
    await expect.element(page.getByText(/More than your available balance \(0\.8 BTC\)/)).toBeVisible();
    input("amount").focus();
    await userEvent.keyboard("{Enter}");
    await expect.element(page.getByTestId("order-confirm")).toBeVisible();
    expect(document.activeElement).toBe(page.getByTestId("confirm-order").element());
    await userEvent.keyboard("{Enter}");
    await expect.poll(() => submit.mock.calls.length).toBe(1);
    expect(submit.mock.calls[0]?.[0]).toMatchObject({ amount: "-2", price: "101", type: "EXCHANGE LIMIT" });
    const result = page.getByTestId("order-result");
    await expect.element(result).toHaveTextContent(`The exchange refused the order: ${refusal.text}`);
    expect(result.element().getAttribute("role")).toBe("alert");
  });

  it("fills a percentage of the available wallet balance", async () => {
    await mount(deps(() => Promise.resolve(OK)));
    await expect.element(page.getByTestId("available")).toHaveTextContent("Available 1000 USD");
    await field("price").fill("100");
    await field("percent-25").click();
    expect(input("amount").value).toBe("2.5");
    expect(input("total").value).toBe("250");
    await field("percent-100").click();
    expect(input("amount").value).toBe("10");
    // Sells spend base: 50 % of 0.8 BTC.
    await field("side-sell").click();
    await expect.element(page.getByTestId("available")).toHaveTextContent("Available 0.8 BTC");
    await field("percent-50").click();
    expect(input("amount").value).toBe("0.4");
    // A total typed by hand drives the amount.
    await field("total").fill("30");
    expect(input("amount").value).toBe("0.3");
  });

  it("shows the stop-order warning until it is acknowledged, and remembers it", async () => {
    const submit = vi.fn((_o: OrderRequest) => Promise.resolve(OK));
    await mount(deps(submit));
    await field("order-kind").selectOptions("STOP");
    await field("price").fill("110");
    await field("amount").fill("0.1");
    await field("submit-order").click();
    await expect.element(page.getByTestId("ack-stop")).toBeVisible();
    // Cancelled without ticking: it comes back next time.
    await page.getByRole("button", { name: "Cancel" }).click();
    await field("submit-order").click();
    await expect.element(page.getByTestId("ack-stop")).toBeVisible();
    await page.getByTestId("ack-stop").getByRole("checkbox").click();
    await page.getByTestId("confirm-order").click();
    await expect.poll(() => submit.mock.calls.length).toBe(1);
    expect(submit.mock.calls[0]?.[0]).toEqual({
      type: "EXCHANGE STOP",
      symbol: "tBTCUSD",
      amount: "0.1",
      price: "110",
    });
    expect(settings.ack_stop_order_warning).toBe(true);
    // A placed order cleared the amount (order_form_keep_amount is off): the next order types its own.
    await expect.poll(() => input("amount").value).toBe("");
    await field("amount").fill("0.1");
    await field("submit-order").click();
    await expect.element(page.getByTestId("order-confirm")).toBeVisible();
    expect(page.getByTestId("ack-stop").query()).toBeNull();
  });

  it("takes a book click: price, side and focus, with the interactive-book warning", async () => {
    await mount(deps(() => Promise.resolve(OK)));
    await field("order-kind").selectOptions("MARKET");
    fillOrderForm({ price: "99.5", side: "sell", focus: "amount" });
    await expect.poll(() => input("price")?.value).toBe("99.5");
    expect((field("order-kind").element() as HTMLSelectElement).value).toBe("LIMIT");
    expect(field("side-sell").element().getAttribute("aria-checked")).toBe("true");
    await expect.poll(() => document.activeElement).toBe(input("amount"));
    await userEvent.keyboard("0.2{Enter}");
    await expect.element(page.getByTestId("ack-book")).toBeVisible();
    await page.getByTestId("ack-book").getByRole("checkbox").click();
    await page.getByTestId("confirm-order").click();
    await expect.poll(() => settings.ack_interactive_book_order_warning).toBe(true);
    // The same price clicked again after editing it by hand is applied again.
    await field("price").fill("98");
    fillOrderForm({ price: "99.5" });
    await expect.poll(() => input("price").value).toBe("99.5");
    // A focus-only request keeps what the user chose.
    await field("side-buy").click();
    fillOrderForm({ focus: "price" });
    await expect.poll(() => document.activeElement).toBe(input("price"));
    expect(field("side-buy").element().getAttribute("aria-checked")).toBe("true");
  });

  it("switches side with Alt+B / Alt+S and the arrow keys", async () => {
    await mount(deps(() => Promise.resolve(OK)));
    input("amount").focus();
    await userEvent.keyboard("{Alt>}s{/Alt}");
    expect(field("side-sell").element().getAttribute("aria-checked")).toBe("true");
    await userEvent.keyboard("{Alt>}b{/Alt}");
    expect(field("side-buy").element().getAttribute("aria-checked")).toBe("true");
    (field("side-buy").element() as HTMLElement).focus();
    await userEvent.keyboard("{ArrowRight}");
    expect(field("side-sell").element().getAttribute("aria-checked")).toBe("true");
  });

  it("asks a signed-out visitor to sign in instead of submitting", async () => {
    accountStore.link = "signed-out";
    accountStore.view = null;
    const submit = vi.fn(() => Promise.resolve(OK));
    await mount(deps(submit));
    expect(page.getByTestId("submit-order").query()).toBeNull();
    const link = page.getByTestId("sign-in-link");
    await expect.element(link).toBeVisible();
    expect(link.element().getAttribute("href")).toBe("/login?back=%2Ft%2FBTCUSD");
    await field("price").fill("100");
    await field("amount").fill("1");
    input("amount").focus();
    await userEvent.keyboard("{Enter}");
    expect(page.getByTestId("order-confirm").query()).toBeNull();
    expect(submit).not.toHaveBeenCalled();
  });

  it("offers margin, taken by the embedded exchange too (no refusal note), and carries reduce-only", async () => {
    const submit = vi.fn((_o: OrderRequest) => Promise.resolve(OK));
    await mount(deps(submit));
    expect(page.getByTestId("margin-note").query()).toBeNull();
    await field("context-margin").click();
    expect(settings.trade_type).toBe("margin");
    // Reduce-only shows in the margin context: the form has re-rendered for it, without the note.
    await expect.element(page.getByTestId("flag-reduce-only")).toBeVisible();
    expect(page.getByTestId("margin-note").query()).toBeNull();
    await field("price").fill("100");
    await field("amount").fill("1");
    await field("flag-reduce-only").click();
    await field("submit-order").click();
    await page.getByTestId("confirm-order").click();
    await expect.poll(() => submit.mock.calls.length).toBe(1);
    expect(submit.mock.calls[0]?.[0]).toEqual({
      type: "LIMIT",
      symbol: "tBTCUSD",
      amount: "1",
      price: "100",
      flags: 1024,
    });
  });

  it("sends a leverage for derivatives, bounded to 1–100 and remembered", async () => {
    const submit = vi.fn((_o: OrderRequest) => Promise.resolve(OK));
    await mount(deps(submit), 300, 620, "BTCF0:USTF0");
    expect(input("leverage").value).toBe("10");
    expect(page.getByTestId("context-margin").query()).toBeNull();
    await field("leverage").fill("150");
    await expect.element(page.getByText("Leverage must be a whole number from 1 to 100")).toBeVisible();
    await field("price").fill("100");
    await field("amount").fill("1");
    await field("submit-order").click();
    expect(page.getByTestId("order-confirm").query()).toBeNull();
    expect(document.activeElement).toBe(input("leverage"));
    await field("leverage").fill("20");
    expect(settings.order_form_derivative_leverage).toBe(20);
    await field("submit-order").click();
    await expect.element(page.getByTestId("confirm-lev")).toHaveTextContent("20×");
    await page.getByTestId("confirm-order").click();
    await expect.poll(() => submit.mock.calls.length).toBe(1);
    expect(submit.mock.calls[0]?.[0]).toEqual({
      type: "LIMIT",
      symbol: "tBTCF0:USTF0",
      amount: "1",
      price: "100",
      lev: 20,
    });
  });

  it("is focused from elsewhere on the desk", async () => {
    // A figure left in the shared draft (another pair's, say) does not come back with a focus request.
    orderDraft.price = "123";
    await mount(deps(() => Promise.resolve(OK)));
    expect(input("price").value).toBe("");
    focusOrderForm("price");
    await expect.poll(() => document.activeElement).toBe(input("price"));
    expect(input("price").value).toBe("");
    await field("price").fill("101");
    focusOrderForm("amount");
    await expect.poll(() => document.activeElement).toBe(input("amount"));
    expect(input("price").value).toBe("101");
  });

  it("takes screenshots in the dark and light themes", async () => {
    await page.viewport(700, 760);
    for (const mode of ["dark", "light"] as const) {
      applyTheme(document.documentElement, { name: "default", mode, scheme: "default" }, true);
      orderDraft.side = "buy";
      const screen = await mount(
        deps(() => Promise.resolve(OK)),
        320,
        700,
      );
      await field("price").fill("95");
      await field("amount").fill("abc");
      await field("flag-oco").click();
      await field("oco-stop").fill("105");
      await field("flag-tif").click();
      await field("tif").fill("2099-12-31T23:30");
      await page.screenshot({ path: `../../../../../test-results/shots/order-form-${mode}.png` });
      await field("amount").fill("0.5");
      await field("submit-order").click();
      await expect.element(page.getByTestId("order-confirm")).toBeVisible();
      await page.screenshot({ path: `../../../../../test-results/shots/order-form-confirm-${mode}.png` });
      await page.getByRole("button", { name: "Cancel" }).click();
      await screen.unmount();
      accountStore.link = "signed-out";
      const derivative = await mount(
        deps(() => Promise.resolve(OK)),
        320,
        700,
        "BTCF0:USTF0",
      );
      await field("side-sell").click();
      await field("order-kind").selectOptions("STOP LIMIT");
      await field("price").fill("120");
      await page.screenshot({ path: `../../../../../test-results/shots/order-form-derivative-${mode}.png` });
      await derivative.unmount();
      accountStore.link = "live";
    }
    applyTheme(document.documentElement, { name: "default", mode: "dark", scheme: "default" }, true);
  });
});
