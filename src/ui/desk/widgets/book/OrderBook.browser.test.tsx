import { describe, expect, it } from "vitest";
import { page, userEvent } from "vitest/browser";
import type { AccountView, Order } from "../../../../protocol";
import { settings, updateSetting } from "../../../settings/store";
import { applyTheme } from "../../../theme/theme";
import { accountStore } from "../../account-store";
import { orderDraft } from "../../desk-state";
import { widgetHarness } from "../test-support";
import { syntheticBook } from "./fake-market";
import { OrderBook, orderBookWidget } from "./OrderBook";

const harness = widgetHarness();

function mount(width = 520, height = 420) {
  return harness.mount(<OrderBook widgetKey="widget/book/1" pair="BTCUSD" symbol="tBTCUSD" />, width, height);
}

const scroller = () => document.querySelector<HTMLElement>('[data-testid="book-scroller"]');
const halves = () => document.querySelectorAll('[data-testid="book-scroller"] [data-side]');
const cellText = (side: string, level: number, part: string) =>
  document.querySelector(`[data-side="${side}"][data-level="${level}"] [data-part="${part}"]`)?.textContent ?? null;
const cell = (side: string, level: number, part: string) =>
  document.querySelector<HTMLElement>(`[data-side="${side}"][data-level="${level}"] [data-part="${part}"]`);
const badge = () => document.querySelector<HTMLElement>('[data-testid="book-health"]');

describe("order book widget", () => {
  it("declares itself for the desk grid", () => {
    expect(orderBookWidget.type).toBe("book");
    expect(orderBookWidget.component).toBe(OrderBook);
    expect(orderBookWidget.minSize.w).toBeLessThanOrEqual(orderBookWidget.defaultSize.w);
  });

  it("keeps the DOM small at 250 levels per side and reveals deep levels on scroll", async () => {
    await mount();
    await expect.poll(() => cellText("bid", 0, "price")).toBe("49999");
    expect(cellText("ask", 0, "price")).toBe("50001");
    const first = harness.fake.liveBooks()[0]?.request;
    expect(first).toMatchObject({ symbol: "tBTCUSD", prec: "P0", len: 100, depth: 100, throttleMs: 100 });

    const el = scroller();
    if (!el) throw new Error("no scroller");
    // Scroll to the end: the widget asks for the 250-level book and the list grows to it.
    for (let i = 0; i < 6; i++) {
      el.scrollTop = el.scrollHeight;
      await new Promise((r) => requestAnimationFrame(r));
    }
    await expect.poll(() => harness.fake.liveBooks()[0]?.request.depth).toBe(250);
    expect(harness.fake.liveBooks()[0]?.request.len).toBe(250);
    await expect
      .poll(() => {
        el.scrollTop = el.scrollHeight;
        return cellText("bid", 249, "price");
      })
      .toBe(String(50_000 - 250));
    expect(cellText("ask", 249, "price")).toBe(String(50_000 + 250));
    // 250 levels a side, 500 half-rows in all, yet only what the viewport needs is in the DOM.
    expect(halves().length).toBeGreaterThan(10);
    expect(halves().length).toBeLessThan(100);
    expect(document.querySelectorAll("[data-testid=order-book] *").length).toBeLessThan(800);
  });

  it("paints views without re-rendering rows: the same elements get the new numbers", async () => {
    await mount();
    await expect.poll(() => cellText("bid", 0, "price")).toBe("49999");
    const before = cell("bid", 0, "price");
    harness.fake.pushBook((r) => syntheticBook(r, { mid: 50_100, version: 2 }));
    await expect.poll(() => cellText("bid", 0, "price")).toBe("50099");
    expect(cell("bid", 0, "price")).toBe(before);
  });

  it("fills the order form from a price or an amount click", async () => {
    await mount();
    await expect.poll(() => cellText("ask", 0, "price")).toBe("50001");
    await page.elementLocator(cell("ask", 0, "price") as HTMLElement).click();
    expect(orderDraft).toMatchObject({ price: "50001", side: "buy", focus: "amount", seq: 1 });

    const view = syntheticBook(harness.fake.liveBooks()[0]!.request);
    const cumulativeBid2 = view.levels[2 * 4 + 3]!;
    await page.elementLocator(cell("bid", 2, "amount") as HTMLElement).click();
    expect(orderDraft.side).toBe("sell");
    expect(orderDraft.price).toBe("49997");
    expect(Number(orderDraft.amount)).toBeCloseTo(cumulativeBid2, 8);
    expect(orderDraft.seq).toBe(2);
  });

  it("is keyboard accessible: cells are buttons, arrows move between levels, Enter fills", async () => {
    await mount();
    await expect.poll(() => cellText("bid", 0, "price")).toBe("49999");
    const start = cell("bid", 0, "price")!;
    expect(start.tagName).toBe("BUTTON");
    start.focus();
    await userEvent.keyboard("{ArrowDown}");
    await expect.poll(() => document.activeElement).toBe(cell("bid", 1, "price"));
    await userEvent.keyboard("{ArrowDown}");
    await expect.poll(() => document.activeElement).toBe(cell("bid", 2, "price"));
    await userEvent.keyboard("{Enter}");
    expect(orderDraft).toMatchObject({ price: "49997", side: "sell" });
    await userEvent.keyboard("{ArrowUp}");
    await expect.poll(() => document.activeElement).toBe(cell("bid", 1, "price"));
  });

  it("marks the levels a market order would sweep up to the hovered one", async () => {
    await mount();
    await expect.poll(() => cellText("bid", 0, "price")).toBe("49999");
    const swept = () =>
      Array.from(
        document.querySelectorAll<HTMLElement>('[data-swept="true"]'),
        (el) => `${el.dataset["side"]}${el.dataset["level"]}`,
      );
    await userEvent.hover(page.elementLocator(cell("bid", 3, "total")!));
    await expect.poll(swept).toEqual(["bid0", "bid1", "bid2", "bid3"]);
    await userEvent.hover(page.elementLocator(cell("ask", 1, "count")!));
    await expect.poll(swept).toEqual(["ask0", "ask1"]);
    await userEvent.hover(page.getByTestId("book-prec-P1"));
    await expect.poll(swept).toEqual([]);
  });

  it("re-requests the book at a new precision and relabels it", async () => {
    await mount();
    await expect.poll(() => cellText("bid", 0, "price")).toBe("49999");
    const first = harness.fake.liveBooks()[0];
    await page.getByTestId("book-prec-P2").click();
    expect(settings.book_precision).toBe(2);
    await expect.poll(() => harness.fake.liveBooks()[0]?.request.prec).toBe("P2");
    expect(first?.signal.aborted).toBe(true);
    expect(harness.fake.liveBooks()).toHaveLength(1);
    await expect.poll(() => cellText("bid", 0, "price")).toBe("49900");
    expect(page.getByTestId("book-prec-P2").element().getAttribute("aria-pressed")).toBe("true");
  });

  it("re-subscribes with the throttle setting", async () => {
    await mount();
    await expect.poll(() => harness.fake.liveBooks().length).toBe(1);
    updateSetting("book_throttle_ms", 500);
    await expect.poll(() => harness.fake.liveBooks()[0]?.request.throttleMs).toBe(500);
  });

  // The badge re-renders at most once a second (its store throttles), so a loaded machine can take
  // longer than expect.poll's default second to show a new state.
  const BADGE_WAIT = { timeout: 5000 };

  it("turns the health badge red on an out-of-sync, stale or silent feed", async () => {
    await mount();
    await expect.poll(() => badge()?.dataset["health"], BADGE_WAIT).toBe("ok");
    harness.fake.pushBook((r) => syntheticBook(r, { status: "OUT_OF_SYNC", version: 2 }));
    await expect.poll(() => badge()?.dataset["health"], BADGE_WAIT).toBe("bad");
    expect(badge()?.textContent).toContain("Out of sync");
    harness.fake.pushBook((r) => syntheticBook(r, { version: 3 }));
    await expect.poll(() => badge()?.dataset["health"], BADGE_WAIT).toBe("ok");
    harness.fake.pushBook((r) => syntheticBook(r, { health: { stale: true }, version: 4 }));
    await expect.poll(() => badge()?.dataset["health"], BADGE_WAIT).toBe("bad");
    harness.fake.pushBook((r) => syntheticBook(r, { health: { lastUpdateAt: Date.now() - 45_000 }, version: 5 }));
    await expect.poll(() => badge()?.textContent, BADGE_WAIT).toContain("Silent");
    expect(badge()?.dataset["health"]).toBe("bad");

    await page.getByTestId("book-health").click();
    const details = page.getByTestId("book-health-details");
    await expect.element(details).toBeVisible();
    expect(details.element().textContent).toContain("Checksums failed");
  });

  it("marks the levels of the account's own orders at the book's precision", async () => {
    await mount();
    await expect.poll(() => cellText("bid", 0, "price")).toBe("49999");
    const order = (id: number, price: number, amount: number, type = "EXCHANGE LIMIT") =>
      ({ id, symbol: "tBTCUSD", price, amount, type, hidden: false }) as unknown as Order;
    accountStore.view = {
      orders: [
        order(1, 49_997.4, 0.5),
        order(2, 50_002.2, -0.1),
        order(3, 49_990, 1, "EXCHANGE STOP"),
        { ...order(4, 49_995, 1), symbol: "tETHUSD" } as Order,
      ],
    } as unknown as AccountView;
    const own = (side: string, level: number) =>
      document.querySelector<HTMLElement>(`[data-side="${side}"][data-level="${level}"]`)?.dataset["own"];
    await expect.poll(() => own("bid", 2)).toBe("true");
    // 50002.2 rests in the 50003 ask level (asks round up).
    expect(own("ask", 2)).toBe("true");
    expect(own("ask", 1)).toBeUndefined();
    expect(own("bid", 9)).toBeUndefined();
    expect(own("bid", 4)).toBeUndefined();
  });

  it("stacks asks above the spread and bids below, centred on the spread", async () => {
    updateSetting("book_layout", 1);
    await mount(360, 420);
    await expect.poll(() => cellText("bid", 0, "price")).toBe("49999");
    const spread = page.getByTestId("book-spread");
    await expect.element(spread).toBeVisible();
    expect(spread.element().textContent).toContain("2");
    const box = scroller()!.getBoundingClientRect();
    const mid = spread.element().getBoundingClientRect();
    expect(Math.abs(mid.top + mid.height / 2 - (box.top + box.height / 2))).toBeLessThan(20);
    const ask0 = cell("ask", 0, "price")!.getBoundingClientRect();
    const bid0 = cell("bid", 0, "price")!.getBoundingClientRect();
    expect(ask0.bottom).toBeLessThanOrEqual(mid.top + 1);
    expect(bid0.top).toBeGreaterThanOrEqual(mid.bottom - 1);
  });

  it("keeps the rows under the eye still when a stacked book grows to 250 levels", async () => {
    updateSetting("book_layout", 1);
    await mount(360, 420);
    await expect.poll(() => cellText("ask", 0, "price")).toBe("50001");
    expect(harness.fake.liveBooks()[0]?.request.depth).toBe(100);
    const el = scroller()!;
    // Scroll up towards the deep asks, to level 95: the widget asks for the 250-level book.
    el.scrollTop = 4 * 20;
    await expect.poll(() => harness.fake.liveBooks()[0]?.request.depth).toBe(250);
    const top = el.getBoundingClientRect().top;
    // The ask that was at the top of the viewport is still there after the list grew above it.
    await expect.poll(() => cellText("ask", 95, "price")).toBe("50096");
    const row = cell("ask", 95, "price")!.getBoundingClientRect();
    expect(Math.abs(row.top - top)).toBeLessThan(21);
    el.scrollTop = 0;
    await expect.poll(() => cellText("ask", 249, "price")).toBe("50250");
  });

  it("takes screenshots in the dark and light themes", async () => {
    await page.viewport(560, 480);
    for (const layout of [2, 1, 3]) {
      updateSetting("book_layout", layout);
      for (const mode of ["dark", "light"] as const) {
        applyTheme(document.documentElement, { name: "default", mode, scheme: "default" }, true);
        const screen = await mount(520, 440);
        await expect.poll(() => cellText("bid", 0, "price")).toBe("49999");
        accountStore.view = {
          orders: [{ id: 1, symbol: "tBTCUSD", price: 49_997, amount: 1, type: "LIMIT", hidden: false }],
        } as unknown as AccountView;
        await userEvent.hover(page.elementLocator(cell("bid", 4, "amount")!));
        await new Promise((r) => requestAnimationFrame(r));
        await page.screenshot({ path: `../../../../../test-results/shots/book-${layout}-${mode}.png` });
        await screen.unmount();
      }
    }
    // The grid's narrowest book (5 of 24 columns on a laptop screen).
    updateSetting("book_layout", 2);
    await mount(280, 440);
    await expect.poll(() => cellText("bid", 0, "price")).toBe("49999");
    await page.screenshot({ path: `../../../../../test-results/shots/book-narrow.png` });
  });
});
