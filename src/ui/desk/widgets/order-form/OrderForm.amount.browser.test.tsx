/**
 * After a placed order the form clears its amount (a second click must not send the same order
 * again); the `order_form_keep_amount` setting keeps it; a refused order keeps what was typed.
 */
import { I18nProvider } from "@lingui/react";
import { ref } from "valtio";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { page } from "vitest/browser";
import { render } from "vitest-browser-react";
import type { OrderAck, OrderRequest } from "../../../../protocol";
import { activateLocale, i18n } from "../../../i18n";
import { resetSettings, updateSetting } from "../../../settings/store";
import { accountView } from "../../../test-support/account";
import { accountStore } from "../../account-store";
import { orderDraft } from "../../desk-state";
import { OrderFormPanel, type OrderFormDeps } from "./index";

const OK: OrderAck = { ok: true, status: "SUCCESS", text: "", orderIds: [42], localError: null };
const REFUSED: OrderAck = { ok: false, status: "ERROR", text: "Invalid order", orderIds: [], localError: null };

function deps(submit: (o: OrderRequest) => Promise<OrderAck>): OrderFormDeps {
  return {
    submit,
    watchQuote: (_symbol, onQuote) => onQuote({ last: 100, bid: 99.5, ask: 100.5 }),
    loadLimits: () => Promise.resolve(new Map([["BTCUSD", { minAmount: 0.0001, maxAmount: 2000 }]])),
    now: () => Date.now(),
    currentPath: () => "/t/BTCUSD",
  };
}

async function mount(d: OrderFormDeps): Promise<void> {
  await render(
    <I18nProvider i18n={i18n}>
      <div style={{ width: 300, height: 620 }}>
        <OrderFormPanel widgetKey="widget/order-form/1" pair="BTCUSD" symbol="tBTCUSD" deps={d} />
      </div>
    </I18nProvider>,
  );
  await expect.element(page.getByTestId("order-form")).toBeVisible();
}

const input = (id: string) => page.getByTestId(id).element() as HTMLInputElement;

/** Types a limit buy and confirms it; resolves once the form shows the exchange's answer. */
async function placeOrder(submit: ReturnType<typeof vi.fn>): Promise<void> {
  await page.getByTestId("price").fill("100");
  await page.getByTestId("amount").fill("0.5");
  await expect.poll(() => input("total").value).toBe("50");
  await page.getByTestId("submit-order").click();
  await page.getByTestId("confirm-order").click();
  await expect.poll(() => submit.mock.calls.length).toBe(1);
  await expect.element(page.getByTestId("order-result")).toBeVisible();
}

beforeAll(async () => {
  await activateLocale("en");
});

beforeEach(() => {
  resetSettings();
  orderDraft.price = "";
  orderDraft.amount = "";
  orderDraft.side = "buy";
  accountStore.link = "live";
  accountStore.view = ref(accountView());
});

afterEach(() => {
  accountStore.link = "signed-out";
  accountStore.view = null;
});

describe("order form amount after a submit", () => {
  it("clears the amount and total after a placed order, keeping the price", async () => {
    const submit = vi.fn((_o: OrderRequest) => Promise.resolve(OK));
    await mount(deps(submit));
    await placeOrder(submit);
    await expect.poll(() => input("amount").value).toBe("");
    expect(input("total").value).toBe("");
    expect(input("price").value).toBe("100");
    expect(orderDraft.amount).toBe("");
  });

  it("keeps the amount when the setting says so", async () => {
    updateSetting("order_form_keep_amount", true);
    const submit = vi.fn((_o: OrderRequest) => Promise.resolve(OK));
    await mount(deps(submit));
    await placeOrder(submit);
    await expect.poll(() => page.getByTestId("order-result").element().textContent).toContain("Order placed");
    expect(input("amount").value).toBe("0.5");
  });

  it("keeps the amount of a refused order", async () => {
    const submit = vi.fn((_o: OrderRequest) => Promise.resolve(REFUSED));
    await mount(deps(submit));
    await placeOrder(submit);
    await expect
      .poll(() => page.getByTestId("order-result").element().textContent)
      .toContain("The exchange refused the order");
    expect(input("amount").value).toBe("0.5");
  });
});
