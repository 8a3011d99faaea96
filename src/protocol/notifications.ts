/**
 * Notification preferences, newsletters and the notification history
 * (docs/product-rules.md#notifications-page), one copy for the page and the exchange: the settings
 * keys and their bounds, the mail kinds a person may turn off, the campaigns, the records of the
 * history and newsletter calls and the request bodies, read and checked here on both sides. Nothing
 * here is user text: campaign names are the exchange's English ones (the page shows its own
 * translations by id) and a refusal is a field and a reason the UI maps to a localized message.
 */
import { recordCodec, type Decoded, type FieldSpec } from "./positional";
import { emailValid } from "./signup";

/** The in-app preferences: which kinds of notice the desk shows, and whether it plays a sound. */
export const IN_APP_PREF_KEYS = [
  "notify_main",
  "notify_orders",
  "notify_trades",
  "notify_funding",
  "sound_notices",
] as const;
export type InAppPrefKey = (typeof IN_APP_PREF_KEYS)[number];

/** The mails a person may turn off. Security mails (sign-ins, password, two-factor, keys) have no switch. */
export const MAIL_KINDS = ["withdrawal_completed", "deposit_arrived", "deposit_completed"] as const;
export type MailKind = (typeof MAIL_KINDS)[number];

/** The settings key of each mail kind (the product's e-mail flags, default on). */
export const MAIL_PREF_KEY = {
  withdrawal_completed: "email_withdrawal_completed",
  deposit_arrived: "email_deposit_arrived",
  deposit_completed: "email_deposit_completed",
} as const satisfies Record<MailKind, string>;
export type MailPrefKey = (typeof MAIL_PREF_KEY)[MailKind];

export const NOTIFICATION_PREF_KEYS: readonly (InAppPrefKey | MailPrefKey)[] = [
  ...IN_APP_PREF_KEYS,
  ...MAIL_KINDS.map((k) => MAIL_PREF_KEY[k]),
];
export type NotificationPrefKey = InAppPrefKey | MailPrefKey;

export function isNotificationPrefKey(key: string): key is NotificationPrefKey {
  return (NOTIFICATION_PREF_KEYS as readonly string[]).includes(key);
}

/**
 * A settings update (`w/settings/set`'s `settings`) with what its bounds refuse left out: every
 * notification preference is a boolean (default on), anything else under its key is ignored, as a
 * settings update outside its bound is (docs/product-rules.md#settings-values). Other keys pass.
 */
export function boundedSettings(incoming: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(incoming)) {
    if (isNotificationPrefKey(key) && typeof value !== "boolean") continue;
    out[key] = value;
  }
  return out;
}

/** A stored settings object's value of a preference: on unless it is exactly `false`. */
export function prefOn(stored: Readonly<Record<string, unknown>>, key: NotificationPrefKey): boolean {
  return stored[key] !== false;
}

// ---- newsletters --------------------------------------------------------------------------------

/** The campaigns the exchange offers, seeded into its database. */
export const NEWSLETTER_CAMPAIGNS = [
  {
    id: "market-weekly",
    name: "The Weekly Close",
    description: "Every Monday: the week's moves in the major markets, funding rates and volumes, in five minutes.",
  },
  {
    id: "product-news",
    name: "Product News",
    description: "New markets, features and fee changes, about twice a month.",
  },
  {
    id: "research-desk",
    name: "Research Desk",
    description: "Long reads from our analysts on market structure, derivatives and on-chain flows, once a month.",
  },
] as const;
export type CampaignId = (typeof NEWSLETTER_CAMPAIGNS)[number]["id"];

export function isCampaignId(id: unknown): id is CampaignId {
  return typeof id === "string" && NEWSLETTER_CAMPAIGNS.some((c) => c.id === id);
}

/** How long a subscription's confirmation link works; it works once. */
export const NEWSLETTER_CONFIRM_TTL_MS = 48 * 3_600_000;

/** Where a person stands with a campaign: `none` after unsubscribing too. */
export const SUBSCRIPTION_STATUSES = ["none", "pending", "subscribed"] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/**
 * A campaign as the newsletter lists answer it: [CAMPAIGN_ID, NAME, DESCRIPTION, STATUS] — STATUS
 * the caller's (`none`, `pending`, `subscribed`) on the signed-in list, null on the public one.
 */
const CAMPAIGN_ROW = {
  id: [0, "str"],
  name: [1, "str"],
  description: [2, "str"],
  status: [3, "str?"],
} as const satisfies FieldSpec;
export type CampaignRow = Decoded<typeof CAMPAIGN_ROW>;

/** The confirmation and unsubscribe links' answer: [CAMPAIGN_ID, EMAIL] of the subscription. */
const NEWSLETTER_LINK = {
  campaignId: [0, "str"],
  email: [1, "str"],
} as const satisfies FieldSpec;
export type NewsletterLinkResult = Decoded<typeof NEWSLETTER_LINK>;

// ---- history -------------------------------------------------------------------------------------

/** The history's categories, each a family of notification types. */
export const NOTIFICATION_CATEGORIES = ["orders", "funding", "positions", "wallet", "other"] as const;
export type NotificationCategory = (typeof NOTIFICATION_CATEGORIES)[number];

/** The category of a notification type (`on-req` → orders, `fon-req` → funding, `acc_tf` → wallet…). */
export function notificationCategory(type: string): NotificationCategory {
  if (/^(?:on|ou|oc|oc_multi|ox_multi)-req$/.test(type)) return "orders";
  if (/^f[a-z_]*-req$/.test(type)) return "funding";
  if (/^pos/.test(type)) return "positions";
  if (/^acc_/.test(type)) return "wallet";
  return "other";
}

/** Notifications the exchange keeps per account; older ones are dropped as new ones arrive. */
export const NOTIFICATION_HISTORY_KEPT = 500;
/** The most rows one history call answers, and how many when `limit` is absent. */
export const NOTIFICATION_HISTORY_MAX_LIMIT = 100;
export const NOTIFICATION_HISTORY_DEFAULT_LIMIT = 25;

/**
 * A stored notification, as `r/int/notifications/hist` answers it:
 * [ID, MTS, CATEGORY, READ, NOTIFICATION] — NOTIFICATION the `n` record as it was sent
 * (notificationCodec reads it), READ 1 once marked read.
 */
const HISTORY_ROW = {
  id: [0, "num"],
  mts: [1, "num"],
  category: [2, "str"],
  read: [3, "bool"],
  notification: [4, "any"],
} as const satisfies FieldSpec;
export type NotificationHistoryRow = Decoded<typeof HISTORY_ROW>;

export const campaignRowCodec = recordCodec("newsletter campaign", CAMPAIGN_ROW, 4);
export const newsletterLinkCodec = recordCodec("newsletter link", NEWSLETTER_LINK, 2);
export const notificationHistoryRowCodec = recordCodec("notification history row", HISTORY_ROW, 5);

// ---- requests ------------------------------------------------------------------------------------

export type NotificationsField = "campaign" | "email" | "token" | "category" | "limit" | "before" | "range" | "upTo";
export type NotificationsReason = "invalid" | "expired" | "used";

export interface NotificationsRefusal {
  readonly field: NotificationsField;
  readonly reason: NotificationsReason;
}

type Checked<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly refusal: NotificationsRefusal };

const refuse = (field: NotificationsField, reason: NotificationsReason = "invalid"): Checked<never> => ({
  ok: false,
  refusal: { field, reason },
});

/** The e-mail address a guest subscribes, trimmed and lower-cased, by the sign-up's rule. */
export function newsletterEmail(text: string): string | null {
  const email = text.trim().toLowerCase();
  return emailValid(email) ? email : null;
}

/** `w/email/newsletters/subscribe` and `…/unsubscribe` (signed in): `{campaignId}`. */
export function decodeCampaignRequest(body: Readonly<Record<string, unknown>>): Checked<CampaignId> {
  const id = body["campaignId"];
  return isCampaignId(id) ? { ok: true, value: id } : refuse("campaign");
}

/** The guest's `int/email/newsletters/subscribe`: `{campaignId, email}`. */
export function decodeGuestSubscribe(
  body: Readonly<Record<string, unknown>>,
): Checked<{ readonly campaignId: CampaignId; readonly email: string }> {
  const campaign = decodeCampaignRequest(body);
  if (!campaign.ok) return campaign;
  const email = typeof body["email"] === "string" ? newsletterEmail(body["email"]) : null;
  return email === null ? refuse("email") : { ok: true, value: { campaignId: campaign.value, email } };
}

/** A mailed link's token: 64 hex digits. */
export function decodeLinkToken(body: Readonly<Record<string, unknown>>): Checked<string> {
  const token = body["token"];
  return typeof token === "string" && /^[0-9a-f]{64}$/.test(token) ? { ok: true, value: token } : refuse("token");
}

export interface HistoryQuery {
  readonly category: NotificationCategory | null;
  /** Rows with an id below this one (the next page's cursor), or null from the newest. */
  readonly before: number | null;
  /** Inclusive bounds on MTS, or null. */
  readonly start: number | null;
  readonly end: number | null;
  readonly limit: number;
}

const positiveInt = (v: unknown): v is number => typeof v === "number" && Number.isInteger(v) && v > 0;

/** `r/int/notifications/hist`: `{category?, before?, start?, end?, limit?}`. */
export function decodeHistoryQuery(body: Readonly<Record<string, unknown>>): Checked<HistoryQuery> {
  const category = body["category"] ?? null;
  if (category !== null && !(NOTIFICATION_CATEGORIES as readonly unknown[]).includes(category))
    return refuse("category");
  const before = body["before"] ?? null;
  if (before !== null && !positiveInt(before)) return refuse("before");
  const start = body["start"] ?? null;
  const end = body["end"] ?? null;
  if ((start !== null && !positiveInt(start)) || (end !== null && !positiveInt(end))) return refuse("range");
  if (start !== null && end !== null && start > end) return refuse("range");
  const limit = body["limit"] ?? NOTIFICATION_HISTORY_DEFAULT_LIMIT;
  if (!positiveInt(limit) || limit > NOTIFICATION_HISTORY_MAX_LIMIT) return refuse("limit");
  return {
    ok: true,
    value: { category: category as NotificationCategory | null, before, start, end, limit },
  };
}

/** `w/int/notifications/read`: `{upTo?}` — every row up to that id (absent: every row) is read. */
export function decodeMarkRead(body: Readonly<Record<string, unknown>>): Checked<number | null> {
  const upTo = body["upTo"] ?? null;
  return upTo === null || positiveInt(upTo) ? { ok: true, value: upTo } : refuse("upTo");
}

/** The exchange's refusal text for a field and reason, in the form notificationsRefusalOf reads. */
export function notificationsRefusalText(r: NotificationsRefusal): string {
  return `${r.field}: ${r.reason}`;
}

/** A refusal of the exchange (`["error", code, "FIELD: reason"]`); null for a message of another kind. */
export function notificationsRefusalOf(message: string): NotificationsRefusal | null {
  const m = /^(campaign|email|token|category|limit|before|range|upTo): (invalid|expired|used)$/.exec(message);
  return m ? { field: m[1] as NotificationsField, reason: m[2] as NotificationsReason } : null;
}
