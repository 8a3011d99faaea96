/**
 * The notifications page's calls (server/newsletters.ts, server/notification-history.ts, the
 * settings calls) over an injected transport — the session's `authCall` for a signed-in person,
 * the opening transport (`openingHttp`) for a guest and the mailed links — so this tests in Node.
 * Every answer is read by its src/protocol codec and every refusal sorted into what the page says
 * (docs/product-rules.md#notifications-page).
 */
import {
  campaignRowCodec,
  newsletterLinkCodec,
  notificationHistoryRowCodec,
  notificationsRefusalOf,
  parseApiError,
  type CampaignId,
  type CampaignRow,
  type HistoryQuery,
  type NewsletterLinkResult,
  type NotificationHistoryRow,
  type NotificationsRefusal,
} from "../../protocol";
import type { HttpReply, openingHttp } from "../session";
import { apiErrorKind, type ApiErrorKind } from "../shell/api-notice";

/** The guests' transport (the session's opening transport). */
export type Http = ReturnType<typeof openingHttp>;

/** A signed-in call: path and body, the reply (status 0 when unreachable). */
export type AuthCall = (path: string, body: unknown) => Promise<HttpReply>;

export type NotificationsError =
  { readonly kind: "field"; readonly refusal: NotificationsRefusal } | { readonly kind: ApiErrorKind };

export type Result<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: NotificationsError };

function notificationsErrorOf(reply: HttpReply): NotificationsError {
  const refusal = reply.status === 400 ? notificationsRefusalOf(parseApiError(reply.body)?.message ?? "") : null;
  return refusal ? { kind: "field", refusal } : { kind: apiErrorKind(reply.status, reply.body) };
}

function read<T>(reply: HttpReply, decode: (b: unknown) => T | null): Result<T> {
  if (reply.status !== 200) return { ok: false, error: notificationsErrorOf(reply) };
  const value = decode(reply.body);
  return value === null ? { ok: false, error: { kind: "server" } } : { ok: true, value };
}

/** A guest's call through the opening transport: a transport that throws is "unreachable". */
async function publicCall(http: Http, path: string, body: unknown): Promise<HttpReply> {
  try {
    return await http({ method: "POST", path, body });
  } catch {
    return { status: 0, body: null };
  }
}

const campaignList = (b: unknown): CampaignRow[] | null => {
  const d = campaignRowCodec.decodeList(b);
  return d.ok ? d.value : null;
};
const campaignRow = (b: unknown): CampaignRow | null => {
  const d = campaignRowCodec.decode(b);
  return d.ok ? d.value : null;
};
const linkResult = (b: unknown): NewsletterLinkResult | null => {
  const d = newsletterLinkCodec.decode(b);
  return d.ok ? d.value : null;
};
const done = (b: unknown): true | null => (Array.isArray(b) ? true : null);

// ---- preferences -----------------------------------------------------------------------------

/** The stored values of `keys` (`r/settings` answers `[[KEY, VALUE], …]` for the keys it holds). */
export async function readSettings(call: AuthCall, keys: readonly string[]): Promise<Result<Map<string, unknown>>> {
  return read(await call("/v2/auth/r/settings", { keys }), (b) => {
    if (!Array.isArray(b)) return null;
    const out = new Map<string, unknown>();
    for (const row of b as unknown[])
      if (Array.isArray(row) && typeof row[0] === "string") out.set(row[0], row[1] as unknown);
    return out;
  });
}

export async function writeSettings(call: AuthCall, values: Readonly<Record<string, unknown>>): Promise<Result<true>> {
  return read(await call("/v2/auth/w/settings/set", { settings: values }), done);
}

// ---- newsletters ---------------------------------------------------------------------------------

export async function accountCampaigns(call: AuthCall): Promise<Result<CampaignRow[]>> {
  return read(await call("/v2/auth/r/int/email/newsletters", {}), campaignList);
}

export async function subscribe(call: AuthCall, campaignId: CampaignId): Promise<Result<CampaignRow>> {
  return read(await call("/v2/auth/w/email/newsletters/subscribe", { campaignId }), campaignRow);
}

export async function unsubscribe(call: AuthCall, campaignId: CampaignId): Promise<Result<CampaignRow>> {
  return read(await call("/v2/auth/w/email/newsletters/unsubscribe", { campaignId }), campaignRow);
}

export async function publicCampaigns(http: Http): Promise<Result<CampaignRow[]>> {
  return read(await publicCall(http, "/v2/int/email/newsletters", {}), campaignList);
}

/** The answer is the same whatever the address's state: the mail says what happens next. */
export async function guestSubscribe(http: Http, campaignId: CampaignId, email: string): Promise<Result<true>> {
  return read(await publicCall(http, "/v2/int/email/newsletters/subscribe", { campaignId, email }), done);
}

export async function openNewsletterLink(
  http: Http,
  kind: "confirm" | "unsubscribe",
  token: string,
): Promise<Result<NewsletterLinkResult>> {
  return read(await publicCall(http, `/v2/int/email/newsletters/${kind}`, { token }), linkResult);
}

// ---- history -------------------------------------------------------------------------------------

export async function historyPage(
  call: AuthCall,
  q: Partial<HistoryQuery> & { readonly limit: number },
): Promise<Result<NotificationHistoryRow[]>> {
  const body: Record<string, unknown> = { limit: q.limit };
  if (q.category) body["category"] = q.category;
  if (q.before) body["before"] = q.before;
  return read(await call("/v2/auth/r/int/notifications/hist", body), (b) => {
    const d = notificationHistoryRowCodec.decodeList(b);
    return d.ok ? d.value : null;
  });
}

/** Marks read every row up to `upTo` (the newest the page has shown): the count marked. */
export async function markRead(call: AuthCall, upTo: number): Promise<Result<number>> {
  return read(await call("/v2/auth/w/int/notifications/read", { upTo }), (b) =>
    Array.isArray(b) && typeof b[0] === "number" ? b[0] : null,
  );
}
