/**
 * Newsletters with double opt-in (docs/product-rules.md#newsletters):
 *
 * - The campaigns are rows of `newsletter_campaigns`, seeded from src/protocol's list.
 *   `POST /v2/int/email/newsletters` lists them (STATUS null); signed in,
 *   `POST /v2/auth/r/int/email/newsletters` lists them with the account's own status.
 * - Subscribing — `POST /v2/auth/w/email/newsletters/subscribe {campaignId}` for the account's
 *   address, `POST /v2/int/email/newsletters/subscribe {campaignId, email}` for a guest — makes the
 *   subscription `pending` and mails a confirmation link (`/newsletters/confirm?token=…`). Nothing
 *   is sent to the address until that link is opened: it works once, for 48 hours, and a new
 *   request spends the earlier link. At most MAILS_PER_HOUR confirmation mails go to one address
 *   per campaign an hour, and none once it is subscribed; the guest call answers `[1]` whatever
 *   happened, so it tells nobody who reads what.
 * - `POST /v2/int/email/newsletters/confirm {token}` confirms (answer `[CAMPAIGN_ID, EMAIL]`; a link
 *   already used is `token: used`, one past its time `token: expired`, anything else
 *   `token: invalid`) and mails a welcome with an unsubscribe link.
 * - Every newsletter mail (the welcome, each issue) carries its own unsubscribe link
 *   (`/newsletters/unsubscribe?token=…`), which works without signing in:
 *   `POST /v2/int/email/newsletters/unsubscribe {token}`. Signed in,
 *   `POST /v2/auth/w/email/newsletters/unsubscribe {campaignId}` does the same.
 * - Link tokens are stored as SHA-256 digests only (as password-reset.ts does): a copy of the
 *   database confirms or cancels nobody's subscription.
 * - Each write is one transaction: the subscription, its link and its mail, or nothing.
 */
import { createHash, randomBytes } from "node:crypto";
import {
  campaignRowCodec,
  decodeCampaignRequest,
  decodeGuestSubscribe,
  decodeLinkToken,
  ERROR_CODES,
  NEWSLETTER_CAMPAIGNS,
  NEWSLETTER_CONFIRM_TTL_MS,
  newsletterLinkCodec,
  notificationsRefusalText,
  type CampaignId,
  type NotificationsRefusal,
  type SubscriptionStatus,
} from "../src/protocol/index.ts";
import { sendMail } from "./mail.ts";
import { fail, ok, type Reply } from "./reply.ts";
import type { Accounts } from "./store/accounts.ts";

/** Confirmation mails one address gets per campaign an hour; further requests send nothing. */
export const MAILS_PER_HOUR = 3;
/** Guest subscriptions, and link openings, one address may make per quarter hour (HTTP 429 beyond). */
export const GUEST_CALLS_PER_WINDOW = 10;
export const GUEST_WINDOW_MS = 15 * 60_000;
const HOUR_MS = 3_600_000;

const CONFIRM_PATH = "/newsletters/confirm";
const UNSUBSCRIBE_PATH = "/newsletters/unsubscribe";

const TABLES = `
CREATE TABLE IF NOT EXISTS newsletter_campaigns (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  description TEXT NOT NULL,
  position INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS newsletter_subscriptions (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  campaign_id TEXT NOT NULL REFERENCES newsletter_campaigns(id),
  email TEXT NOT NULL,
  status TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  confirmed_at INTEGER,
  UNIQUE (campaign_id, email)
);
CREATE TABLE IF NOT EXISTS newsletter_links (
  token_hash TEXT PRIMARY KEY,
  subscription_id INTEGER NOT NULL REFERENCES newsletter_subscriptions(id),
  kind TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  expires_at INTEGER,
  used_at INTEGER
);
CREATE INDEX IF NOT EXISTS newsletter_links_subscription ON newsletter_links(subscription_id, kind)`;

const digest = (token: string): string => createHash("sha256").update(token).digest("hex");
const RATE_LIMITED: Reply = { status: 429, body: { error: "ERR_RATE_LIMIT" } };
const refuse = (r: NotificationsRefusal): Reply => fail(ERROR_CODES.PARAMS, notificationsRefusalText(r), 400);

interface Subscription {
  id: number;
  campaign_id: string;
  email: string;
  status: SubscriptionStatus;
}

interface Campaign {
  id: string;
  name: string;
  description: string;
}

export class Newsletters {
  /** Per address and kind, the times of its recent guest calls. */
  readonly #calls = new Map<string, number[]>();

  constructor(
    readonly accounts: Accounts,
    readonly now: () => number,
  ) {
    const db = accounts.db;
    db.exec(TABLES);
    const seed = db.prepare(
      "INSERT OR IGNORE INTO newsletter_campaigns (id, name, description, position) VALUES (?, ?, ?, ?)",
    );
    db.transaction(() => NEWSLETTER_CAMPAIGNS.forEach((c, i) => seed.run(c.id, c.name, c.description, i)))();
  }

  get #db() {
    return this.accounts.db;
  }

  #allow(address: string | null, kind: "subscribe" | "link"): boolean {
    const key = `${kind}|${address ?? "?"}`;
    const since = this.now() - GUEST_WINDOW_MS;
    const list = (this.#calls.get(key) ?? []).filter((t) => t > since);
    list.push(this.now());
    this.#calls.set(key, list);
    return list.length <= GUEST_CALLS_PER_WINDOW * (kind === "link" ? 2 : 1);
  }

  #campaigns(): Campaign[] {
    return this.#db
      .prepare("SELECT id, name, description FROM newsletter_campaigns ORDER BY position")
      .all() as Campaign[];
  }

  #campaign(id: string): Campaign | undefined {
    return this.#db.prepare("SELECT id, name, description FROM newsletter_campaigns WHERE id = ?").get(id) as
      Campaign | undefined;
  }

  #subscription(campaignId: string, email: string): Subscription | undefined {
    return this.#db
      .prepare(
        "SELECT id, campaign_id, email, status FROM newsletter_subscriptions WHERE campaign_id = ? AND email = ?",
      )
      .get(campaignId, email) as Subscription | undefined;
  }

  /** Where `email` stands with each campaign. */
  #statuses(email: string): Map<string, SubscriptionStatus> {
    const rows = this.#db
      .prepare("SELECT campaign_id, status FROM newsletter_subscriptions WHERE email = ?")
      .all(email) as { campaign_id: string; status: SubscriptionStatus }[];
    return new Map(rows.map((r) => [r.campaign_id, r.status]));
  }

  #row(c: Campaign, status: SubscriptionStatus | null): unknown[] {
    return campaignRowCodec.encode({ id: c.id, name: c.name, description: c.description, status });
  }

  /** A new link of `kind` for the subscription; the token goes into the mail, its digest into SQLite. */
  #link(subscriptionId: number, kind: "confirm" | "unsubscribe"): string {
    const token = randomBytes(32).toString("hex");
    const now = this.now();
    this.#db
      .prepare(
        "INSERT INTO newsletter_links (token_hash, subscription_id, kind, created_at, expires_at) VALUES (?, ?, ?, ?, ?)",
      )
      .run(digest(token), subscriptionId, kind, now, kind === "confirm" ? now + NEWSLETTER_CONFIRM_TTL_MS : null);
    return token;
  }

  /**
   * Makes the subscription pending and mails its confirmation link, unless it is already confirmed
   * or the address had its MAILS_PER_HOUR; in one transaction. The status it is left in.
   */
  subscribe(campaignId: CampaignId, email: string): SubscriptionStatus {
    const db = this.#db;
    const now = this.now();
    return db.transaction((): SubscriptionStatus => {
      const campaign = this.#campaign(campaignId);
      if (!campaign) return "none";
      let sub = this.#subscription(campaignId, email);
      if (sub?.status === "subscribed") return "subscribed";
      if (sub) {
        const mailed = db
          .prepare(
            "SELECT COUNT(*) AS n FROM newsletter_links WHERE subscription_id = ? AND kind = 'confirm' AND created_at > ?",
          )
          .get(sub.id, now - HOUR_MS) as { n: number };
        if (mailed.n >= MAILS_PER_HOUR) return sub.status;
        db.prepare("UPDATE newsletter_subscriptions SET status = 'pending', updated_at = ? WHERE id = ?").run(
          now,
          sub.id,
        );
        // One live confirmation link at a time: the newest mail is the one that works.
        db.prepare(
          "UPDATE newsletter_links SET used_at = ? WHERE subscription_id = ? AND kind = 'confirm' AND used_at IS NULL",
        ).run(now, sub.id);
      } else {
        const r = db
          .prepare(
            "INSERT INTO newsletter_subscriptions (campaign_id, email, status, created_at, updated_at) VALUES (?, ?, 'pending', ?, ?)",
          )
          .run(campaignId, email, now, now);
        sub = { id: Number(r.lastInsertRowid), campaign_id: campaignId, email, status: "pending" };
      }
      const token = this.#link(sub.id, "confirm");
      sendMail(
        db,
        email,
        `Confirm your subscription to ${campaign.name}`,
        `Someone asked to send ${campaign.name} to this address. To confirm, open ${CONFIRM_PATH}?token=${token} ` +
          "within 48 hours; the link works once. If this was not you, ignore this mail: nothing will be sent.",
        now,
      );
      return "pending";
    })();
  }

  /** Ends the subscription (and spends every link of it), in one transaction. */
  unsubscribe(subscriptionId: number): void {
    const db = this.#db;
    const now = this.now();
    db.transaction(() => {
      db.prepare("UPDATE newsletter_subscriptions SET status = 'none', updated_at = ? WHERE id = ?").run(
        now,
        subscriptionId,
      );
      db.prepare("UPDATE newsletter_links SET used_at = ? WHERE subscription_id = ? AND used_at IS NULL").run(
        now,
        subscriptionId,
      );
    })();
  }

  /** The subscription a link token opens, or why not. */
  #openLink(
    token: string,
    kind: "confirm" | "unsubscribe",
  ): { ok: true; sub: Subscription; used: boolean } | { ok: false; refusal: NotificationsRefusal } {
    const link = this.#db
      .prepare("SELECT subscription_id, kind, expires_at, used_at FROM newsletter_links WHERE token_hash = ?")
      .get(digest(token)) as
      { subscription_id: number; kind: string; expires_at: number | null; used_at: number | null } | undefined;
    const sub = link
      ? (this.#db
          .prepare("SELECT id, campaign_id, email, status FROM newsletter_subscriptions WHERE id = ?")
          .get(link.subscription_id) as Subscription | undefined)
      : undefined;
    if (!link || link.kind !== kind || !sub) return { ok: false, refusal: { field: "token", reason: "invalid" } };
    if (link.expires_at !== null && link.expires_at <= this.now() && link.used_at === null)
      return { ok: false, refusal: { field: "token", reason: "expired" } };
    return { ok: true, sub, used: link.used_at !== null };
  }

  #confirm(token: string): Reply {
    const db = this.#db;
    const now = this.now();
    const opened = this.#openLink(token, "confirm");
    if (!opened.ok) return refuse(opened.refusal);
    if (opened.used) return refuse({ field: "token", reason: "used" });
    const { sub } = opened;
    const campaign = this.#campaign(sub.campaign_id);
    if (!campaign) return refuse({ field: "token", reason: "invalid" });
    db.transaction(() => {
      db.prepare("UPDATE newsletter_links SET used_at = ? WHERE token_hash = ?").run(now, digest(token));
      db.prepare(
        "UPDATE newsletter_subscriptions SET status = 'subscribed', confirmed_at = ?, updated_at = ? WHERE id = ?",
      ).run(now, now, sub.id);
      this.#mailWithUnsubscribe(
        sub,
        `You are subscribed to ${campaign.name}`,
        `Thank you for confirming. ${campaign.name}: ${campaign.description}`,
      );
    })();
    return ok(newsletterLinkCodec.encode({ campaignId: sub.campaign_id, email: sub.email }));
  }

  #unsubscribeByLink(token: string): Reply {
    const opened = this.#openLink(token, "unsubscribe");
    if (!opened.ok) return refuse(opened.refusal);
    const { sub } = opened;
    // Opened twice: still unsubscribed, the same answer. A link of a subscription confirmed again
    // since was spent by that unsubscription: the newer mails carry the links that work.
    if (opened.used && sub.status !== "none") return refuse({ field: "token", reason: "used" });
    if (sub.status !== "none") this.unsubscribe(sub.id);
    return ok(newsletterLinkCodec.encode({ campaignId: sub.campaign_id, email: sub.email }));
  }

  /** A newsletter mail: its body, then this mail's own unsubscribe link. Inside the caller's transaction. */
  #mailWithUnsubscribe(sub: Subscription, subject: string, body: string): void {
    const token = this.#link(sub.id, "unsubscribe");
    sendMail(
      this.#db,
      sub.email,
      subject,
      `${body}\n\nTo stop receiving this newsletter, open ${UNSUBSCRIBE_PATH}?token=${token} (no sign-in needed).`,
      this.now(),
    );
  }

  /** Sends an issue of a campaign to every confirmed subscriber (the development endpoint); how many. */
  sendIssue(campaignId: string, subject: string, body: string): number {
    const db = this.#db;
    return db.transaction(() => {
      const subs = db
        .prepare(
          "SELECT id, campaign_id, email, status FROM newsletter_subscriptions WHERE campaign_id = ? AND status = 'subscribed'",
        )
        .all(campaignId) as Subscription[];
      for (const s of subs) this.#mailWithUnsubscribe(s, subject, body);
      return subs.length;
    })();
  }

  /** The guest calls; null for any other path. */
  handlePublic(path: string, body: Record<string, unknown>, address: string | null): Reply | null {
    switch (path) {
      case "/v2/int/email/newsletters":
        return ok(this.#campaigns().map((c) => this.#row(c, null)));
      case "/v2/int/email/newsletters/subscribe": {
        if (!this.#allow(address, "subscribe")) return RATE_LIMITED;
        const r = decodeGuestSubscribe(body);
        if (!r.ok) return refuse(r.refusal);
        this.subscribe(r.value.campaignId, r.value.email);
        // The same answer whatever the address's state: it tells nobody who is subscribed.
        return ok([1]);
      }
      case "/v2/int/email/newsletters/confirm":
      case "/v2/int/email/newsletters/unsubscribe": {
        if (!this.#allow(address, "link")) return RATE_LIMITED;
        const t = decodeLinkToken(body);
        if (!t.ok) return refuse(t.refusal);
        return path.endsWith("/confirm") ? this.#confirm(t.value) : this.#unsubscribeByLink(t.value);
      }
      default:
        return null;
    }
  }

  /** The signed-in calls, for the account's own address; null for any other path. */
  handleAuthed(userId: number, path: string, body: Record<string, unknown>): Reply | null {
    if (
      path !== "/v2/auth/r/int/email/newsletters" &&
      path !== "/v2/auth/w/email/newsletters/subscribe" &&
      path !== "/v2/auth/w/email/newsletters/unsubscribe"
    )
      return null;
    const user = this.accounts.byId(userId);
    if (!user) return fail(ERROR_CODES.AUTH_FAILED, "token: invalid");
    const email = user.email.toLowerCase();
    if (path === "/v2/auth/r/int/email/newsletters") {
      const statuses = this.#statuses(email);
      return ok(this.#campaigns().map((c) => this.#row(c, statuses.get(c.id) ?? "none")));
    }
    const r = decodeCampaignRequest(body);
    if (!r.ok) return refuse(r.refusal);
    const campaign = this.#campaign(r.value);
    if (!campaign) return refuse({ field: "campaign", reason: "invalid" });
    if (path === "/v2/auth/w/email/newsletters/subscribe")
      return ok(this.#row(campaign, this.subscribe(r.value, email)));
    const sub = this.#subscription(r.value, email);
    if (sub && sub.status !== "none") this.unsubscribe(sub.id);
    return ok(this.#row(campaign, "none"));
  }
}
