import { I18nProvider } from "@lingui/react";
import { ref } from "valtio";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { page } from "vitest/browser";
import { render } from "vitest-browser-react";
import type { FeedHealth, Position, StatusView } from "../../../../protocol";
import { activateLocale, i18n } from "../../../i18n";
import { accountView } from "../../../test-support/account";
import { applyTheme } from "../../../theme/theme";
import { accountStore } from "../../account-store";
import { DerivStatusPanel, derivStatusWidget, type StatusSource } from "./index";

const HEALTH: FeedHealth = {
  lastUpdateAt: Date.now(),
  messagesPerSecond: 1,
  resyncs: 0,
  checksumsOk: 0,
  checksumsFailed: 0,
  stale: false,
};

function row(mark: number, nextFunding: number, accrued: number): unknown[] {
  return [
    Date.now(),
    null,
    86_710.5,
    86_670.5,
    null,
    1_000_000,
    null,
    nextFunding,
    accrued,
    3873,
    null,
    -0.0001,
    null,
    null,
    mark,
    null,
    null,
    12.5,
    null,
    null,
    null,
    0.0005,
    0.0025,
  ];
}

/** A status source the test pushes views through, recording what was asked. */
function fakeSource() {
  let push: ((v: StatusView) => void) | null = null;
  const keys: string[] = [];
  let aborted = false;
  const source: StatusSource = {
    status: (key, onView, signal) => {
      keys.push(key);
      push = onView;
      signal.addEventListener("abort", () => (aborted = true));
      return Promise.resolve();
    },
  };
  const send = (payload: unknown) =>
    push?.({ handle: "v1", key: keys[0] ?? "", status: "SUBSCRIBED", payload, health: HEALTH, version: 1 });
  return { source: () => source, keys, send, aborted: () => aborted };
}

beforeAll(async () => {
  await activateLocale("en");
  applyTheme(document.documentElement, { name: "default", mode: "dark", scheme: "default" }, true);
});

afterEach(() => {
  accountStore.view = null;
  accountStore.link = "signed-out";
});

describe("derivatives status widget", () => {
  it("is a desk widget of the derivatives feature", () => {
    expect(derivStatusWidget.type).toBe("deriv-status");
    expect(derivStatusWidget.feature).toBe("derivatives");
    expect(i18n._(derivStatusWidget.title)).toBe("Derivatives status");
  });

  it("shows the perpetual's status, counts down to funding and shows the account's funding", async () => {
    const fake = fakeSource();
    const position: Position = {
      pair: "tBTCF0:USTF0",
      status: "ACTIVE",
      amount: 0.02,
      basePrice: 86_000,
      swap: -0.42,
      swapType: 0,
      pl: 3,
      plPercent: 1,
      liqPrice: 78_000,
      leverage: 10,
      id: 5,
      mtsCreate: null,
      mtsUpdate: null,
      posType: 1,
      collateral: 172,
      minCollateral: 10,
      maxCollateral: null,
    };
    accountStore.link = "live";
    accountStore.view = ref(accountView({ positions: [position] }));
    await page.viewport(700, 400);
    const screen = await render(
      <I18nProvider i18n={i18n}>
        <div style={{ width: 560, height: 260 }}>
          <DerivStatusPanel perpetual="BTCF0:USTF0" source={fake.source} />
        </div>
      </I18nProvider>,
    );
    await expect.element(page.getByText("Waiting for the derivatives status…")).toBeVisible();
    expect(fake.keys).toEqual(["deriv:tBTCF0:USTF0"]);
    fake.send(row(86_676.3, Date.now() + 3_725_000, 0.00015));
    await expect.element(page.getByTestId("deriv-mark")).toHaveTextContent("86676");
    await expect.element(page.getByTestId("deriv-spot")).toHaveTextContent("86671");
    await expect.element(page.getByTestId("deriv-accrued")).toHaveTextContent("0.0150%");
    await expect.element(page.getByTestId("deriv-current")).toHaveTextContent("-0.0100%");
    await expect.element(page.getByTestId("deriv-clamps")).toHaveTextContent("0.0500% / 0.2500%");
    await expect.element(page.getByTestId("deriv-oi")).toHaveTextContent("12.5");
    await expect.element(page.getByTestId("deriv-insurance")).toHaveTextContent("1M USTF0");
    await expect.element(page.getByTestId("deriv-own-funding")).toHaveTextContent("-0.42 USTF0");
    const first = page.getByTestId("deriv-next").element().textContent ?? "";
    expect(first).toMatch(/^01:02:0[45]$/);
    // The countdown moves with the clock, without a new row.
    await expect.poll(() => page.getByTestId("deriv-next").element().textContent, { timeout: 3000 }).not.toBe(first);
    await page.screenshot({ path: "../../../../../test-results/shots/deriv-status.png" });
    // A new row shows on the next tick.
    fake.send(row(90_000, Date.now() + 3_725_000, 0.0002));
    await expect.element(page.getByTestId("deriv-mark")).toHaveTextContent("90000");
    await screen.unmount();
    expect(fake.aborted()).toBe(true);
  });
});
