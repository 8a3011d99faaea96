import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { page, userEvent } from "vitest/browser";
import { Router } from "wouter";
import { memoryLocation } from "wouter/memory-location";
import { loadConfig } from "../../../config";
import { settings, updateSetting } from "../../../settings/store";
import { requestUrl } from "../../../test-support/fetch";
import { widgetHarness } from "../../../test-support/widget-harness";
import { MarketsWidget } from "./MarketsWidget";

const h = widgetHarness();

/** REST tickers rows: [SYMBOL, BID, BID_SIZE, ASK, ASK_SIZE, CHANGE, CHANGE_PERC, LAST, VOLUME, HIGH, LOW]. */
const TICKERS = [
  ["tBTCUSD", 50_000, 1, 50_001, 1, 100, 0.02, 50_000, 10, 51_000, 49_000],
  ["tETHUSD", 2_500, 1, 2_501, 1, -20, -0.01, 2_500, 100, 2_600, 2_400],
  ["tETHBTC", 0.05, 1, 0.0501, 1, 0, 0.005, 0.05, 300, 0.06, 0.04],
  ["tLTCUSD", 80, 1, 81, 1, 1, 0.001, 80, 1_000, 90, 70],
  ["tXRPUSD", 0.5, 1, 0.51, 1, 0, 0, 0.5, 1_000_000, 0.6, 0.4],
  ["tBTCF0:USTF0", 50_010, 1, 50_020, 1, 0, 0.01, 50_010, 5, 51_000, 49_000],
];

let tickerCalls = 0;

beforeAll(async () => {
  vi.stubGlobal("fetch", (input: RequestInfo | URL) => {
    const url = requestUrl(input);
    if (url.includes("/v2/tickers")) {
      tickerCalls++;
      return Promise.resolve(new Response(JSON.stringify(TICKERS), { status: 200 }));
    }
    // /config.json: defaults (same-origin endpoints) are enough, the fetch above answers them.
    return Promise.resolve(new Response("{}", { status: 200 }));
  });
  await loadConfig(location.origin);
});

afterAll(() => {
  vi.unstubAllGlobals();
});

let nav: ReturnType<typeof memoryLocation>;

beforeEach(() => {
  nav = memoryLocation({ path: "/tradedesk/BTCUSD", record: true });
});

function mount() {
  return h.mount(
    <Router hook={nav.hook}>
      <MarketsWidget widgetKey="widget/markets/1" pair="BTCUSD" symbol="tBTCUSD" />
    </Router>,
    700,
    480,
  );
}

/** The pairs of the list, top to bottom. */
function shown(): string[] {
  return [...document.querySelectorAll<HTMLElement>('[data-testid="markets"] tbody tr')].map(
    (tr) => tr.dataset["pair"] ?? "",
  );
}

function cell(pair: string, column: number): string {
  return (
    document.querySelector(`[data-testid="markets"] tr[data-pair="${pair}"] td:nth-child(${column})`)?.textContent ?? ""
  );
}

describe("markets widget", () => {
  it("lists spot pairs by volume in USD, converts the volume unit, and splits off derivatives", async () => {
    await mount();
    // ETHBTC: 300 ETH × 2500 = 750k USD; BTCUSD 500k; ETHUSD 250k; XRPUSD 500k (ties sort by name); LTCUSD 80k.
    await expect.poll(shown).toEqual(["ETHBTC", "BTCUSD", "XRPUSD", "ETHUSD", "LTCUSD"]);
    expect(tickerCalls).toBeGreaterThan(0);
    expect(cell("ETHBTC", 5)).toBe("750k");
    await page.getByRole("combobox").selectOptions("BTC");
    expect(settings.ticker_vol_unit).toBe("BTC");
    await expect.poll(() => cell("ETHBTC", 5)).toBe("15");
    await page.getByRole("combobox").selectOptions("BASE");
    await expect.poll(() => cell("XRPUSD", 5)).toBe("1M");
    await page.getByRole("tab", { name: "Derivatives" }).click();
    await expect.poll(shown).toEqual(["BTCF0:USTF0"]);
  });

  it("searches with or without a separator and shows favourites only when asked", async () => {
    await mount();
    await expect.poll(() => shown().length).toBe(5);
    await page.getByTestId("markets-search").fill("eth/");
    await expect.poll(shown).toEqual(["ETHBTC", "ETHUSD"]);
    await page.getByTestId("markets-search").fill("");
    await page.getByRole("button", { name: "Add LTCUSD to favourites" }).click();
    expect(settings.favorite_symbols).toEqual(["LTCUSD"]);
    // The star's click is its own: the pair stays.
    expect(nav.history).toEqual(["/tradedesk/BTCUSD"]);
    await page.getByTitle("Show favourites only").click();
    expect(settings.ticker_favorites_only).toBe(true);
    await expect.poll(shown).toEqual(["LTCUSD"]);
  });

  it("switches the desk's pair on a click and on Enter, keeping the desk area", async () => {
    await mount();
    await expect.poll(() => shown().length).toBe(5);
    expect(document.querySelector('tr[data-pair="BTCUSD"]')?.getAttribute("aria-current")).toBe("true");
    await userEvent.click(document.querySelector('tr[data-pair="LTCUSD"] td:nth-child(2)') as HTMLElement);
    expect(nav.history.at(-1)).toBe("/tradedesk/LTCUSD");
    document.querySelector<HTMLElement>('tr[data-pair="ETHUSD"]')?.focus();
    await userEvent.keyboard("{Enter}");
    expect(nav.history.at(-1)).toBe("/tradedesk/ETHUSD");
    // Enter in the search opens the first match.
    await page.getByTestId("markets-search").fill("xrp");
    await expect.poll(shown).toEqual(["XRPUSD"]);
    await userEvent.keyboard("{Enter}");
    expect(nav.history.at(-1)).toBe("/tradedesk/XRPUSD");
  });

  it("does not switch the pair on Enter on a row's star or order buttons", async () => {
    await mount();
    await expect.poll(() => shown().length).toBe(5);
    page.getByRole("button", { name: "Add ETHUSD to favourites" }).element().focus();
    await userEvent.keyboard("{Enter}");
    expect(settings.favorite_symbols).toEqual(["ETHUSD"]);
    await page.getByRole("button", { name: "My order" }).click();
    await expect.poll(() => shown()[0]).toBe("BTCUSD");
    page.getByRole("button", { name: "Move LTCUSD up" }).element().focus();
    await userEvent.keyboard("{Enter}");
    await expect
      .poll(() => settings.ticker_custom_order["exchange"]?.slice(0, 5))
      .toEqual(["BTCUSD", "ETHBTC", "LTCUSD", "ETHUSD", "XRPUSD"]);
    expect(nav.history).toEqual(["/tradedesk/BTCUSD"]);
  });

  it("arranges its own order per market type and moves within the whole order while searching", async () => {
    updateSetting("ticker_custom_order", { exchange: ["XRPUSD", "ETHUSD"], derivative: ["BTCF0:USTF0"] });
    await mount();
    await page.getByRole("button", { name: "My order" }).click();
    // Placed pairs first, the others alphabetically.
    await expect.poll(shown).toEqual(["XRPUSD", "ETHUSD", "BTCUSD", "ETHBTC", "LTCUSD"]);
    await page.getByRole("button", { name: "Move BTCUSD up" }).click();
    await expect.poll(shown).toEqual(["XRPUSD", "BTCUSD", "ETHUSD", "ETHBTC", "LTCUSD"]);

    // With a search on, ETHBTC passes ETHUSD (the row above it in the list); BTCUSD, hidden by the
    // search, keeps its place.
    await page.getByTestId("markets-search").fill("eth");
    await expect.poll(shown).toEqual(["ETHUSD", "ETHBTC"]);
    await page.getByRole("button", { name: "Move ETHBTC up" }).click();
    await expect.poll(shown).toEqual(["ETHBTC", "ETHUSD"]);
    expect(settings.ticker_custom_order["exchange"]).toEqual(["XRPUSD", "BTCUSD", "ETHBTC", "ETHUSD", "LTCUSD"]);
    await page.getByTestId("markets-search").fill("");
    await expect.poll(shown).toEqual(["XRPUSD", "BTCUSD", "ETHBTC", "ETHUSD", "LTCUSD"]);
    // The other market type's order is untouched.
    expect(settings.ticker_custom_order["derivative"]).toEqual(["BTCF0:USTF0"]);
    expect(nav.history).toEqual(["/tradedesk/BTCUSD"]);
  });
});
