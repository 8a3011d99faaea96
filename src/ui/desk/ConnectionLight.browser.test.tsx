/**
 * The header's light and the feed badges read one state: the header is never "Live" while a badge
 * says "Stale", and a badge is never "Live" while the socket is down.
 */
import { I18nProvider } from "@lingui/react";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { render } from "vitest-browser-react";
import type { ConnectionState, FeedHealth } from "../../protocol";
import { activateLocale, i18n } from "../i18n";
import { ConnectionLight } from "./ConnectionLight";
import { connectionStore } from "./connection-store";
import { FeedBadge, HealthStore } from "./widgets/book";

const online: ConnectionState = {
  status: "online",
  reconnectRetries: 0,
  platform: 1,
  maintenance: false,
  silenceMs: 200,
};

function health(over: Partial<FeedHealth> = {}): FeedHealth {
  return {
    lastUpdateAt: Date.now() - 500,
    messagesPerSecond: 4,
    resyncs: 0,
    checksumsOk: 3,
    checksumsFailed: 0,
    stale: false,
    ...over,
  };
}

const light = () => document.querySelector<HTMLElement>('[data-testid="connection-light"]');
const badge = (id: string) => document.querySelector<HTMLElement>(`[data-testid="${id}"]`);

beforeAll(async () => {
  await activateLocale("en");
});

afterEach(() => {
  connectionStore.state = null;
});

describe("connection health: the header and the badges agree", () => {
  it("turns the header stale with the badge, and live again with it", async () => {
    connectionStore.state = online;
    const book = new HealthStore(() => Date.now());
    const tape = new HealthStore(() => Date.now());
    await render(
      <I18nProvider i18n={i18n}>
        <ConnectionLight />
        <FeedBadge store={book} testId="book-badge" />
        <FeedBadge store={tape} testId="tape-badge" />
      </I18nProvider>,
    );
    book.observe("SUBSCRIBED", health());
    tape.observe("SUBSCRIBED", health());
    await expect.poll(() => light()?.dataset["state"]).toBe("online");
    expect(light()?.textContent).toBe("Live");

    // The tape's channel goes quiet while the socket still carries the book.
    tape.observe("SUBSCRIBED", health({ stale: true }));
    await expect.poll(() => light()?.dataset["state"]).toBe("stale");
    expect(light()?.textContent).toBe("Stale");
    expect(badge("tape-badge")?.textContent).toContain("Stale");
    expect(badge("tape-badge")?.dataset["health"]).toBe("bad");
    expect(badge("book-badge")?.dataset["health"]).toBe("ok");

    tape.observe("SUBSCRIBED", health());
    await expect.poll(() => light()?.dataset["state"]).toBe("online");
  });

  it("shows the socket's reconnect on the badges too", async () => {
    connectionStore.state = online;
    const book = new HealthStore(() => Date.now());
    await render(
      <I18nProvider i18n={i18n}>
        <ConnectionLight />
        <FeedBadge store={book} testId="book-badge" />
      </I18nProvider>,
    );
    book.observe("SUBSCRIBED", health());
    await expect.poll(() => badge("book-badge")?.dataset["health"]).toBe("ok");
    connectionStore.state = { ...online, status: "connecting", reconnectRetries: 1 };
    await expect.poll(() => light()?.dataset["state"]).toBe("reconnecting");
    await expect.poll(() => badge("book-badge")?.textContent).toContain("Reconnecting…");
    expect(light()?.textContent).toBe("Reconnecting…");
    expect(badge("book-badge")?.dataset["health"]).toBe("warn");
  });
});
