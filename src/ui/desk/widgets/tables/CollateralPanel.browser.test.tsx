import { I18nProvider } from "@lingui/react";
import { ref } from "valtio";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { page } from "vitest/browser";
import { render } from "vitest-browser-react";
import type { OrderAck, Position } from "../../../../protocol";
import { activateLocale, i18n } from "../../../i18n";
import { resetSettings } from "../../../settings/store";
import { accountView } from "../../../test-support/account";
import { applyTheme } from "../../../theme/theme";
import { accountStore } from "../../account-store";
import { notices } from "../../notices";
import { PositionServicesContext, type PositionServices } from "./position-actions";
import { PositionsWidget } from "./PositionsWidget";

const OK: OrderAck = { ok: true, status: "SUCCESS", text: "ok", orderIds: [], localError: null };

const PERP: Position = {
  pair: "tBTCF0:USTF0",
  status: "ACTIVE",
  amount: 0.02,
  basePrice: 86_000,
  swap: 0,
  swapType: 0,
  pl: 1,
  plPercent: 0.5,
  liqPrice: 78_000,
  leverage: 10,
  id: 31,
  mtsCreate: null,
  mtsUpdate: null,
  posType: 1,
  collateral: 172,
  minCollateral: 9,
  maxCollateral: null,
};

/** The exchange's collateral calls: limits [9, 400]; `set` answered by `setReply`. */
function services(setReply: { status: number; body: unknown }) {
  const calls: { path: string; body: unknown }[] = [];
  const s: PositionServices = {
    submitOrder: () => Promise.resolve(OK),
    call: (path, body) => {
      calls.push({ path, body });
      if (path === "/v2/auth/calc/deriv/collateral/limits") return Promise.resolve({ status: 200, body: [9, 400] });
      return Promise.resolve(setReply);
    },
  };
  return { s, calls };
}

function mount(s: PositionServices) {
  return render(
    <I18nProvider i18n={i18n}>
      <PositionServicesContext value={s}>
        <div style={{ width: 1000, height: 360 }}>
          <PositionsWidget widgetKey="widget/positions/main" pair="BTCF0:USTF0" symbol="tBTCF0:USTF0" />
        </div>
      </PositionServicesContext>
    </I18nProvider>,
  );
}

beforeAll(async () => {
  await activateLocale("en");
  applyTheme(document.documentElement, { name: "default", mode: "dark", scheme: "default" }, true);
});

beforeEach(() => {
  resetSettings();
  notices.history = [];
  accountStore.link = "live";
  accountStore.view = ref(accountView({ positions: [PERP] }));
});

afterEach(() => {
  accountStore.link = "signed-out";
  accountStore.view = null;
});

describe("a derivatives position's collateral", () => {
  it("is set within the exchange's limits, checked before it is sent", async () => {
    const { s, calls } = services({ status: 200, body: [[1]] });
    await page.viewport(1000, 420);
    const screen = await mount(s);
    // A derivative position has no increase or claim (margin only), but a collateral action.
    expect(page.getByRole("button", { name: "Increase position BTCF0/USTF0" }).query()).toBeNull();
    await page.getByRole("button", { name: "Set collateral BTCF0/USTF0" }).click();
    const panel = page.getByRole("dialog", { name: "Collateral of BTCF0/USTF0" });
    await expect.element(panel.getByText("Min 9 USTF0 · Max 400 USTF0")).toBeVisible();
    const amount = page.getByTestId("collateral-amount");
    await expect.element(amount).toHaveValue("172");
    await page.screenshot({ path: "../../../../../test-results/shots/deriv-collateral.png" });

    await amount.fill("5");
    await page.getByRole("button", { name: "Set", exact: true }).click();
    await expect.element(page.getByTestId("collateral-error")).toHaveTextContent("Below the minimum of 9 USTF0.");
    await amount.fill("500");
    await page.getByRole("button", { name: "Set", exact: true }).click();
    await expect.element(page.getByTestId("collateral-error")).toHaveTextContent("At most 400 USTF0.");
    expect(calls.map((c) => c.path)).toEqual(["/v2/auth/calc/deriv/collateral/limits"]);

    await amount.fill("250");
    await page.getByRole("button", { name: "Set", exact: true }).click();
    await expect.poll(() => page.getByTestId("collateral-panel").query()).toBeNull();
    expect(calls[1]).toEqual({
      path: "/v2/auth/w/deriv/collateral/set",
      body: { symbol: "tBTCF0:USTF0", collateral: 250 },
    });
    expect(notices.history[0]?.text).toBe("Position BTCF0/USTF0: collateral set to 250 USTF0");
    await screen.unmount();
  });

  it("keeps the exchange's refusal in the panel, in the user's words", async () => {
    const { s } = services({ status: 500, body: ["error", 10001, "collateral: insufficient balance"] });
    const screen = await mount(s);
    await page.getByRole("button", { name: "Set collateral BTCF0/USTF0" }).click();
    await page.getByTestId("collateral-amount").fill("300");
    await page.getByRole("button", { name: "Set", exact: true }).click();
    await expect.element(page.getByRole("alert")).toHaveTextContent("Not enough in your derivatives wallet.");
    await expect.element(page.getByTestId("collateral-panel")).toBeVisible();
    await screen.unmount();
  });
});
