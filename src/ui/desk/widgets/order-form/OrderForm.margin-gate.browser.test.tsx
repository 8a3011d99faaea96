/**
 * The order form in a platform variant without margin (jp): no trading-context choice, and a
 * stored "margin" trade type still places a spot order (docs/product-rules.md#margin-positions).
 */
import { I18nProvider } from "@lingui/react";
import { ref } from "valtio";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { page } from "vitest/browser";
import { render } from "vitest-browser-react";
import type { OrderAck, OrderRequest } from "../../../../protocol";
import { defaultConfig, setStaticConfig } from "../../../config";
import { activateLocale, i18n } from "../../../i18n";
import { resetSettings, updateSetting } from "../../../settings/store";
import { accountView } from "../../../test-support/account";
import { accountStore } from "../../account-store";
import { orderDraft } from "../../desk-state";
import { OrderFormPanel } from "./index";

const OK: OrderAck = { ok: true, status: "SUCCESS", text: "ok", orderIds: [7], localError: null };

beforeAll(async () => {
  await activateLocale("en");
  setStaticConfig({ ...defaultConfig(location.origin), platform: "jp" });
});

afterAll(() => {
  setStaticConfig(defaultConfig(location.origin));
  accountStore.link = "signed-out";
  accountStore.view = null;
});

describe("order form without the margin feature", () => {
  it("offers no margin context and places a stored margin choice as a spot order", async () => {
    resetSettings();
    updateSetting("trade_type", "margin");
    orderDraft.price = "";
    orderDraft.amount = "";
    orderDraft.side = "buy";
    accountStore.link = "live";
    accountStore.view = ref(
      accountView({
        wallets: [
          {
            type: "exchange",
            currency: "JPY",
            balance: 1e9,
            available: 1e9,
            interest: null,
            description: null,
            meta: null,
          },
        ],
      }),
    );
    const submit = vi.fn((_o: OrderRequest) => Promise.resolve(OK));
    await render(
      <I18nProvider i18n={i18n}>
        <div style={{ width: 300, height: 620 }}>
          <OrderFormPanel
            widgetKey="widget/order-form/1"
            pair="BTCJPY"
            symbol="tBTCJPY"
            deps={{
              submit,
              watchQuote: (_symbol, onQuote) => onQuote({ last: 100, bid: 99, ask: 101 }),
              loadLimits: () => Promise.resolve(new Map([["BTCJPY", { minAmount: 0.0001, maxAmount: 2000 }]])),
              now: () => Date.now(),
              currentPath: () => "/t/BTCJPY",
            }}
          />
        </div>
      </I18nProvider>,
    );
    await expect.element(page.getByTestId("order-form")).toBeVisible();
    expect(page.getByRole("radiogroup", { name: "Trading context" }).query()).toBeNull();
    expect(page.getByTestId("context-margin").query()).toBeNull();
    await page.getByTestId("price").fill("100");
    await page.getByTestId("amount").fill("0.5");
    await page.getByTestId("submit-order").click();
    await page.getByTestId("confirm-order").click();
    await expect.poll(() => submit.mock.calls.length).toBe(1);
    expect(submit.mock.calls[0]?.[0].type).toBe("EXCHANGE LIMIT");
  });
});
