import { I18nProvider } from "@lingui/react";
import { ref } from "valtio";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { page } from "vitest/browser";
import { render } from "vitest-browser-react";
import type { OrderAck, OrderRequest, Wallet } from "../../../../protocol";
import { activateLocale, i18n } from "../../../i18n";
import { resetSettings } from "../../../settings/store";
import { accountView } from "../../../test-support/account";
import { applyTheme } from "../../../theme/theme";
import { accountStore } from "../../account-store";
import { orderDraft } from "../../desk-state";
import type { DerivTermsGate } from "./deriv-terms";
import { OrderFormPanel, type OrderFormDeps } from "./index";

const OK: OrderAck = {
  ok: true,
  status: "SUCCESS",
  text: "Submitting limit buy order",
  orderIds: [7],
  localError: null,
};
const PAIR = "BTCF0:USTF0";

function wallet(type: string, currency: string, available: number): Wallet {
  return { type, currency, balance: available, available, interest: null, description: null, meta: null };
}

/** A terms gate over an in-memory flag, recording its calls. */
function gate(initial = false, stores = true) {
  let accepted = initial;
  const calls: string[] = [];
  const g: DerivTermsGate = {
    accepted: () => {
      calls.push("accepted");
      return Promise.resolve(accepted);
    },
    accept: () => {
      calls.push("accept");
      accepted = stores;
      return Promise.resolve(stores);
    },
  };
  return { gate: g, calls };
}

function deps(submit: (o: OrderRequest) => Promise<OrderAck>, derivTerms?: DerivTermsGate): OrderFormDeps {
  return {
    submit,
    watchQuote: (_symbol, onQuote) => onQuote({ last: 100, bid: 99.5, ask: 100.5 }),
    loadLimits: () => Promise.resolve(new Map([[PAIR, { minAmount: 0.0001, maxAmount: 2000 }]])),
    now: () => Date.now(),
    currentPath: () => `/t/${PAIR}`,
    ...(derivTerms ? { derivTerms } : {}),
  };
}

async function mount(d: OrderFormDeps) {
  const screen = await render(
    <I18nProvider i18n={i18n}>
      <div style={{ width: 320, height: 720 }}>
        <OrderFormPanel widgetKey="widget/order-form/1" pair={PAIR} symbol={`t${PAIR}`} deps={d} />
      </div>
    </I18nProvider>,
  );
  await expect.element(page.getByTestId("order-form")).toBeVisible();
  return screen;
}

async function fillOrder(): Promise<void> {
  await page.getByTestId("price").fill("100");
  await page.getByTestId("amount").fill("2");
}

beforeAll(async () => {
  await activateLocale("en");
  applyTheme(document.documentElement, { name: "default", mode: "dark", scheme: "default" }, true);
});

beforeEach(() => {
  resetSettings();
  orderDraft.price = "";
  orderDraft.amount = "";
  orderDraft.side = "buy";
  accountStore.link = "live";
  accountStore.view = ref(accountView({ wallets: [wallet("exchange", "UST", 50), wallet("margin", "USTF0", 300)] }));
});

afterEach(() => {
  accountStore.link = "signed-out";
  accountStore.view = null;
});

describe("order form on a perpetual", () => {
  it("shows the derivatives wallet's collateral and the margin an order takes at its leverage", async () => {
    await mount(deps(() => Promise.resolve(OK)));
    await expect.element(page.getByTestId("collateral")).toHaveTextContent("300 USTF0");
    await fillOrder();
    // 2 × 100 at 10×: 20 of collateral; the buying power is the collateral times the leverage.
    await expect.element(page.getByTestId("margin-needed")).toHaveTextContent("20 USTF0");
    await expect.element(page.getByTestId("available")).toHaveTextContent("Available 3000 USTF0");
    await page.getByTestId("leverage").fill("4");
    await expect.element(page.getByTestId("margin-needed")).toHaveTextContent("50 USTF0");
    expect(page.getByTestId("no-collateral").query()).toBeNull();
  });

  it("asks to fund the derivatives wallet when it is empty", async () => {
    accountStore.view = ref(accountView({ wallets: [wallet("exchange", "UST", 50)] }));
    await mount(deps(() => Promise.resolve(OK)));
    await expect.element(page.getByTestId("collateral")).toHaveTextContent("—");
    await expect
      .element(page.getByTestId("no-collateral"))
      .toHaveTextContent("Move USDt to your derivatives wallet to trade.");
  });

  it("shows the terms, then the welcome, before the first order, and not again", async () => {
    const submit = vi.fn((_o: OrderRequest) => Promise.resolve(OK));
    const g = gate();
    await page.viewport(700, 760);
    await mount(deps(submit, g.gate));
    await fillOrder();
    await page.getByTestId("submit-order").click();
    const terms = page.getByRole("dialog", { name: "Derivatives terms" });
    await expect.element(terms).toBeVisible();
    expect(page.getByTestId("order-confirm").query()).toBeNull();
    const accept = page.getByRole("button", { name: "Accept" });
    await expect.element(accept).toBeDisabled();
    await page.screenshot({ path: "../../../../../test-results/shots/deriv-terms.png" });
    await page.getByLabelText("I have read and accept the derivatives terms").click();
    await accept.click();
    await expect.element(page.getByRole("dialog", { name: "Welcome to derivatives" })).toBeVisible();
    await page.screenshot({ path: "../../../../../test-results/shots/deriv-welcome.png" });
    await page.getByRole("button", { name: "Continue" }).click();
    await expect.element(page.getByTestId("confirm-lev")).toHaveTextContent("10×");
    await page.getByTestId("confirm-order").click();
    await expect.poll(() => submit.mock.calls.length).toBe(1);
    expect(submit.mock.calls[0]?.[0]).toEqual({
      type: "LIMIT",
      symbol: `t${PAIR}`,
      amount: "2",
      price: "100",
      lev: 10,
    });
    expect(g.calls).toEqual(["accepted", "accept"]);

    await fillOrder();
    await page.getByTestId("submit-order").click();
    await expect.element(page.getByTestId("order-confirm")).toBeVisible();
    expect(page.getByTestId("deriv-terms").query()).toBeNull();
  });

  it("cancelling the terms sends nothing; an acceptance not stored stays on the terms", async () => {
    const submit = vi.fn((_o: OrderRequest) => Promise.resolve(OK));
    await mount(deps(submit, gate(false, false).gate));
    await fillOrder();
    await page.getByTestId("submit-order").click();
    await page.getByLabelText("I have read and accept the derivatives terms").click();
    await page.getByRole("button", { name: "Accept" }).click();
    await expect.element(page.getByRole("alert")).toHaveTextContent("Your acceptance could not be saved. Try again.");
    await expect.element(page.getByRole("dialog", { name: "Derivatives terms" })).toBeVisible();
    await page.getByRole("button", { name: "Cancel" }).click();
    expect(page.getByTestId("deriv-terms").query()).toBeNull();
    expect(page.getByTestId("order-confirm").query()).toBeNull();
    expect(submit).not.toHaveBeenCalled();
  });

  it("tells a resident of Spain plainly that derivatives are not offered to them", async () => {
    const refused: OrderAck = {
      ok: false,
      status: "ERROR",
      text: "Invalid order: derivatives trading is not available to residents of Spain",
      orderIds: [],
      localError: null,
    };
    await mount(deps(() => Promise.resolve(refused), gate(true).gate));
    await fillOrder();
    await page.getByTestId("submit-order").click();
    await page.getByTestId("confirm-order").click();
    await expect
      .element(page.getByTestId("order-result"))
      .toHaveTextContent("Derivatives trading is not available to residents of Spain.");
    await page.screenshot({ path: "../../../../../test-results/shots/deriv-spain.png" });
  });
});
