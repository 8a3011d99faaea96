import { I18nProvider } from "@lingui/react";
import type { ReactNode } from "react";
import { ref } from "valtio";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { page, userEvent } from "vitest/browser";
import { render } from "vitest-browser-react";
import {
  fundingAutoCodec,
  fundingCreditCodec,
  fundingOfferCodec,
  type AccountView,
  type FundingCredit,
  type FundingOffer,
} from "../../../protocol";
import { accountStore } from "../../desk/account-store";
import { notices } from "../../desk/notices";
import { activateLocale, i18n } from "../../i18n";
import { resetSettings } from "../../settings/store";
import { accountView } from "../../test-support/account";
import { wallet } from "../../test-support/account-records";
import { applyTheme } from "../../theme/theme";
import { AutoRenew } from "./AutoRenew";
import { FundingSummary } from "./FundingSummary";
import { FundingTables } from "./FundingTables";
import { FUNDING_ACCOUNT_WIDGETS } from "./index";
import { OfferForm } from "./OfferForm";
import { FundingServicesContext, type CallResult, type FundingServices } from "./services";

const WIDGET = { widgetKey: "widget/funding-offer-form/main", pair: "USD", symbol: "fUSD" } as const;
const FRR = 0.0002;

interface Fake extends FundingServices {
  readonly calls: { path: string; body: Record<string, unknown> }[];
  answer: (path: string, body: Record<string, unknown>) => CallResult;
}

function fake(): Fake {
  const f: Fake = {
    calls: [],
    answer: () => ({ ok: true, text: "Submitted", data: null }),
    call: (path, body) => {
      f.calls.push({ path, body });
      return Promise.resolve(f.answer(path, body));
    },
    watchFrr: (_c, onFrr) => onFrr(FRR),
    watchUsdPrice: (_c, onPrice) => onPrice(1),
  };
  return f;
}

let services: Fake;

function signIn(view: AccountView): void {
  accountStore.link = "live";
  accountStore.view = ref(view);
}

function mount(node: ReactNode, width = 420, height = 640) {
  return render(
    <I18nProvider i18n={i18n}>
      <FundingServicesContext value={services}>
        <div style={{ width, height }}>{node}</div>
      </FundingServicesContext>
    </I18nProvider>,
  );
}

function offerRecord(id: number, amount: number, rate: number): FundingOffer {
  const raw = [
    id,
    "fUSD",
    1,
    1,
    amount,
    amount,
    "LIMIT",
    null,
    null,
    0,
    "ACTIVE",
    null,
    null,
    null,
    rate,
    30,
    false,
    false,
    null,
    false,
    null,
  ];
  const d = fundingOfferCodec.decode(raw);
  if (!d.ok) throw new Error("offer fixture");
  return d.value;
}

function creditRecord(id: number, amount: number): FundingCredit {
  const raw = [
    id,
    "fUSD",
    1,
    1,
    1,
    amount,
    0,
    "ACTIVE",
    "FIXED",
    null,
    null,
    0.0003,
    30,
    1,
    null,
    false,
    false,
    null,
    false,
    null,
    false,
    "tBTCUSD",
  ];
  const d = fundingCreditCodec.decode(raw);
  if (!d.ok) throw new Error("credit fixture");
  return d.value;
}

beforeAll(async () => {
  await activateLocale("en");
});

beforeEach(() => {
  resetSettings();
  services = fake();
  notices.toasts.length = 0;
  applyTheme(document.documentElement, { name: "default", mode: "dark", scheme: "default" }, true);
  signIn(accountView({ wallets: [wallet("funding", "USD", 1000)] }));
});

afterEach(() => {
  accountStore.link = "signed-out";
  accountStore.view = null;
});

describe("the funding account widgets", () => {
  it("are the funding feature's, with titles and sizes that fit the grid", () => {
    expect(FUNDING_ACCOUNT_WIDGETS.map((w) => w.type)).toContain("funding-offer-form");
    for (const w of FUNDING_ACCOUNT_WIDGETS) {
      expect(w.feature).toBe("funding");
      expect(w.minSize.w).toBeLessThanOrEqual(w.defaultSize.w);
      expect(w.defaultSize.w).toBeLessThanOrEqual(24);
      expect(i18n._(w.title)).not.toBe("");
    }
  });
});

describe("the offer form", () => {
  it("sends a lend offer as typed and says the exchange took it", async () => {
    await mount(<OfferForm {...WIDGET} />);
    await userEvent.fill(page.getByLabelText("Rate, % a day"), "0.03");
    await userEvent.fill(page.getByLabelText("Period, days"), "30");
    await userEvent.fill(page.getByLabelText("Amount, USD"), "200");
    await userEvent.click(page.getByRole("checkbox", { name: "Hidden" }));
    await userEvent.click(page.getByRole("button", { name: "Lend USD" }));
    await expect.element(page.getByRole("status")).toHaveTextContent("Offer placed.");
    expect(services.calls).toEqual([
      {
        path: "/v2/auth/w/funding/offer/submit",
        body: { type: "LIMIT", symbol: "fUSD", amount: "200", rate: "0.0003", period: 30, flags: 64, renew: 0 },
      },
    ]);
    await expect.element(page.getByLabelText("Amount, USD")).toHaveValue("");
  });

  it("shows each problem under its field and sends nothing", async () => {
    await mount(<OfferForm {...WIDGET} />);
    await userEvent.fill(page.getByLabelText("Rate, % a day"), "abc");
    await userEvent.fill(page.getByLabelText("Period, days"), "200");
    await userEvent.fill(page.getByLabelText("Amount, USD"), "100");
    await userEvent.click(page.getByRole("button", { name: "Lend USD" }));
    await expect.element(page.getByText("Enter a number.")).toBeVisible();
    await expect.element(page.getByText("From 2 to 120 days.")).toBeVisible();
    await expect.element(page.getByText("The minimum is 150 USD (150 USD).")).toBeVisible();
    await expect.element(page.getByLabelText("Rate, % a day")).toHaveAttribute("aria-invalid", "true");
    await userEvent.fill(page.getByLabelText("Amount, USD"), "5000");
    await expect.element(page.getByText("Only 1000 USD available.")).toBeVisible();
    expect(services.calls).toEqual([]);
  });

  it("asks before an expensive borrow, and sends it only when confirmed", async () => {
    await mount(<OfferForm {...WIDGET} />);
    await userEvent.click(page.getByRole("radio", { name: "Borrow" }));
    await userEvent.fill(page.getByLabelText("Rate, % a day"), "0.2");
    await userEvent.fill(page.getByLabelText("Amount, USD"), "300");
    await userEvent.click(page.getByRole("button", { name: "Borrow USD" }));
    const dialog = page.getByRole("dialog", { name: "This loan is expensive" });
    await expect.element(dialog).toBeVisible();
    await expect.poll(() => dialog.element().textContent).toContain("0.2000 % a day (73.00 % a year)");
    await userEvent.click(dialog.getByRole("button", { name: "Cancel" }));
    expect(services.calls).toEqual([]);
    await userEvent.click(page.getByRole("button", { name: "Borrow USD" }));
    await userEvent.click(page.getByRole("button", { name: "Borrow anyway" }));
    await expect.element(page.getByRole("status")).toHaveTextContent("Offer placed.");
    expect(services.calls.map((c) => c.body["amount"])).toEqual(["-300"]);
  });

  it("borrows at a usual cost without asking", async () => {
    await mount(<OfferForm {...WIDGET} />);
    await userEvent.click(page.getByRole("radio", { name: "Borrow" }));
    await userEvent.fill(page.getByLabelText("Rate, % a day"), "0.02");
    await userEvent.fill(page.getByLabelText("Amount, USD"), "300");
    await userEvent.click(page.getByRole("button", { name: "Borrow USD" }));
    await expect.element(page.getByRole("status")).toHaveTextContent("Offer placed.");
    expect(document.querySelector('[data-testid="high-cost-dialog"][open]')).toBeNull();
  });

  it("shows the exchange's refusal and keeps what was typed", async () => {
    services.answer = () => ({ ok: false, code: 10001, text: "Invalid offer: not enough balance" });
    await mount(<OfferForm {...WIDGET} />);
    await userEvent.fill(page.getByLabelText("Rate, % a day"), "0.02");
    await userEvent.fill(page.getByLabelText("Amount, USD"), "200");
    await userEvent.click(page.getByRole("button", { name: "Lend USD" }));
    await expect
      .element(page.getByRole("status"))
      .toHaveTextContent("The exchange refused the offer: Invalid offer: not enough balance");
    await expect.element(page.getByLabelText("Amount, USD")).toHaveValue("200");
  });
});

describe("the offers, credits and loans", () => {
  it("cancels an offer and closes a credit through the exchange", async () => {
    signIn(
      accountView({
        fundingOffers: [offerRecord(7, 250, 0.0004), { ...offerRecord(8, 100, 0.001), symbol: "fBTC" }],
        credits: [creditRecord(21, 400)],
      }),
    );
    await mount(<FundingTables {...WIDGET} />, 900, 400);
    const offers = page.getByTestId("funding-offers");
    await expect.poll(() => offers.element().textContent).toContain("0.0400 %");
    expect(document.querySelectorAll('[data-testid="funding-offers"] tbody tr')).toHaveLength(1);
    await userEvent.click(page.getByRole("button", { name: "Cancel offer 7" }));
    await expect.element(page.getByRole("status")).toHaveTextContent("Offer cancelled.");
    await userEvent.click(page.getByRole("tab", { name: "Credits" }));
    await expect.poll(() => page.getByTestId("funding-credits").element().textContent).toContain("400");
    await userEvent.click(page.getByRole("button", { name: "Close credit 21" }));
    expect(services.calls).toEqual([
      { path: "/v2/auth/w/funding/offer/cancel", body: { id: 7 } },
      { path: "/v2/auth/w/funding/close", body: { id: 21 } },
    ]);
    await userEvent.click(page.getByRole("tab", { name: "Loans" }));
    await expect.element(page.getByText("No loans.")).toBeVisible();
  });

  it("asks a signed-out user to sign in", async () => {
    accountStore.link = "signed-out";
    accountStore.view = null;
    await mount(<FundingTables {...WIDGET} />, 900, 400);
    await expect.element(page.getByRole("link", { name: "Sign in" })).toBeVisible();
  });
});

describe("auto-renew", () => {
  it("shows the exchange's setting and turns it off", async () => {
    services.answer = (path) =>
      path === "/v2/auth/r/funding/auto"
        ? {
            ok: true,
            text: "",
            data: fundingAutoCodec.encode({ currency: "USD", period: 7, rate: 0.0003, threshold: 500 }),
          }
        : { ok: true, text: "Auto-renew disabled.", data: null };
    await mount(<AutoRenew {...WIDGET} />);
    await expect.element(page.getByLabelText("Period, days")).toHaveValue("7");
    await expect.element(page.getByLabelText("Rate, % a day (empty: FRR)")).toHaveValue("0.03");
    await expect.element(page.getByLabelText("Up to, USD (empty: all)")).toHaveValue("500");
    await userEvent.click(page.getByRole("checkbox", { name: "Offer returned funds again" }));
    await userEvent.click(page.getByRole("button", { name: "Save auto-renew" }));
    await expect.element(page.getByRole("status")).toHaveTextContent("Auto-renew is off for USD.");
    expect(services.calls.at(-1)).toEqual({ path: "/v2/auth/w/funding/auto", body: { status: 0, currency: "USD" } });
  });

  it("refuses a period out of range without sending it", async () => {
    services.answer = () => ({ ok: true, text: "", data: null });
    await mount(<AutoRenew {...WIDGET} />);
    await userEvent.click(page.getByRole("checkbox", { name: "Offer returned funds again" }));
    await userEvent.fill(page.getByLabelText("Period, days"), "1");
    await userEvent.click(page.getByRole("button", { name: "Save auto-renew" }));
    await expect.element(page.getByText("From 2 to 120 days.")).toBeVisible();
    expect(services.calls.map((c) => c.path)).toEqual(["/v2/auth/r/funding/auto"]);
  });
});

describe("the summary", () => {
  it("sums interest earned and paid from the ledger, and shows the yields", async () => {
    services.answer = (path) => {
      if (path.startsWith("/v2/auth/r/ledgers/"))
        return {
          ok: true,
          text: "",
          data: [
            [3, "USD", "funding", 3, null, 0.25, 1000.5, null, "Margin Funding Payment on wallet funding"],
            [2, "USD", "funding", 2, null, 0.25, 1000.25, null, "Margin Funding Payment on wallet funding"],
            [1, "USD", "margin", 1, null, -0.1, 99.9, null, "Margin Funding Charge on wallet margin"],
          ],
        };
      return { ok: true, text: "", data: ["sym", "fUSD", [0, 0.0003, 0, 29.5]] };
    };
    await mount(<FundingSummary {...WIDGET} />, 600, 300);
    await expect.poll(() => page.getByTestId("funding-earned").element().textContent).toContain("0.5 USD");
    await expect.poll(() => page.getByTestId("funding-paid").element().textContent).toContain("0.1 USD");
    await expect
      .poll(() => page.getByTestId("funding-yield-lend").element().textContent)
      .toContain("0.0300 % a day · 10.95 % a year");
    await expect.poll(() => page.getByTestId("funding-duration-lend").element().textContent).toContain("29.5 days");
    expect(services.calls.find((c) => c.path === "/v2/auth/r/ledgers/USD/hist")?.body).toEqual({
      category: 28,
      limit: 2500,
    });
  });
});
