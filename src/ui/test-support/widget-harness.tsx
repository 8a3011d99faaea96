/**
 * What the market widgets' component tests share: a fresh FakeMarket and a reset desk (settings,
 * account, order draft, dark theme) before each test, and a mount inside the providers a widget
 * reads (i18n, market source) at a given size. Not used by the app itself.
 */
import { I18nProvider } from "@lingui/react";
import type { ReactNode } from "react";
import { afterEach, beforeAll, beforeEach } from "vitest";
import { render } from "vitest-browser-react";
import { activateLocale, i18n } from "../i18n";
import { resetSettings } from "../settings/store";
import { applyTheme } from "../theme/theme";
import { accountStore } from "../desk/account-store";
import { orderDraft } from "../desk/desk-state";
import { FakeMarket } from "./fake-market";
import { MarketSourceContext } from "../desk/widgets/book/market-source";

export interface WidgetHarness {
  /** This test's market source: a new one before each test. */
  readonly fake: FakeMarket;
  mount(widget: ReactNode, width: number, height: number): ReturnType<typeof render>;
}

/** Registers the shared hooks in the calling test file; call it once at its top level. */
export function widgetHarness(): WidgetHarness {
  let fake = new FakeMarket();

  beforeAll(async () => {
    await activateLocale("en");
  });

  beforeEach(() => {
    resetSettings();
    fake = new FakeMarket();
    accountStore.view = null;
    accountStore.link = "signed-out";
    orderDraft.price = "";
    orderDraft.amount = "";
    orderDraft.seq = 0;
    applyTheme(document.documentElement, { name: "default", mode: "dark", scheme: "default" }, true);
  });

  afterEach(() => {
    accountStore.view = null;
  });

  return {
    get fake() {
      return fake;
    },
    mount: (widget, width, height) =>
      render(
        <I18nProvider i18n={i18n}>
          <MarketSourceContext value={fake}>
            <div style={{ width, height }}>{widget}</div>
          </MarketSourceContext>
        </I18nProvider>,
      ),
  };
}
