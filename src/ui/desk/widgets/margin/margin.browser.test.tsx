/**
 * The margin info widget and the positions table's margin actions, rendered with fake account
 * records and fake exchange calls: figures, the margin group, the liquidation warning, close and
 * claim behind a confirmation, and the increase form's checks and refusals (also in Russian).
 */
import { I18nProvider } from "@lingui/react";
import type { ReactNode } from "react";
import { ref } from "valtio";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { page } from "vitest/browser";
import { render } from "vitest-browser-react";
import {
  encodePositionIncreaseInfo,
  ORDER_FLAGS,
  userInfoCodec,
  type AccountView,
  type OrderAck,
  type OrderRequest,
  type Position,
} from "../../../../protocol";
import { activateLocale, i18n } from "../../../i18n";
import { session } from "../../../session";
import { resetSettings } from "../../../settings/store";
import { accountView } from "../../../test-support/account";
import { position } from "../../../test-support/account-records";
import { applyTheme } from "../../../theme/theme";
import { errorCodeText } from "../../../shell/error-message";
import { accountStore } from "../../account-store";
import { notices } from "../../notices";
import { PositionServicesContext, type PositionServices } from "../tables/position-actions";
import { PositionsWidget } from "../tables/PositionsWidget";
import { MarginWidget } from "./MarginWidget";

const OK: OrderAck = { ok: true, status: "SUCCESS", text: "Submitted", orderIds: [5], localError: null };
const WIDGET = { widgetKey: "widget/margin/main", pair: "BTCUSD", symbol: "tBTCUSD" } as const;

interface Fake extends PositionServices {
  readonly orders: OrderRequest[];
  readonly calls: { path: string; body: unknown }[];
}

/** Exchange calls answered from `answers` by path (the increase room 0.5 BTC by default). */
function fake(answers: Record<string, { status: number; body: unknown }> = {}): Fake {
  const orders: OrderRequest[] = [];
  const calls: { path: string; body: unknown }[] = [];
  const room = encodePositionIncreaseInfo({
    maxPos: 0.5,
    currentPos: 0.2,
    baseBalance: 0.5,
    fundingAvail: 0,
    tradableQuote: 1000,
    tradableQuoteTotal: 1000,
    tradableBase: 0.5,
    tradableBaseTotal: 0.5,
    fundingValue: 0,
    fundingRequired: 0,
    fundingValueCurrency: "USD",
    fundingRequiredCurrency: "BTC",
  });
  return {
    orders,
    calls,
    submitOrder: (order) => {
      orders.push(order);
      return Promise.resolve(OK);
    },
    call: (path, body) => {
      calls.push({ path, body });
      const answer = answers[path];
      if (answer) return Promise.resolve(answer);
      if (path.endsWith("/increase/info")) return Promise.resolve({ status: 200, body: room });
      return Promise.resolve({ status: 200, body: [0, "n", null, null, [], null, "SUCCESS", "ok"] });
    },
  };
}

let services: Fake;

function mount(node: ReactNode) {
  return render(
    <I18nProvider i18n={i18n}>
      <PositionServicesContext value={services}>
        <div style={{ width: 1000, height: 420 }}>{node}</div>
      </PositionServicesContext>
    </I18nProvider>,
  );
}

function signIn(view: AccountView): void {
  accountStore.link = "live";
  accountStore.view = ref(view);
}

/** A long of 0.2 at 30 000 marked at `mark`, liquidated at 27 000. */
function long(mark: number): Position {
  return { ...position({ id: 9, amount: 0.2, base: 30_000, pl: 0.2 * (mark - 30_000) }), liqPrice: 27_000, posType: 0 };
}

function marginUser(group: number): void {
  const raw: unknown[] = new Array<unknown>(55).fill(null);
  raw[0] = 1;
  raw[1] = "trader@example.test";
  raw[2] = "trader";
  raw[42] = group;
  const d = userInfoCodec.decode(raw);
  if (!d.ok) throw new Error("user info");
  session.user = d.value;
}

beforeAll(async () => {
  await activateLocale("en");
});

beforeEach(() => {
  resetSettings();
  services = fake();
  notices.toasts.length = 0;
  applyTheme(document.documentElement, { name: "default", mode: "dark", scheme: "default" }, true);
});

afterEach(async () => {
  accountStore.link = "signed-out";
  accountStore.view = null;
  session.user = null;
  await activateLocale("en");
});

describe("margin info widget", () => {
  it("shows the base and pair figures, the margin group, and a warning near liquidation", async () => {
    marginUser(1);
    signIn(
      accountView({
        positions: [long(30_100)],
        marginBase: { kind: "base", pl: 20, swap: -1.5, balance: 5000, net: 5020, required: 301 },
        marginSymbols: {
          tBTCUSD: { kind: "sym", symbol: "tBTCUSD", net: 42_000, gross: 5020, buy: 1.4, sell: 1.6 },
        },
      }),
    );
    await mount(<MarginWidget {...WIDGET} />);
    await expect.element(page.getByTestId("margin-balance")).toHaveTextContent("5000");
    await expect.element(page.getByTestId("margin-net")).toHaveTextContent("5020");
    await expect.element(page.getByTestId("margin-required")).toHaveTextContent("301");
    await expect.element(page.getByTestId("margin-swap")).toHaveTextContent("-1.5");
    await expect.element(page.getByTestId("margin-tradable")).toHaveTextContent("42000 USD");
    await expect.element(page.getByTestId("margin-buy")).toHaveTextContent("1.4 BTC");
    await expect.element(page.getByTestId("margin-sell")).toHaveTextContent("1.6 BTC");
    await expect.element(page.getByTestId("margin-group")).toHaveTextContent("Per currency");
    expect(page.getByTestId("liquidation-warning").elements()).toHaveLength(0);

    // Marked at 28 000 the long is 3.6 % above its liquidation price: the warning says where it is.
    marginUser(0);
    signIn(accountView({ positions: [long(28_000)] }));
    await expect.element(page.getByTestId("margin-group")).toHaveTextContent("Cross collateral");
    await expect
      .element(page.getByRole("status"))
      .toHaveTextContent("BTC/USD is near liquidation: a 3.6% move reaches 27000.");
    await expect.element(page.getByText("Waiting for margin info…")).toBeVisible();
  });
});

describe("positions: margin actions", () => {
  it("flags a row near liquidation and closes a position at market after confirming", async () => {
    signIn(accountView({ positions: [long(28_000)] }));
    await mount(<PositionsWidget {...WIDGET} widgetKey="widget/positions/main" />);
    await expect.element(page.getByTestId("near-liquidation")).toHaveTextContent("Near liquidation");
    await page.getByRole("button", { name: "Close position BTC/USD" }).click();
    const confirm = page.getByRole("alertdialog", { name: "Close 0.2 BTC/USD at market?" });
    await expect.element(confirm).toBeVisible();
    expect(services.orders).toEqual([]);
    await confirm.getByRole("button", { name: "Close position" }).click();
    await expect
      .poll(() => services.orders)
      .toEqual([{ type: "MARKET", symbol: "tBTCUSD", amount: "-0.2", flags: ORDER_FLAGS.CLOSE }]);
    await expect.poll(() => notices.toasts.map((n) => n.text)).toContain("Position BTC/USD: close submitted");
  });

  it("claims only after confirming, and tells a refusal by its code", async () => {
    services = fake({ "/v2/auth/w/position/claim": { status: 500, body: ["error", 10001, "not enough balance"] } });
    signIn(accountView({ positions: [long(30_000)] }));
    await mount(<PositionsWidget {...WIDGET} widgetKey="widget/positions/main" />);
    await page.getByRole("button", { name: "Claim position BTC/USD" }).click();
    await page.getByRole("button", { name: "Cancel" }).click();
    expect(services.calls).toEqual([]);
    await page.getByRole("button", { name: "Claim position BTC/USD" }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Claim" }).click();
    await expect.poll(() => services.calls).toEqual([{ path: "/v2/auth/w/position/claim", body: { id: 9 } }]);
    await expect
      .poll(() => notices.toasts.map((n) => n.text))
      .toContain("Position BTC/USD was not claimed: The exchange refused the request (error 10001).");
  });

  it("increases within the room the exchange reports, refusing other amounts in the reader's language", async () => {
    signIn(accountView({ positions: [long(30_000)] }));
    const screen = await mount(<PositionsWidget {...WIDGET} widgetKey="widget/positions/main" />);
    await page.getByRole("button", { name: "Increase position BTC/USD" }).click();
    const form = page.getByRole("dialog", { name: "Increase position BTC/USD" });
    await expect.element(form.getByText("Max 0.5 BTC")).toBeVisible();
    const amount = form.getByLabelText("Amount");
    const send = form.getByRole("button", { name: "Increase" });

    await amount.fill("0.8");
    await send.click();
    await expect.element(form.getByRole("alert")).toHaveTextContent("At most 0.5 BTC can be added.");
    await amount.fill("abc");
    await send.click();
    await expect.element(form.getByRole("alert")).toHaveTextContent("Enter an amount above zero.");
    expect(services.calls.map((c) => c.path)).toEqual(["/v2/auth/r/position/increase/info"]);

    await amount.fill("0.25");
    await send.click();
    await expect.element(form).not.toBeInTheDocument();
    expect(services.calls[1]).toEqual({
      path: "/v2/auth/w/position/increase",
      body: { symbol: "tBTCUSD", amount: "0.25" },
    });
    expect(services.calls[0]?.body).toEqual({ symbol: "tBTCUSD", amount: "1" });

    // A short grows with a negative amount; the exchange's refusal stays in the form, in Russian.
    services = fake({ "/v2/auth/w/position/increase": { status: 500, body: ["error", 10020, "amount: invalid"] } });
    await activateLocale("ru");
    signIn(accountView({ positions: [{ ...long(30_000), amount: -0.2, liqPrice: 33_000 }] }));
    await screen.rerender(
      <I18nProvider i18n={i18n}>
        <PositionServicesContext value={services}>
          <div style={{ width: 1000, height: 420 }}>
            <PositionsWidget {...WIDGET} widgetKey="widget/positions/main" />
          </div>
        </PositionServicesContext>
      </I18nProvider>,
    );
    await page.getByTestId("position-increase-9").click();
    await page.getByTestId("increase-amount").fill("0.1");
    await page.getByTestId("increase-submit").click();
    const russian = errorCodeText(i18n, 10020);
    expect(russian).not.toBe("The exchange did not accept these values.");
    await expect.element(page.getByTestId("increase-error")).toHaveTextContent(russian);
    expect(services.calls.at(-1)).toEqual({
      path: "/v2/auth/w/position/increase",
      body: { symbol: "tBTCUSD", amount: "-0.1" },
    });
  });
});
