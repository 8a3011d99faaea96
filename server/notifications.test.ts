/**
 * The notifications page's exchange side over HTTP against SQLite (docs/product-rules.md#notifications-page):
 * preferences stored through the settings calls and bounded, the e-mail flags the exchange consults
 * (`wantsMail`), newsletters with double opt-in for an account and for a guest (a link used twice,
 * one expired, the unsubscribe link of every newsletter mail), and the notification history
 * recorded from real order activity, paged, filtered, capped and marked read. Every refused call
 * changes nothing.
 */
import { describe, expect, it } from "vitest";
import {
  campaignRowCodec,
  NEWSLETTER_CONFIRM_TTL_MS,
  NOTIFICATION_HISTORY_KEPT,
  notificationCodec,
  notificationHistoryRowCodec,
  type CampaignRow,
  type NotificationHistoryRow,
} from "../src/protocol/index.ts";
import { openVenue } from "./exchange/venue.ts";
import { GUEST_CALLS_PER_WINDOW, GUEST_WINDOW_MS, MAILS_PER_HOUR } from "./newsletters.ts";
import { wantsMail } from "./notification-prefs.ts";
import { DEFAULT_LIMITS } from "./rate-limit.ts";
import { notice } from "./reply.ts";
import { mailsTo } from "./test-support/api.ts";
import { testApi, until } from "./test-support/session.ts";

let clock = Date.now();
const now = (): number => clock;
const venue = openVenue({ dbPath: ":memory:", seed: 5, now, markets: [{ symbol: "tBTCUSD", start: 30_000 }] });

const api = testApi({
  exchange: venue.exchange,
  account: venue.gateway,
  now,
  limits: { ...DEFAULT_LIMITS, login: 1000, auth: 100_000, public: 100_000 },
});

const { post } = api;

let n = 0;
/** A new verified account with 1000 USD, signed in. */
async function account(): Promise<{ id: number; token: string; email: string }> {
  n += 1;
  const login = `reader${n}`;
  const email = `${login}@example.com`;
  const id = venue.accounts.createUser(email, login, "long-enough-pw", clock, true);
  venue.funds.deposit(id, "USD", 1000, "Deposit");
  const [status, body] = await post("/v2/login", { login, password: "long-enough-pw" });
  expect(status).toBe(200);
  return { id, email, token: (body as string[])[0] as string };
}

const refusal = (msg: string): [number, unknown] => [400, ["error", 10020, msg]];
const count = (sql: string, ...args: unknown[]): number => (venue.db.prepare(sql).get(...args) as { n: number }).n;

/** The token of the newest mail to `to` whose body holds `path?token=`. */
async function linkIn(to: string, path: string): Promise<string> {
  const mail = (await mailsTo(api.base, to)).find((m) => m.body.includes(`${path}?token=`));
  return new RegExp(`${path}\\?token=([0-9a-f]{64})`).exec(mail?.body ?? "")?.[1] ?? "";
}

async function campaigns(token: string): Promise<CampaignRow[]> {
  const [status, body] = await post("/v2/auth/r/int/email/newsletters", {}, token);
  expect(status).toBe(200);
  const rows = campaignRowCodec.decodeList(body);
  if (!rows.ok) throw new Error("campaign rows undecodable");
  return rows.value;
}
const statusOf = async (token: string, id: string): Promise<string | null> =>
  (await campaigns(token)).find((c) => c.id === id)?.status ?? null;

describe("notification preferences", () => {
  it("stores the flags through the settings calls, ignores a value out of its bound, and the exchange honours the mail flags", async () => {
    const a = await account();
    for (const kind of ["withdrawal_completed", "deposit_arrived", "deposit_completed"] as const)
      expect(wantsMail(venue.db, a.id, kind)).toBe(true);
    const [status, body] = await post(
      "/v2/auth/w/settings/set",
      {
        settings: {
          notify_orders: false,
          email_deposit_arrived: false,
          // Out of bound (not a boolean): ignored, the rest of the update kept.
          sound_notices: "off",
          email_withdrawal_completed: 0,
        },
      },
      a.token,
    );
    expect([status, body]).toEqual([200, [2]]);
    expect(
      await post(
        "/v2/auth/r/settings",
        { keys: ["notify_orders", "email_deposit_arrived", "sound_notices", "email_withdrawal_completed"] },
        a.token,
      ),
    ).toEqual([
      200,
      [
        ["notify_orders", false],
        ["email_deposit_arrived", false],
      ],
    ]);
    expect(wantsMail(venue.db, a.id, "deposit_arrived")).toBe(false);
    expect(wantsMail(venue.db, a.id, "withdrawal_completed")).toBe(true);
    expect(wantsMail(venue.db, a.id, "deposit_completed")).toBe(true);
    expect(await post("/v2/auth/w/settings/set", { settings: { email_deposit_arrived: true } }, a.token)).toEqual([
      200,
      [1],
    ]);
    expect(wantsMail(venue.db, a.id, "deposit_arrived")).toBe(true);
    // A body that is not a settings object stores nothing.
    expect(await post("/v2/auth/w/settings/set", { settings: [["notify_orders", true]] }, a.token)).toEqual(
      refusal("settings: invalid"),
    );
    expect(await post("/v2/auth/r/settings", { keys: ["notify_orders"] }, a.token)).toEqual([
      200,
      [["notify_orders", false]],
    ]);
  });
});

describe("newsletters", () => {
  it("lists the three campaigns to a guest and to an account, with the account's status", async () => {
    const [status, body] = await post("/v2/int/email/newsletters", {});
    expect(status).toBe(200);
    const rows = campaignRowCodec.decodeList(body);
    expect(rows.ok && rows.value.map((r) => [r.id, r.status])).toEqual([
      ["market-weekly", null],
      ["product-news", null],
      ["research-desk", null],
    ]);
    const a = await account();
    expect((await campaigns(a.token)).map((c) => c.status)).toEqual(["none", "none", "none"]);
  });

  it("keeps an account's subscription pending until the mailed link is opened, once", async () => {
    const a = await account();
    const [status, body] = await post(
      "/v2/auth/w/email/newsletters/subscribe",
      { campaignId: "product-news" },
      a.token,
    );
    expect(status).toBe(200);
    const row = campaignRowCodec.decode(body);
    expect(row.ok && row.value.status).toBe("pending");
    expect(await statusOf(a.token, "product-news")).toBe("pending");
    const token = await linkIn(a.email, "/newsletters/confirm");
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    // Only a digest is stored.
    expect(count("SELECT COUNT(*) AS n FROM newsletter_links WHERE token_hash = ?", token)).toBe(0);

    expect(await post("/v2/int/email/newsletters/confirm", { token })).toEqual([200, ["product-news", a.email]]);
    expect(await statusOf(a.token, "product-news")).toBe("subscribed");
    // The link works once.
    expect(await post("/v2/int/email/newsletters/confirm", { token })).toEqual(refusal("token: used"));
    expect(await post("/v2/int/email/newsletters/confirm", { token: "f".repeat(64) })).toEqual(
      refusal("token: invalid"),
    );
    expect(await post("/v2/int/email/newsletters/confirm", { token: "not a token" })).toEqual(
      refusal("token: invalid"),
    );

    // Subscribed: asking again mails nothing.
    const mails = (await mailsTo(api.base, a.email)).length;
    await post("/v2/auth/w/email/newsletters/subscribe", { campaignId: "product-news" }, a.token);
    expect((await mailsTo(api.base, a.email)).length).toBe(mails);

    // The welcome mail is a newsletter mail: its unsubscribe link works without signing in.
    const welcome = (await mailsTo(api.base, a.email)).find((m) => m.subject === "You are subscribed to Product News");
    expect(welcome?.body).toContain("/newsletters/unsubscribe?token=");
    const out = await linkIn(a.email, "/newsletters/unsubscribe");
    expect(await post("/v2/int/email/newsletters/unsubscribe", { token: out })).toEqual([
      200,
      ["product-news", a.email],
    ]);
    expect(await statusOf(a.token, "product-news")).toBe("none");
    // Opened again: still unsubscribed, the same answer.
    expect(await post("/v2/int/email/newsletters/unsubscribe", { token: out })).toEqual([
      200,
      ["product-news", a.email],
    ]);
    // A confirmation link is not an unsubscribe link.
    expect(await post("/v2/int/email/newsletters/unsubscribe", { token })).toEqual(refusal("token: invalid"));
  });

  it("refuses an expired link and leaves the subscription pending", async () => {
    const a = await account();
    await post("/v2/auth/w/email/newsletters/subscribe", { campaignId: "research-desk" }, a.token);
    const token = await linkIn(a.email, "/newsletters/confirm");
    clock += NEWSLETTER_CONFIRM_TTL_MS + 1;
    try {
      expect(await post("/v2/int/email/newsletters/confirm", { token })).toEqual(refusal("token: expired"));
    } finally {
      // Back before the session's token lapses.
      clock -= NEWSLETTER_CONFIRM_TTL_MS + 1;
    }
    expect(await statusOf(a.token, "research-desk")).toBe("pending");
  });

  it("lets an account unsubscribe, which also spends its pending link", async () => {
    const a = await account();
    await post("/v2/auth/w/email/newsletters/subscribe", { campaignId: "market-weekly" }, a.token);
    const token = await linkIn(a.email, "/newsletters/confirm");
    const [status, body] = await post(
      "/v2/auth/w/email/newsletters/unsubscribe",
      { campaignId: "market-weekly" },
      a.token,
    );
    expect(status).toBe(200);
    expect(campaignRowCodec.decode(body).ok && (body as unknown[])[3]).toBe("none");
    expect(await post("/v2/int/email/newsletters/confirm", { token })).toEqual(refusal("token: used"));
    expect(await statusOf(a.token, "market-weekly")).toBe("none");
  });

  it("refuses a bad campaign or address and writes nothing, neither subscription nor mail", async () => {
    const a = await account();
    const subs = count("SELECT COUNT(*) AS n FROM newsletter_subscriptions");
    const outbox = count("SELECT COUNT(*) AS n FROM outbox");
    expect(await post("/v2/auth/w/email/newsletters/subscribe", { campaignId: "nope" }, a.token)).toEqual(
      refusal("campaign: invalid"),
    );
    expect(await post("/v2/auth/w/email/newsletters/subscribe", {}, a.token)).toEqual(refusal("campaign: invalid"));
    for (const [body, msg] of [
      [{ campaignId: "market-weekly", email: "guest@example" }, "email: invalid"],
      [{ campaignId: "market-weekly", email: "two words@example.com" }, "email: invalid"],
      [{ campaignId: "market-weekly", email: 42 }, "email: invalid"],
      [{ campaignId: "market-weekly" }, "email: invalid"],
      [{ campaignId: ["market-weekly"], email: "guest@example.com" }, "campaign: invalid"],
    ] as const)
      expect(await post("/v2/int/email/newsletters/subscribe", body)).toEqual(refusal(msg));
    expect(count("SELECT COUNT(*) AS n FROM newsletter_subscriptions")).toBe(subs);
    expect(count("SELECT COUNT(*) AS n FROM outbox")).toBe(outbox);
  });

  it("gives a guest the same double opt-in, and the unsubscribe link of every issue", async () => {
    const guest = "Visitor@Example.com";
    const email = "visitor@example.com";
    expect(await post("/v2/int/email/newsletters/subscribe", { campaignId: "market-weekly", email: guest })).toEqual([
      200,
      [1],
    ]);
    const first = await linkIn(email, "/newsletters/confirm");
    // Asking again sends a new link and spends the first.
    expect(await post("/v2/int/email/newsletters/subscribe", { campaignId: "market-weekly", email })).toEqual([
      200,
      [1],
    ]);
    const second = await linkIn(email, "/newsletters/confirm");
    expect(second).not.toBe(first);
    expect(await post("/v2/int/email/newsletters/confirm", { token: first })).toEqual(refusal("token: used"));
    // Pending: an issue goes to nobody.
    const issue = { campaignId: "market-weekly", subject: "The Weekly Close #1", body: "BTC closed the week up." };
    const send = async (): Promise<unknown> =>
      (
        await fetch(`${api.base}/dev/newsletters/send`, {
          method: "POST",
          headers: { "x-orderflow-dev": "1" },
          body: JSON.stringify(issue),
        })
      ).json();
    expect(await send()).toEqual({ sent: 0 });
    expect(await post("/v2/int/email/newsletters/confirm", { token: second })).toEqual([200, ["market-weekly", email]]);
    expect(await send()).toEqual({ sent: 1 });
    const mail = (await mailsTo(api.base, email)).find((m) => m.subject === issue.subject);
    expect(mail?.body).toContain(issue.body);
    const out = /\/newsletters\/unsubscribe\?token=([0-9a-f]{64})/.exec(mail?.body ?? "")?.[1] ?? "";
    expect(await post("/v2/int/email/newsletters/unsubscribe", { token: out })).toEqual([
      200,
      ["market-weekly", email],
    ]);
    expect(await send()).toEqual({ sent: 0 });
  });

  it("mails one address at most three confirmation links an hour, and takes ten guest calls a quarter hour", async () => {
    // A new quarter hour for this host's per-address counter (the calls above counted).
    clock += GUEST_WINDOW_MS;
    const email = "busy@example.com";
    const subscribe = (): Promise<[number, unknown]> =>
      post("/v2/int/email/newsletters/subscribe", { campaignId: "research-desk", email });
    for (let i = 0; i < GUEST_CALLS_PER_WINDOW; i++) expect(await subscribe()).toEqual([200, [1]]);
    expect((await mailsTo(api.base, email)).length).toBe(MAILS_PER_HOUR);
    expect(await subscribe()).toEqual([429, { error: "ERR_RATE_LIMIT" }]);
    expect((await mailsTo(api.base, email)).length).toBe(MAILS_PER_HOUR);
  });
});

describe("notification history", () => {
  async function hist(token: string, q: Record<string, unknown> = {}): Promise<NotificationHistoryRow[]> {
    const [status, body] = await post("/v2/auth/r/int/notifications/hist", q, token);
    expect(status, JSON.stringify(body)).toBe(200);
    const rows = notificationHistoryRowCodec.decodeList(body);
    if (!rows.ok) throw new Error("history rows undecodable");
    return rows.value;
  }
  const typeOf = (r: NotificationHistoryRow): string => {
    const d = notificationCodec.decode(r.notification);
    return d.ok ? d.value.type : "?";
  };

  it("keeps the notifications of real order activity, newest first, paged and filtered", async () => {
    const a = await account();
    expect(await hist(a.token)).toEqual([]);
    const [status, body] = await post(
      "/v2/auth/w/order/submit",
      { type: "EXCHANGE LIMIT", symbol: "tBTCUSD", amount: "0.01", price: "1000" },
      a.token,
    );
    expect(status, JSON.stringify(body)).toBe(200);
    const id = ((((body as unknown[])[4] as unknown[])[0] as unknown[])[0] as number) ?? 0;
    expect((await post("/v2/auth/w/order/cancel", { id }, a.token))[0]).toBe(200);
    await until(() => count("SELECT COUNT(*) AS n FROM notification_history WHERE user_id = ?", a.id) === 2, "rows");
    const rows = await hist(a.token);
    expect(rows.map(typeOf)).toEqual(["oc-req", "on-req"]);
    expect(rows.map((r) => [r.category, r.read])).toEqual([
      ["orders", false],
      ["orders", false],
    ]);
    const sent = notificationCodec.decode(rows[1]?.notification);
    expect(sent.ok && sent.value.status).toBe("SUCCESS");
    expect(sent.ok && sent.value.message).toMatch(/limit buy order for 0\.01 BTC/);
    // Paged by id: one row, then the one before it, then nothing.
    const page1 = await hist(a.token, { limit: 1 });
    expect(page1.map(typeOf)).toEqual(["oc-req"]);
    const page2 = await hist(a.token, { limit: 1, before: page1[0]?.id });
    expect(page2.map(typeOf)).toEqual(["on-req"]);
    expect(await hist(a.token, { limit: 1, before: page2[0]?.id })).toEqual([]);
    expect(await hist(a.token, { category: "funding" })).toEqual([]);
    expect((await hist(a.token, { category: "orders" })).length).toBe(2);
    expect((await hist(a.token, { start: rows[1]?.mts, end: rows[0]?.mts })).length).toBe(2);
    // Another account sees none of it.
    const b = await account();
    expect(await hist(b.token)).toEqual([]);
  });

  it("refuses a bad query or mark, changing nothing, and marks read up to the row asked", async () => {
    const a = await account();
    for (let i = 0; i < 3; i++) venue.events.emit(a.id, "n", notice(clock + i, "on-req", [], "ERROR", `refused ${i}`));
    await until(() => count("SELECT COUNT(*) AS n FROM notification_history WHERE user_id = ?", a.id) === 3, "rows");
    for (const [q, msg] of [
      [{ category: "everything" }, "category: invalid"],
      [{ limit: 0 }, "limit: invalid"],
      [{ limit: 101 }, "limit: invalid"],
      [{ limit: "5" }, "limit: invalid"],
      [{ before: -1 }, "before: invalid"],
      [{ start: 10, end: 5 }, "range: invalid"],
    ] as const)
      expect(await post("/v2/auth/r/int/notifications/hist", q, a.token)).toEqual(refusal(msg));
    for (const q of [{ upTo: "all" }, { upTo: 0 }, { upTo: 1.5 }])
      expect(await post("/v2/auth/w/int/notifications/read", q, a.token)).toEqual(refusal("upTo: invalid"));
    const rows = await hist(a.token);
    expect(rows.every((r) => !r.read)).toBe(true);
    // Up to the middle row: the newest, which arrived "after the page was drawn", stays unread.
    expect(await post("/v2/auth/w/int/notifications/read", { upTo: rows[1]?.id }, a.token)).toEqual([200, [2]]);
    expect((await hist(a.token)).map((r) => r.read)).toEqual([false, true, true]);
    expect(await post("/v2/auth/w/int/notifications/read", {}, a.token)).toEqual([200, [1]]);
    expect((await hist(a.token)).map((r) => r.read)).toEqual([true, true, true]);
  });

  it(`keeps the newest ${NOTIFICATION_HISTORY_KEPT} per account, and only records`, async () => {
    const a = await account();
    for (let i = 0; i < NOTIFICATION_HISTORY_KEPT + 7; i++)
      venue.events.emit(a.id, "n", notice(clock + i, "fon-req", [], "SUCCESS", `offer ${i}`));
    // Not a notification record: never stored.
    venue.events.emit(a.id, "n", "not a record");
    venue.events.emit(a.id, "wu", ["exchange", "USD", 1, 0, 1, null, null]);
    await until(
      () =>
        count("SELECT COUNT(*) AS n FROM notification_history WHERE user_id = ?", a.id) === NOTIFICATION_HISTORY_KEPT,
      "capped",
    );
    const newest = await hist(a.token, { limit: 1, category: "funding" });
    const d = notificationCodec.decode(newest[0]?.notification);
    expect(d.ok && d.value.message).toBe(`offer ${NOTIFICATION_HISTORY_KEPT + 6}`);
    const oldest = venue.db
      .prepare("SELECT payload FROM notification_history WHERE user_id = ? ORDER BY id LIMIT 1")
      .get(a.id) as { payload: string };
    expect((JSON.parse(oldest.payload) as unknown[])[7]).toBe("offer 7");
  });
});
