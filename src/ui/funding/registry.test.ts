import { describe, expect, it } from "vitest";
import { parseWidgetKey } from "../../protocol";
import { parseLayout } from "../desk/grid/layout";
import { WIDGETS } from "../desk/registry";
import { defaultFundingLayout, FUNDING_MARKET_WIDGETS, FUNDING_WIDGETS, OFFER_FORM_TYPE } from "./registry";

const overlaps = (a: { x: number; y: number; w: number; h: number }, b: typeof a): boolean =>
  a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

describe("the funding desk's registry and default layout", () => {
  it("has its own widget types, none of the trading desk's", () => {
    const trading = new Set(WIDGETS.map((w) => w.type));
    for (const w of FUNDING_WIDGETS) expect(trading.has(w.type), w.type).toBe(false);
  });

  it("places every widget once, without overlaps, the offer form where the order form is", () => {
    const layout = defaultFundingLayout("");
    const types = layout.items.map((i) => parseWidgetKey(i.key)?.type);
    expect(new Set(types)).toEqual(new Set(FUNDING_WIDGETS.map((w) => w.type)));
    for (const a of layout.items)
      for (const b of layout.items) if (a !== b) expect(overlaps(a, b), `${a.key} / ${b.key}`).toBe(false);
    const form = layout.items.find((i) => i.key === `widget/${OFFER_FORM_TYPE}/main`);
    if (FUNDING_WIDGETS.some((w) => w.type === OFFER_FORM_TYPE)) expect(form).toMatchObject({ x: 0, y: 0 });
  });

  it("gives the chart the form's column when there is no offer form", () => {
    const layout = defaultFundingLayout("", FUNDING_MARKET_WIDGETS);
    expect(layout.items.find((i) => i.key === "widget/funding-chart/main")).toMatchObject({ x: 0, w: 17 });
  });

  it("keeps a funding pin (f/{ccy}, funding/{ccy} read as f/{ccy}) in a stored layout", () => {
    const known = new Set(FUNDING_WIDGETS.map((w) => w.type));
    const stored = {
      id: "l",
      name: "Mine",
      version: "1.0.0",
      items: [
        { key: "widget/funding-book/main", x: 0, y: 0, w: 7, h: 20, pair: "funding/BTC" },
        { key: "widget/funding-trades/main", x: 7, y: 0, w: 7, h: 20, pair: "f/ETH" },
        { key: "widget/funding-chart/main", x: 14, y: 0, w: 10, h: 20, pair: "f/<b>" },
        { key: "widget/book/main", x: 0, y: 20, w: 7, h: 20 },
      ],
    };
    const layout = parseLayout(stored, known);
    expect(layout?.items.map((i) => [i.key, i.pair])).toEqual([
      ["widget/funding-book/main", "f/BTC"],
      ["widget/funding-trades/main", "f/ETH"],
      ["widget/funding-chart/main", undefined],
    ]);
  });
});
