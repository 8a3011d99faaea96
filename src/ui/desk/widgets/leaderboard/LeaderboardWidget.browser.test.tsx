import { describe, expect, it } from "vitest";
import { page } from "vitest/browser";
import { NICKNAME_SETTING, type StatusView } from "../../../../protocol";
import { feedHealth } from "../../../test-support/fake-market";
import { widgetHarness } from "../../../test-support/widget-harness";
import type { AccountCall } from "./leaderboard";
import { LeaderboardPanel, leaderboardWidget, type LeaderboardSource } from "./LeaderboardWidget";

const harness = widgetHarness();
const T = Date.UTC(2026, 0, 2, 12, 0, 0);

/** A wire row `[MTS, null, USERNAME, RANKING, null, null, VALUE, null, null, TWITTER]`. */
const row = (rank: number, name: string, value: number): unknown[] => [
  T,
  null,
  name,
  rank,
  null,
  null,
  value,
  null,
  null,
  null,
];

/** A scripted source: every key subscribed, in order, and a push to the latest subscription. */
function fakeSource() {
  const keys: string[] = [];
  const listeners = new Map<string, (v: StatusView) => void>();
  const source: LeaderboardSource = {
    status: (key, onView, signal) => {
      keys.push(key);
      listeners.set(key, onView);
      signal.addEventListener("abort", () => listeners.delete(key));
      return new Promise(() => {});
    },
  };
  const push = (key: string, payload: unknown, status: StatusView["status"] = "SUBSCRIBED") =>
    listeners.get(key)?.({ handle: "h", key, status, payload, health: feedHealth(), version: 1 });
  return { source, keys, listeners, push };
}

const cellsOf = () =>
  [...document.querySelectorAll('[data-testid="leaderboard"] tbody tr')].map((tr) =>
    [...tr.querySelectorAll("td")].map((td) => td.textContent),
  );

describe("leaderboard widget", () => {
  it("is a competitions feature's widget", () => {
    expect(leaderboardWidget.type).toBe("leaderboard");
    expect(leaderboardWidget.feature).toBe("competitions");
  });

  it("shows the chosen board, best first, and follows the board, period and market choices", async () => {
    const fake = fakeSource();
    await harness.mount(
      <LeaderboardPanel source={() => fake.source} pair="BTCUSD" symbol="tBTCUSD" call={null} />,
      480,
      360,
    );
    expect(fake.keys).toEqual(["rank:vol:3h:tGLOBAL:USD"]);
    await expect.element(page.getByText("Loading…")).toBeVisible();
    fake.push("rank:vol:3h:tGLOBAL:USD", [row(2, "bob", 1200.5), row(1, "Алиса", 98_000)]);
    await expect.poll(cellsOf).toEqual([
      ["1", "Алиса", "98,000"],
      ["2", "bob", "1,200.5"],
    ]);
    // No nickname form for a visitor.
    expect(document.querySelector("input")).toBeNull();

    await page.getByRole("combobox", { name: "Board" }).selectOptions("Profit");
    await page.getByRole("combobox", { name: "Period" }).selectOptions("1 week");
    await page.getByRole("combobox", { name: "Markets" }).selectOptions("BTCUSD");
    expect(fake.keys.at(-1)).toBe("rank:plu_diff:1w:tBTCUSD");
    // Only the board shown is subscribed.
    expect([...fake.listeners.keys()]).toEqual(["rank:plu_diff:1w:tBTCUSD"]);
    fake.push("rank:plu_diff:1w:tBTCUSD", []);
    await expect.element(page.getByText("No one on this board yet")).toBeVisible();
    fake.push("rank:plu_diff:1w:tBTCUSD", [row(1, "carol", -50)]);
    await expect.poll(cellsOf, { timeout: 3000 }).toEqual([["1", "carol", "-50"]]);
  });

  it("lets a signed-in user join under a checked nickname and marks their row", async () => {
    const fake = fakeSource();
    const calls: [string, unknown][] = [];
    let stored = "";
    const call: AccountCall = (path, body) => {
      calls.push([path, body]);
      if (path === "/v2/auth/r/settings")
        return Promise.resolve({ status: 200, body: stored ? [[NICKNAME_SETTING, stored]] : [] });
      stored = (body as { settings: Record<string, string> }).settings[NICKNAME_SETTING] ?? "";
      return Promise.resolve({ status: 200, body: [1] });
    };
    await harness.mount(
      <LeaderboardPanel source={() => fake.source} pair="BTCUSD" symbol="tBTCUSD" call={call} />,
      560,
      360,
    );
    fake.push("rank:vol:3h:tGLOBAL:USD", [row(1, "whale", 5_000), row(2, "desk_7", 300)]);
    const input = page.getByLabelText("Public nickname");
    await expect.element(input).toHaveValue("");

    await input.fill("me@mail.com");
    await expect.element(page.getByText("Letters, digits, _ and - only")).toBeVisible();
    await expect.element(page.getByRole("button", { name: "Save" })).toBeDisabled();
    await input.fill("ab");
    await expect.element(page.getByText("3 to 16 characters")).toBeVisible();

    await input.fill("desk_7");
    await page.getByRole("button", { name: "Save" }).click();
    await expect.element(page.getByText("Saved")).toBeVisible();
    expect(calls.at(-1)).toEqual(["/v2/auth/w/settings/set", { settings: { [NICKNAME_SETTING]: "desk_7" } }]);
    await expect.poll(cellsOf).toEqual([
      ["1", "whale", "5,000"],
      ["2", "desk_7 (you)", "300"],
    ]);
    expect(document.querySelector('tr[aria-current="true"]')?.textContent).toContain("desk_7");

    await page.getByRole("button", { name: "Leave boards" }).click();
    await expect.poll(() => stored).toBe("");
    await expect.poll(() => cellsOf()[1]?.[1]).toBe("desk_7");
  });
});
