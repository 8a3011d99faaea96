import { I18nProvider } from "@lingui/react";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { page, userEvent } from "vitest/browser";
import { render } from "vitest-browser-react";
import { activateLocale, i18n } from "../i18n";
import { resetSettings, updateSetting } from "../settings/store";
import { NotificationsPanel } from "../notifications/NotificationsPanel";
import { resetNoticeSound, Toasts } from "./Notices";
import { notices, notify } from "./notices";

/**
 * Web Audio as the browser gives it before a user gesture: the context starts suspended, and
 * `resume` only gets it running once the page allows it (`allowed`). Records every tone started.
 */
class FakeAudioContext {
  static instances: FakeAudioContext[] = [];
  static allowed = false;
  static tones: number[] = [];
  state: AudioContextState = "suspended";
  currentTime = 0;
  resumes = 0;
  readonly destination = {};

  constructor() {
    FakeAudioContext.instances.push(this);
  }

  resume(): Promise<void> {
    this.resumes++;
    if (FakeAudioContext.allowed) this.state = "running";
    return Promise.resolve();
  }

  close(): Promise<void> {
    this.state = "closed";
    return Promise.resolve();
  }

  createOscillator() {
    const osc = {
      frequency: { value: 0 },
      connect: (node: unknown) => node,
      start: () => FakeAudioContext.tones.push(osc.frequency.value),
      stop: () => undefined,
    };
    return osc;
  }

  createGain() {
    return {
      gain: { setValueAtTime: () => undefined, exponentialRampToValueAtTime: () => undefined },
      connect: (node: unknown) => node,
    };
  }
}

beforeAll(async () => {
  await activateLocale("en");
  vi.stubGlobal("AudioContext", FakeAudioContext);
});

afterAll(() => {
  vi.unstubAllGlobals();
});

beforeEach(() => {
  resetSettings();
  resetNoticeSound();
  FakeAudioContext.instances = [];
  FakeAudioContext.allowed = false;
  FakeAudioContext.tones = [];
  notices.toasts.length = 0;
  notices.history.length = 0;
  notices.unread = 0;
});

function mount(sidebar = false) {
  return render(
    <I18nProvider i18n={i18n}>
      <div style={{ width: 800, height: 500, position: "relative" }}>
        {sidebar && <NotificationsPanel onClose={() => undefined} />}
        <Toasts />
      </div>
    </I18nProvider>,
  );
}

const toastTexts = (): string[] =>
  [...document.querySelectorAll('[data-testid="toast"]')].map((t) => t.textContent?.replace("✕", "") ?? "");

describe("toasts and the notifications sidebar", () => {
  it("shows toasts until their TTL or a dismiss, and lists every notice in the sidebar, newest first", async () => {
    await mount(true);
    await expect.element(page.getByText("Nothing yet. Order updates and alerts appear here.")).toBeVisible();
    notify({ level: "success", kind: "orders", text: "Order 1 placed", ttl: 300 });
    notify({ level: "error", kind: "main", text: "Connection lost", ttl: 0 });
    await expect.poll(toastTexts).toEqual(["Order 1 placed", "Connection lost"]);
    // The open sidebar has shown them: nothing unread.
    await expect.poll(() => notices.unread).toBe(0);
    await expect.poll(toastTexts, { timeout: 3000 }).toEqual(["Connection lost"]);
    await page.getByRole("button", { name: "Dismiss" }).click();
    await expect.poll(toastTexts).toEqual([]);
    const items = [...page.getByTestId("notifications-panel").element().querySelectorAll("[data-level]")];
    expect(items.map((i) => [i.getAttribute("data-level"), i.firstElementChild?.textContent])).toEqual([
      ["error", "Connection lost"],
      ["success", "Order 1 placed"],
    ]);
    expect(items[0]?.querySelector("time")?.getAttribute("datetime")).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  it("leaves nothing unread while the sidebar is open, even once its history is full", async () => {
    await mount(true);
    for (let i = 0; i < 105; i++) notify({ level: "info", kind: "orders", text: `Order ${i}`, ttl: 0 });
    await expect.poll(() => notices.history.length).toBe(100);
    await expect.poll(() => notices.unread).toBe(0);
    // The history no longer grows; a new notice must still count as read.
    notify({ level: "info", kind: "orders", text: "Order 105", ttl: 0 });
    await expect.poll(() => notices.history[0]?.text).toBe("Order 105");
    await expect.poll(() => notices.unread).toBe(0);
  });

  it("counts unread notices while the sidebar is closed and keeps switched-off kinds out of it", async () => {
    await mount(false);
    updateSetting("notify_trades", false);
    notify({ level: "success", kind: "trades", text: "Bought 1 BTCUSD" });
    notify({ level: "info", kind: "main", text: "Price alert" });
    await expect.poll(toastTexts).toEqual(["Price alert"]);
    expect(notices.unread).toBe(1);
    expect(notices.history.map((n) => n.text)).toEqual(["Price alert"]);
    // Switching a kind off hides its toasts already on screen.
    updateSetting("notify_main", false);
    await expect.poll(toastTexts).toEqual([]);
  });

  it("plays a tone only when sound_notices is on", async () => {
    FakeAudioContext.allowed = true;
    await mount();
    updateSetting("sound_notices", false);
    notify({ level: "info", kind: "main", text: "quiet" });
    await expect.poll(toastTexts).toEqual(["quiet"]);
    await userEvent.click(page.getByTestId("toasts"));
    // No sound wanted: no audio context at all, not even on a gesture.
    expect(FakeAudioContext.instances).toHaveLength(0);
    expect(FakeAudioContext.tones).toEqual([]);

    updateSetting("sound_notices", true);
    notify({ level: "error", kind: "orders", text: "refused" });
    // The context was made suspended and the notice resumed it (the page had a gesture): 220 Hz.
    await expect.poll(() => FakeAudioContext.tones).toEqual([220]);
    notify({ level: "success", kind: "orders", text: "filled" });
    await expect.poll(() => FakeAudioContext.tones).toEqual([220, 880]);
    expect(FakeAudioContext.instances).toHaveLength(1);
  });

  it("resumes the audio on the first gesture when the first notice came before any", async () => {
    await mount();
    notify({ level: "info", kind: "main", text: "early" });
    await expect.poll(toastTexts).toEqual(["early"]);
    // Before a gesture the browser keeps the context suspended: no tone, but the notice asked.
    await expect.poll(() => FakeAudioContext.instances[0]?.resumes).toBe(1);
    expect(FakeAudioContext.instances[0]?.state).toBe("suspended");
    expect(FakeAudioContext.tones).toEqual([]);

    FakeAudioContext.allowed = true;
    await userEvent.click(page.getByTestId("toasts"));
    await expect.poll(() => FakeAudioContext.instances[0]?.state).toBe("running");
    // The suspended notice does not sound late; the next one does.
    expect(FakeAudioContext.tones).toEqual([]);
    notify({ level: "info", kind: "main", text: "later" });
    await expect.poll(() => FakeAudioContext.tones).toEqual([660]);
    expect(FakeAudioContext.instances).toHaveLength(1);
  });
});
