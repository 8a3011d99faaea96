import { describe, expect, it } from "vitest";
import { page, userEvent } from "vitest/browser";
import type { AccountView, Order } from "../../../../protocol";
import { settings, updateSetting } from "../../../settings/store";
import { applyTheme } from "../../../theme/theme";
import { accountStore } from "../../account-store";
import { orderDraft } from "../../desk-state";
import { widgetHarness } from "../../../test-support/widget-harness";
import { syntheticBook } from "../../../test-support/fake-market";
import type { BookPart } from "./book-columns";
import { inspectorOf, type BookSide } from "./book-painter";
import { OrderBook, orderBookWidget } from "./OrderBook";

const harness = widgetHarness();

function mount(width = 520, height = 420) {
  return harness.mount(<OrderBook widgetKey="widget/book/1" pair="BTCUSD" symbol="tBTCUSD" />, width, height);
}

const scroller = () => document.querySelector<HTMLElement>('[data-testid="book-scroller"]');
const canvas = () => document.querySelector<HTMLCanvasElement>('[data-testid="book-canvas"]');
const inspector = () => inspectorOf(document.querySelector('[data-testid="order-book"]'));
const drawn = (side: string, level: number) =>
  inspector()
    ?.rows()
    .find((r) => r.side === side && r.level === level) ?? null;
const cellText = (side: string, level: number, part: BookPart) => drawn(side, level)?.[part] ?? null;
/** Where a drawn cell is, relative to the scroller (what Playwright's `position` takes). */
const at = (side: BookSide, level: number, part: BookPart) => {
  const p = inspector()?.point(side, level, part);
  const box = scroller()?.getBoundingClientRect();
  if (!p || !box) throw new Error(`${side} ${level} ${part} is not in sight`);
  return { position: { x: p.x - box.left, y: p.y - box.top } };
};
const list = () => page.elementLocator(scroller()!);
/** What the live region says about the keyboard cursor. */
const said = () => page.getByTestId("book-cursor-said").element().textContent ?? "";
/** The levels drawn as swept (side and level), best first. */
const swept = () =>
  inspector()!
    .rows()
    .filter((r) => r.swept)
    .map((r) => `${r.side}${r.level}`);
/** Whether any pixel of the canvas in the box (CSS pixels) is drawn. */
const inked = (x: number, y: number, w: number, h: number) => {
  const c = canvas()!;
  const ratio = c.width / c.clientWidth;
  const data = c.getContext("2d")!.getImageData(x * ratio, y * ratio, w * ratio, h * ratio).data;
  for (let i = 3; i < data.length; i += 4) if (data[i]! > 0) return true;
  return false;
};
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
    // 250 levels a side, 500 half-rows in all, yet only what the viewport shows is drawn, and the
    // DOM holds no row at all: the rows are pixels on one canvas.
    const rows = inspector()!.rows();
    expect(rows.length).toBeGreaterThan(10);
    expect(rows.length).toBeLessThan(60);
    expect(document.querySelectorAll("[data-testid=order-book] *").length).toBeLessThan(80);
  });

  it("is as long as the book: a shallow book does not scroll into blank rows", async () => {
    await mount();
    await expect.poll(() => cellText("bid", 0, "price")).toBe("49999");
    const el = scroller()!;
    // 100 levels asked for, 37 there: the list ends after the 40th row (levels in steps of ten).
    harness.fake.pushBook((r) => syntheticBook(r, { levels: 37, version: 2 }));
    await expect.poll(() => el.scrollHeight).toBe(40 * 20);
    el.scrollTop = el.scrollHeight;
    await expect.poll(() => cellText("bid", 36, "price")).toBe(String(50_000 - 37));
    // At most the rounding to ten rows is blank below the deepest level.
    expect(
      Math.max(
        ...inspector()!
          .rows()
          .map((r) => r.y),
      ),
    ).toBeGreaterThanOrEqual(el.clientHeight - 4 * 20);
    // Deeper again: the list grows with it.
    harness.fake.pushBook((r) => syntheticBook(r, { version: 3 }));
    await expect.poll(() => el.scrollHeight).toBe(100 * 20);
  });

  it("draws views on its canvas: new numbers on the same canvas, blank when the book empties", async () => {
    await mount();
    await expect.poll(() => cellText("bid", 0, "price")).toBe("49999");
    const before = canvas();
    const row = drawn("bid", 0)!;
    expect(inked(0, row.y, 200, 20)).toBe(true);
    harness.fake.pushBook((r) => syntheticBook(r, { mid: 50_100, version: 2 }));
    await expect.poll(() => cellText("bid", 0, "price")).toBe("50099");
    expect(canvas()).toBe(before);
    harness.fake.pushBook((r) => ({ ...syntheticBook(r, { version: 3 }), bids: 0, asks: 0 }));
    await expect.poll(() => inspector()!.rows().length).toBe(0);
    expect(inked(0, 0, 200, 200)).toBe(false);
  });

  it("fills the order form from a price or an amount click", async () => {
    await mount();
    await expect.poll(() => cellText("ask", 0, "price")).toBe("50001");
    await list().click(at("ask", 0, "price"));
    expect(orderDraft).toMatchObject({ price: "50001", side: "buy", focus: "amount", seq: 1 });

    const view = syntheticBook(harness.fake.liveBooks()[0]!.request);
    const cumulativeBid2 = view.levels[2 * 4 + 3]!;
    await list().click(at("bid", 2, "amount"));
    expect(orderDraft.side).toBe("sell");
    expect(orderDraft.price).toBe("49997");
    expect(Number(orderDraft.amount)).toBeCloseTo(cumulativeBid2, 8);
    expect(orderDraft.seq).toBe(2);
  });

  it("is keyboard accessible: one focus stop, arrows move a drawn cursor, Enter fills", async () => {
    await mount();
    await expect.poll(() => cellText("bid", 0, "price")).toBe("49999");
    scroller()!.focus();
    await userEvent.keyboard("{ArrowDown}");
    await expect.poll(said).toContain("Bid 2: price 49998");
    await userEvent.keyboard("{ArrowDown}");
    await expect.poll(said).toContain("Bid 3: price 49997");
    await userEvent.keyboard("{Enter}");
    expect(orderDraft).toMatchObject({ price: "49997", side: "sell" });
    // Left of a bid's price is its amount: Enter takes the cumulative amount too.
    await userEvent.keyboard("{ArrowLeft}");
    await userEvent.keyboard("{Enter}");
    const view = syntheticBook(harness.fake.liveBooks()[0]!.request);
    expect(Number(orderDraft.amount)).toBeCloseTo(view.levels[2 * 4 + 3]!, 8);
    // Right, right: across to the ask's price at the same depth.
    await userEvent.keyboard("{ArrowRight}{ArrowRight}{ArrowUp}");
    await expect.poll(said).toContain("Ask 2: price 50002");
    await userEvent.keyboard("{Enter}");
    expect(orderDraft).toMatchObject({ price: "50002", side: "buy" });
    // The cursor is drawn: a focus ring over the ask's price cell.
    const row = drawn("ask", 1)!;
    const g = inspector()!.point("ask", 1, "price")!;
    const box = canvas()!.getBoundingClientRect();
    expect(inked(g.x - box.left - 20, row.y, 40, 3)).toBe(true);
  });

  it("marks the levels a market order would sweep up to the hovered one", async () => {
    await mount();
    await expect.poll(() => cellText("bid", 0, "price")).toBe("49999");
    await userEvent.hover(list(), at("bid", 3, "total"));
    await expect.poll(swept).toEqual(["bid0", "bid1", "bid2", "bid3"]);
    await userEvent.hover(list(), at("ask", 1, "count"));
    await expect.poll(swept).toEqual(["ask0", "ask1"]);
    await userEvent.hover(page.getByTestId("book-prec-P1"));
    await expect.poll(swept).toEqual([]);
  });

  it("re-marks the swept levels when a wheel scrolls the book under a still pointer", async () => {
    await mount();
    await expect.poll(() => cellText("bid", 0, "price")).toBe("49999");
    const deepestSwept = () => swept().at(-1);
    await userEvent.hover(list(), at("bid", 3, "total"));
    await expect.poll(deepestSwept).toBe("bid3");
    // Five rows down: the pointer is now over the 9th level.
    scroller()!.scrollTop = 5 * 20;
    await expect.poll(deepestSwept).toBe("bid8");
  });

  it("does nothing on a click between columns (the ladder's other half)", async () => {
    updateSetting("book_layout", 3);
    await mount(520, 420);
    await expect.poll(() => cellText("bid", 0, "price")).toBe("49999");
    const bid = inspector()!.point("bid", 0, "price")!;
    const box = scroller()!.getBoundingClientRect();
    // Right of the price column on a bid row: the asks' columns, empty on a bid row.
    await list().click({ position: { x: box.width - 30, y: bid.y - box.top } });
    expect(orderDraft.seq).toBe(0);
    await list().click(at("bid", 0, "price"));
    expect(orderDraft).toMatchObject({ price: "49999", side: "sell", seq: 1 });
  });

  it("keeps the keyboard cursor on levels present, End to the deepest, PageDown a page on", async () => {
    await mount();
    await expect.poll(() => cellText("bid", 0, "price")).toBe("49999");
    harness.fake.pushBook((r) => syntheticBook(r, { levels: 37, version: 2 }));
    await expect.poll(() => scroller()!.scrollHeight).toBe(40 * 20);
    scroller()!.focus();
    await userEvent.keyboard("{End}");
    // 40 rows listed, 37 levels present: the cursor stops on the 37th.
    await expect.poll(said).toContain("Bid 37: price 49963");
    await userEvent.keyboard("{ArrowDown}");
    await expect.poll(said).toContain("Bid 37:");
    await userEvent.keyboard("{Home}{PageDown}");
    await expect.poll(said).toMatch(/^Bid (1[0-9]|[2-9]):/);
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
    const own = (side: string, level: number) => drawn(side, level)?.own;
    await expect.poll(() => own("bid", 2)).toBe(true);
    // 50002.2 rests in the 50003 ask level (asks round up).
    expect(own("ask", 2)).toBe(true);
    expect(own("ask", 1)).toBe(false);
    expect(own("bid", 9)).toBe(false);
    expect(own("bid", 4)).toBe(false);
    // The mark is drawn on the bid's outer (left) edge.
    expect(inked(0, drawn("bid", 2)!.y + 6, 4, 8)).toBe(true);
    expect(inked(0, drawn("bid", 3)!.y + 6, 4, 8)).toBe(false);
  });

  it("stacks asks above the spread and bids below, centred on the spread", async () => {
    updateSetting("book_layout", 1);
    await mount(360, 420);
    await expect.poll(() => cellText("bid", 0, "price")).toBe("49999");
    const spread = inspector()!.spread()!;
    expect(spread.text).toMatch(/^Spread 2 \(/);
    const height = scroller()!.clientHeight;
    expect(Math.abs(spread.y + 10 - height / 2)).toBeLessThan(20);
    expect(drawn("ask", 0)!.y).toBe(spread.y - 20);
    expect(drawn("bid", 0)!.y).toBe(spread.y + 20);
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
    // The ask that was at the top of the viewport is still there after the list grew above it.
    await expect.poll(() => cellText("ask", 95, "price")).toBe("50096");
    expect(Math.abs(drawn("ask", 95)!.y)).toBeLessThan(21);
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
        await userEvent.hover(list(), at("bid", 4, "amount"));
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
