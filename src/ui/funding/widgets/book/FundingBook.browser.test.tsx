import { describe, expect, it } from "vitest";
import { page } from "vitest/browser";
import type { BookView, BookViewRequest } from "../../../../protocol";
import { feedHealth } from "../../../test-support/fake-market";
import { widgetHarness } from "../../../test-support/widget-harness";
import { FundingBook } from "./FundingBook";

const harness = widgetHarness();

/** A funding view: two bid groups, one offer, with their period ranges. */
function fundingView(request: BookViewRequest): BookView {
  return {
    handle: "h",
    symbol: request.symbol,
    status: "SUBSCRIBED",
    bids: 2,
    asks: 1,
    // [rate, count, amount, cumulative]
    levels: new Float64Array([0.0002, 3, 150, 150, 0.00019, 1, 50, 200, 0.00021, 2, 100, 100]),
    periods: new Float64Array([2, 30, 7, 7, 2, 120]),
    health: feedHealth({ lastUpdateAt: Date.now() }),
    version: 1,
    publishedAt: Date.now(),
  };
}

const row = (side: string, text: string) =>
  [...document.querySelectorAll<HTMLElement>(`[data-side="${side}"]:not([data-empty])`)].find((r) =>
    r.textContent?.includes(text),
  );

describe("funding book widget", () => {
  it("lists offers over bids with rates a day, period ranges, counts and amounts", async () => {
    harness.fake.bookAnswer = fundingView;
    await harness.mount(<FundingBook widgetKey="widget/funding-book/main" pair="USD" symbol="fUSD" />, 480, 600);
    await expect.poll(() => row("bid", "0.02000%")?.textContent).toBe("0.02000%2–303150.0000");
    expect(row("bid", "0.01900%")?.textContent).toBe("0.01900%7150.0000");
    expect(row("ask", "0.02100%")?.textContent).toBe("0.02100%2–1202100.0000");
    // The deeper bid's depth bar is full; the first bid's at 150 of 200.
    expect(row("bid", "0.02000%")?.style.getPropertyValue("--funding-depth")).toBe("75%");
    const request = harness.fake.liveBooks()[0]?.request;
    expect(request).toMatchObject({ symbol: "fUSD", prec: "P0", len: 100 });
  });

  it("asks for another precision, and the raw book of offers, when chosen", async () => {
    harness.fake.bookAnswer = fundingView;
    await harness.mount(<FundingBook widgetKey="widget/funding-book/main" pair="USD" symbol="fUSD" />, 480, 600);
    await page.getByLabelText("Precision").selectOptions("P3");
    await expect.poll(() => harness.fake.liveBooks().map((s) => s.request.prec)).toEqual(["P3"]);
    await page.getByLabelText("Precision").selectOptions("R0");
    await expect.poll(() => harness.fake.liveBooks().map((s) => s.request.prec)).toEqual(["R0"]);
    // A raw row is one offer.
    await expect.poll(() => row("ask", "0.02100%")?.textContent).toBe("0.02100%2–1201100.0000");
  });
});
