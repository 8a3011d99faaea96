import { I18nProvider } from "@lingui/react";
import { beforeAll, describe, expect, it } from "vitest";
import { page, userEvent } from "vitest/browser";
import { render } from "vitest-browser-react";
import { conversionQuoteCodec, CURRENCY_AGREEMENTS, type Wallet } from "../../protocol";
import { activateLocale, i18n } from "../i18n";
import type { Call } from "./api";
import { ConversionDialog } from "./ConversionDialog";

beforeAll(async () => {
  await activateLocale("en");
});

const WALLETS: Wallet[] = [
  { type: "exchange", currency: "USD", balance: 1000, interest: 0, available: 1000, description: null, meta: null },
];

/** A scripted exchange: the agreement not yet accepted, and quotes that hold `lifetimeMs`. */
function exchange(lifetimeMs: number) {
  const calls: string[] = [];
  const call: Call = (path, body) => {
    calls.push(path);
    switch (path) {
      case "/v2/auth/r/int/currency/agreements":
        return Promise.resolve({ status: 200, body: [] });
      case "/v2/auth/w/int/currency/agreement":
        return Promise.resolve({ status: 200, body: { ...(body as object), mts: 1 } });
      case "/v2/auth/w/int/convert/quote": {
        const amount = Number((body as { amount: string }).amount);
        const quote = {
          id: `${calls.length}`.padStart(32, "0"),
          from: "USD",
          to: "UST",
          wallet: "exchange" as const,
          amount,
          rate: 1,
          fee: amount / 1000,
          receive: amount - amount / 1000,
          mts: 1_000,
          expires: 1_000 + lifetimeMs,
        };
        return Promise.resolve({ status: 200, body: conversionQuoteCodec.encode(quote) });
      }
      default:
        return Promise.resolve({ status: 404, body: ["error", 10020, "not found"] });
    }
  };
  return { calls, call };
}

/** Renders the dialog open; the returned list grows each time it asks to be closed. */
async function open(call: Call): Promise<number[]> {
  const closed: number[] = [];
  await render(
    <I18nProvider i18n={i18n}>
      <ConversionDialog
        start={{ from: "USD", wallet: "exchange" }}
        wallets={WALLETS}
        onClose={() => closed.push(1)}
        call={call}
      />
    </I18nProvider>,
  );
  return closed;
}

describe("the conversion dialog", () => {
  it("asks for the USDt terms first: Accept only once ticked, Escape keeps the form", async () => {
    const ex = exchange(15_000);
    const closed = await open(ex.call);
    const dialog = page.getByRole("dialog", { name: "Convert currency" });
    await dialog.getByLabelText("Amount").fill("200");
    await dialog.getByRole("button", { name: "Get quote" }).click();
    const terms = page.getByRole("dialog", { name: "USDt terms" });
    await expect.element(terms).toBeVisible();
    await expect
      .element(terms.getByText(`Version ${CURRENCY_AGREEMENTS["UST"]?.version ?? ""}`, { exact: false }))
      .toBeVisible();
    await expect.element(terms.getByRole("button", { name: "Accept" })).toBeDisabled();
    await userEvent.keyboard("{Escape}");
    await expect.element(terms).not.toBeInTheDocument();
    await expect.element(dialog.getByLabelText("Amount")).toHaveValue("200");
    expect(closed).toEqual([]);
    expect(ex.calls).not.toContain("/v2/auth/w/int/convert/quote");

    await dialog.getByRole("button", { name: "Get quote" }).click();
    await terms.getByLabelText("I have read and agree").click();
    await terms.getByRole("button", { name: "Accept" }).click();
    await expect.element(dialog.getByTestId("conversion-receive")).toHaveTextContent("199.8 USDt");
    await expect.element(dialog.getByRole("timer")).toBeVisible();
    // Counted from the quote's own lifetime (15 s), whatever the exchange's clock said.
    expect(dialog.getByRole("timer").element().textContent).toMatch(/^Quote valid for 1[345] s$/);
    expect(ex.calls).toEqual([
      "/v2/auth/r/int/currency/agreements",
      "/v2/auth/w/int/currency/agreement",
      "/v2/auth/w/int/convert/quote",
    ]);
  });

  it("says when a quote has run out, offers no Convert, and gets a new one", async () => {
    const ex = exchange(2_000);
    await open(ex.call);
    const dialog = page.getByRole("dialog", { name: "Convert currency" });
    await dialog.getByLabelText("Amount").fill("10");
    await dialog.getByRole("button", { name: "Get quote" }).click();
    await page.getByRole("dialog", { name: "USDt terms" }).getByLabelText("I have read and agree").click();
    await page.getByRole("dialog", { name: "USDt terms" }).getByRole("button", { name: "Accept" }).click();
    await expect
      .element(dialog.getByText("This quote has expired. Get a new quote to convert."), { timeout: 4_000 })
      .toBeVisible();
    await expect.element(dialog.getByRole("button", { name: "Convert", exact: true })).not.toBeInTheDocument();
    await dialog.getByRole("button", { name: "Get a new quote" }).click();
    await expect.element(dialog.getByRole("timer")).toBeVisible();
    expect(ex.calls.filter((c) => c === "/v2/auth/w/int/convert/quote")).toHaveLength(2);
  });
});
