import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { resetSettings, settings, shareWithOtherTabs, TABS_CHANNEL, updateSetting } from "./store";

/** The other tab: a second BroadcastChannel of the same name (Node's, as in a browser). */
function otherTab() {
  const channel = new BroadcastChannel(TABS_CHANNEL);
  const got: unknown[] = [];
  channel.onmessage = (e: MessageEvent) => got.push(e.data);
  return { channel, got };
}

const settle = () => new Promise((r) => setTimeout(r, 30));

let stop: () => void = () => {};
beforeEach(() => {
  resetSettings();
  stop = shareWithOtherTabs(new BroadcastChannel(TABS_CHANNEL));
});
afterEach(() => stop());

describe("settings across the tabs of one browser", () => {
  it("tells the other tabs each change, and applies theirs through the same bounds", async () => {
    const other = otherTab();
    updateSetting("chart_height", 600);
    await settle();
    expect(other.got).toEqual([{ chart_height: 600 }]);

    other.channel.postMessage({ orders_display_limit: 50, chart_height: -5, not_a_setting: 1 });
    await settle();
    expect(settings.orders_display_limit).toBe(50);
    // Refused by its bound: the value held stays.
    expect(settings.chart_height).toBe(600);
    expect("not_a_setting" in settings).toBe(false);
    // What came from another tab is not sent back.
    expect(other.got).toEqual([{ chart_height: 600 }]);
    other.channel.close();
  });

  it("the last change made in any tab wins", async () => {
    const other = otherTab();
    updateSetting("sidebar_side", "right");
    other.channel.postMessage({ sidebar_side: "left" });
    await settle();
    expect(settings.sidebar_side).toBe("left");
    updateSetting("sidebar_side", "right");
    await settle();
    expect(other.got.at(-1)).toEqual({ sidebar_side: "right" });
    other.channel.close();
  });
});
