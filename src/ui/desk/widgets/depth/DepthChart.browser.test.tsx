import { I18nProvider } from "@lingui/react";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { page, userEvent } from "vitest/browser";
import { render } from "vitest-browser-react";
import { activateLocale, i18n } from "../../../i18n";
import { resetSettings, updateSetting } from "../../../settings/store";
import { applyTheme } from "../../../theme/theme";
import { MarketSourceContext } from "../book";
import { FakeMarket, syntheticBook } from "../../../test-support/fake-market";
import { DepthChart, depthChartWidget } from "./DepthChart";

let fake: FakeMarket;

async function mount(width = 480, height = 260) {
  return await render(
    <I18nProvider i18n={i18n}>
      <MarketSourceContext value={fake}>
        <div style={{ width, height }}>
          <DepthChart widgetKey="widget/depth/1" pair="BTCUSD" symbol="tBTCUSD" />
        </div>
      </MarketSourceContext>
    </I18nProvider>,
  );
}

const canvas = () => document.querySelector<HTMLCanvasElement>('[data-testid="depth-canvas"]')!;
const frames = () => Number(canvas().dataset["frames"] ?? 0);
const nextFrame = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));

/** The colour drawn at CSS pixel (x, y) of the chart, as "r,g,b,a". */
function pixel(x: number, y: number): string {
  const c = canvas();
  const scale = c.width / c.clientWidth;
  const d = c.getContext("2d")!.getImageData(Math.round(x * scale), Math.round(y * scale), 1, 1).data;
  return `${d[0]},${d[1]},${d[2]},${d[3]}`;
}

beforeAll(async () => {
  await activateLocale("en");
});

beforeEach(() => {
  resetSettings();
  fake = new FakeMarket();
  applyTheme(document.documentElement, { name: "default", mode: "dark", scheme: "default" }, true);
});

describe("depth chart widget", () => {
  it("declares itself for the desk grid", () => {
    expect(depthChartWidget.type).toBe("depth");
    expect(depthChartWidget.component).toBe(DepthChart);
  });

  it("draws bids left and asks right of the mid in the theme's colours, sized to its box", async () => {
    await mount(480, 260);
    await expect.poll(frames).toBeGreaterThan(0);
    await nextFrame();
    const c = canvas();
    expect(c.width).toBe(Math.round(480 * devicePixelRatio));
    expect(c.height).toBe(Math.round(260 * devicePixelRatio));
    // Near the bottom, just inside each edge, both areas are filled, in different colours.
    const left = pixel(20, 220);
    const right = pixel(460, 220);
    expect(left.endsWith(",0")).toBe(false);
    expect(right.endsWith(",0")).toBe(false);
    expect(left).not.toBe(right);
    expect(fake.liveBooks()[0]?.request).toMatchObject({ symbol: "tBTCUSD", prec: "P0", len: 100, depth: 100 });

    // A resize redraws at the new size.
    (c.parentElement!.parentElement as HTMLElement).style.width = "300px";
    await expect.poll(() => c.width).toBe(Math.round(300 * devicePixelRatio));
  });

  it("coalesces a burst of views into one frame", async () => {
    await mount();
    await expect.poll(frames).toBeGreaterThan(0);
    await nextFrame();
    const before = frames();
    for (let v = 2; v < 22; v++) fake.pushBook((r) => syntheticBook(r, { seed: v, version: v }));
    await nextFrame();
    expect(frames() - before).toBe(1);
  });

  it("shows a readout of price and total under the pointer", async () => {
    await mount(480, 260);
    await expect.poll(frames).toBeGreaterThan(0);
    const readout = page.getByTestId("depth-readout");
    await userEvent.hover(page.getByTestId("depth-canvas"), { position: { x: 60, y: 100 } });
    await expect.poll(() => readout.element().getAttribute("data-hidden")).toBe("false");
    expect(readout.element().getAttribute("data-side")).toBe("bid");
    expect(readout.element().textContent).toContain("Bids");
    const price = Number(readout.element().querySelector('[data-part="price"]')?.textContent);
    expect(price).toBeLessThan(50_000);
    await userEvent.hover(page.getByTestId("depth-canvas"), { position: { x: 420, y: 100 } });
    await expect.poll(() => readout.element().getAttribute("data-side")).toBe("ask");
  });

  it("follows the theme: a mode switch redraws with the new colours", async () => {
    await mount(480, 260);
    await expect.poll(frames).toBeGreaterThan(0);
    await nextFrame();
    const dark = [pixel(20, 220), pixel(460, 220)];
    applyTheme(document.documentElement, { name: "default", mode: "light", scheme: "default" }, true);
    await nextFrame();
    const light = [pixel(20, 220), pixel(460, 220)];
    expect(light[0]).not.toBe(dark[0]);
    expect(light[1]).not.toBe(dark[1]);
    // Red-up swaps the sides' colours.
    applyTheme(document.documentElement, { name: "default", mode: "light", scheme: "red-up" }, true);
    await nextFrame();
    expect([pixel(20, 220), pixel(460, 220)]).toEqual([light[1], light[0]]);
  });

  it("re-requests the book when the precision setting changes", async () => {
    await mount();
    await expect.poll(() => fake.liveBooks().length).toBe(1);
    updateSetting("book_precision", 3);
    await expect.poll(() => fake.liveBooks()[0]?.request.prec).toBe("P3");
    expect(fake.liveBooks()).toHaveLength(1);
  });

  it("takes screenshots in the dark and light themes", async () => {
    await page.viewport(520, 300);
    for (const mode of ["dark", "light"] as const) {
      applyTheme(document.documentElement, { name: "default", mode, scheme: "default" }, true);
      const screen = await mount(500, 280);
      await expect.poll(frames).toBeGreaterThan(0);
      await userEvent.hover(page.getByTestId("depth-canvas"), { position: { x: 150, y: 120 } });
      await nextFrame();
      await page.screenshot({ path: `../../../../../test-results/shots/depth-${mode}.png` });
      await screen.unmount();
    }
  });
});
