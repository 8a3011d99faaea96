import { I18nProvider } from "@lingui/react";
import { useState } from "react";
import { beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { page, userEvent } from "vitest/browser";
import { render } from "vitest-browser-react";
import { notices, notify } from "../desk/notices";
import { activateLocale, i18n } from "../i18n";
import { resetSettings, updateSetting } from "../settings/store";
import { NotificationsPanel } from "./NotificationsPanel";

beforeAll(async () => {
  await activateLocale("en");
});

beforeEach(() => {
  resetSettings();
  notices.toasts.length = 0;
  notices.history.length = 0;
  notices.unread = 0;
});

/** A toggle that opens the panel, as the desk's bar does. */
function Host() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Open
      </button>
      {open && <NotificationsPanel onClose={() => setOpen(false)} />}
    </>
  );
}

const mount = () =>
  render(
    <I18nProvider i18n={i18n}>
      <Host />
    </I18nProvider>,
  );

describe("the notifications panel", () => {
  it("takes the focus, closes on Escape and gives the focus back to what opened it", async () => {
    await mount();
    await page.getByRole("button", { name: "Open" }).click();
    const dialog = page.getByRole("dialog", { name: "Notifications" });
    await expect.element(dialog).toBeVisible();
    await expect.element(page.getByRole("heading", { name: "Notifications" })).toHaveFocus();
    await userEvent.keyboard("{Escape}");
    await expect.element(dialog).not.toBeInTheDocument();
    await expect.element(page.getByRole("button", { name: "Open" })).toHaveFocus();
    await page.getByRole("button", { name: "Open" }).click();
    await page.getByRole("button", { name: "Close" }).click();
    await expect.element(dialog).not.toBeInTheDocument();
  });

  it("shows each time in the time_format pattern at the utc_offset, with the exact time on hover", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      // 2026-11-25 21:30:05 UTC: 24-hour clock, and a date that moves to the 26th at UTC+3.
      vi.setSystemTime(Date.UTC(2026, 10, 25, 21, 30, 5));
      notify({ level: "info", kind: "main", text: "Price alert", ttl: 0 });
    } finally {
      vi.useRealTimers();
    }
    await mount();
    await page.getByRole("button", { name: "Open" }).click();
    const time = page.getByRole("dialog").getByRole("listitem").element().querySelector("time");
    // The product's default: YY-MM-DD HH:mm:ss at UTC.
    expect(time?.textContent).toBe("26-11-25 21:30:05");
    expect(time?.getAttribute("title")).toBe("2026-11-25 21:30:05 UTC");
    updateSetting("time_format", "DD.MM.YYYY HH:mm");
    updateSetting("utc_offset", 3);
    await expect.poll(() => time?.textContent).toBe("26.11.2026 00:30");
    expect(time?.getAttribute("title")).toBe("2026-11-26 00:30:05 UTC+3");
  });
});
