/**
 * Authenticated REST (PROTOCOL.md 6): `bfx-token`, or `bfx-apikey` + `bfx-nonce` +
 * `bfx-signature = hex(HMAC-SHA384(secret, "/api/" + path + nonce + body))` over the exact body
 * text, or the v1 form (`X-BFX-APIKEY`, base64 `X-BFX-PAYLOAD`, `X-BFX-SIGNATURE` over the payload).
 * Errors come back as `["error", code, "message"]` with HTTP 500, as the real API does.
 */
import type { IncomingHttpHeaders } from "node:http";
import { userInfoCodec, type UserInfo } from "../../src/protocol/index.ts";
import type { AuthCheck } from "../store/accounts.ts";
import { allows, requiredCap, tokenGrant } from "../api-keys.ts";
import type { AccountGateway } from "./account-gateway.ts";
import { positionsRest } from "./positions.ts";
import { accountSummary } from "./summary.ts";

export interface RestReply {
  readonly status: number;
  readonly body: unknown;
}

const err = (code: number, msg: string, status = 500): RestReply => ({ status, body: ["error", code, msg] });

function header(h: IncomingHttpHeaders, name: string): string | null {
  const v = h[name];
  return typeof v === "string" ? v : null;
}

export function authenticateRest(
  gate: AccountGateway,
  path: string,
  raw: string,
  h: IncomingHttpHeaders,
  now: number,
): AuthCheck {
  const token = header(h, "bfx-token");
  if (token) return gate.accounts.checkToken(token, now);
  const key = header(h, "bfx-apikey");
  const nonce = header(h, "bfx-nonce");
  const sig = header(h, "bfx-signature");
  if (key && nonce && sig)
    return gate.accounts.checkSignature(key, `/api${path}${nonce}${raw}`, sig, decimalNonce(nonce), now);
  const v1key = header(h, "x-bfx-apikey");
  const payload = header(h, "x-bfx-payload");
  const v1sig = header(h, "x-bfx-signature");
  if (v1key && payload && v1sig) {
    let n: number;
    try {
      const decoded = JSON.parse(Buffer.from(payload, "base64").toString("utf8")) as {
        nonce?: unknown;
        request?: unknown;
      };
      if (decoded.request !== path) return { ok: false, code: 10100, msg: "payload: request mismatch" };
      n =
        typeof decoded.nonce === "string" || typeof decoded.nonce === "number"
          ? decimalNonce(String(decoded.nonce))
          : NaN;
    } catch {
      return { ok: false, code: 10100, msg: "payload: invalid" };
    }
    return gate.accounts.checkSignature(v1key, payload, v1sig, n, now);
  }
  return { ok: false, code: 10100, msg: "apikey: invalid" };
}

/** A nonce is decimal digits only: `Number()` would also read "0x10", " 12" or "1e3". */
function decimalNonce(text: string): number {
  return /^[0-9]{1,16}$/.test(text) ? Number(text) : NaN;
}

function userInfo(gate: AccountGateway, userId: number): unknown[] {
  const u = gate.accounts.byId(userId);
  const info: Omit<UserInfo, "tfaType"> & Record<string, unknown> = {
    id: userId,
    email: u?.email ?? "",
    username: u?.username ?? "",
    mtsAccountCreate: u?.created_at ?? null,
    verified: (u?.email_verified ?? 0) === 1,
    verificationLevel: u?.verification_level ?? 0,
    timezone: null,
    locale: u?.locale ?? "en",
    company: "bitfinex",
    isEmailVerified: (u?.email_verified ?? 0) === 1,
    subaccountType: null,
    groupId: null,
    masterAccountId: null,
    inheritMasterAccountVerification: false,
    isGroupMaster: false,
    isGroupWithdrawEnabled: true,
    isPptEnabled: true,
    isMerchantEnabled: false,
    isCompetitionEnabled: false,
    tfaTypes: u?.tfa_secret ? ["otp"] : [],
    isSecuritiesMaster: false,
    isSecuritiesEnabled: false,
    isSecuritiesAccredited: false,
    isElSalvadorSecuritiesVerified: false,
    teMarginGroup: null,
    groupAllowDisableContextSwitch: false,
    lastLoginTime: null,
    verificationLevelSubmitted: null,
    verificationDataRequired: null,
    groupDisableContextSwitch: false,
    complianceRegions: null,
    complianceResidenceRegions: null,
    complianceAccountType: "individual",
    signupCountry: null,
    isPermittedBeneficiary: false,
  };
  return userInfoCodec.encode(info as never);
}

/** Calls any credential may make whatever its capabilities (each does its own ownership check). */
const SELF_SERVICE = new Set(["/v2/auth/r/permissions", "/v2/auth/w/token/del"]);

/** Handles `/v2/auth/…` for an authenticated user; null when the path is not an auth route. */
export function handleAuthRest(
  gate: AccountGateway,
  path: string,
  raw: string,
  h: IncomingHttpHeaders,
  now: number,
  extra: (
    userId: number,
    path: string,
    body: Record<string, unknown>,
    caps: readonly string[] | null,
  ) => RestReply | null = () => null,
): RestReply | null {
  if (!path.startsWith("/v2/auth/")) return null;
  const auth = authenticateRest(gate, path, raw, h, now);
  if (!auth.ok) return err(auth.code, auth.msg);
  const user = auth.userId;
  const caps = auth.caps ?? null;
  // A key may read its own permissions, and a credential delete itself (or its key's tokens: the
  // ownership check below), whatever they are; anything else needs the capability. Giving up a
  // credential must never need more than holding it.
  if (caps && !SELF_SERVICE.has(path) && !allows(caps, requiredCap(path)))
    return err(10100, "apikey: permission denied for this call");
  let body: Record<string, unknown> = {};
  if (raw.trim() !== "") {
    try {
      const parsed: unknown = JSON.parse(raw);
      if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed))
        body = parsed as Record<string, unknown>;
      else return err(10020, "body: invalid", 400);
    } catch {
      return err(10020, "body: invalid", 400);
    }
  }
  const limit = Math.min(2500, Math.max(1, Number(body["limit"] ?? 25) || 25));
  const t = gate.trading;
  let m: RegExpExecArray | null;
  if (path === "/v2/auth/r/info/user") return { status: 200, body: userInfo(gate, user) };
  const funding = gate.loans?.handle(user, path, body) ?? gate.funding?.handle(user, path, body);
  if (funding) return funding;
  if (path === "/v2/auth/r/wallets") return { status: 200, body: t.walletsWire(user) };
  if ((m = /^\/v2\/auth\/r\/orders(?:\/(t[A-Z0-9:]+))?$/.exec(path))) {
    const all = t.openOrdersWire(user);
    return { status: 200, body: m[1] ? all.filter((o) => o[3] === m?.[1]) : all };
  }
  if ((m = /^\/v2\/auth\/r\/orders(?:\/(t[A-Z0-9:]+))?\/hist$/.exec(path)))
    return { status: 200, body: t.orderHistoryWire(user, m[1] ?? null, limit) };
  if ((m = /^\/v2\/auth\/r\/trades(?:\/(t[A-Z0-9:]+))?\/hist$/.exec(path)))
    return { status: 200, body: t.tradesWire(user, m[1] ?? null, limit) };
  if ((m = /^\/v2\/auth\/r\/ledgers(?:\/([A-Z0-9]+))?\/hist$/.exec(path)))
    return { status: 200, body: t.ledgersWire(user, m[1] ?? null, limit) };
  if (path === "/v2/auth/w/order/submit") {
    const r = t.place(user, body);
    return r.ok
      ? { status: 200, body: [now, "on-req", null, null, r.legs ?? [r.order], null, "SUCCESS", "Submitting order."] }
      : err(r.code, r.msg);
  }
  if (path === "/v2/auth/w/order/update") {
    const r = t.update(user, body);
    return r.ok
      ? { status: 200, body: [now, "ou-req", null, null, r.order, null, "SUCCESS", "Submitting update to order."] }
      : err(r.code, r.msg);
  }
  if (path === "/v2/auth/w/order/cancel") {
    const r = t.cancelInput(user, body);
    return r.ok
      ? { status: 200, body: [now, "oc-req", null, null, r.order, null, "SUCCESS", "Submitted for cancellation."] }
      : err(r.code, r.msg);
  }
  if (path === "/v2/auth/w/order/cancel/multi") {
    // The notification carries the cancelled orders (PROTOCOL.md 6).
    const cancelled = t.cancelMulti(user, body);
    if (cancelled === null) return err(10020, "id, cid, gid or all: required");
    return {
      status: 200,
      body: [now, "oc_multi-req", null, null, cancelled, null, "SUCCESS", "Submitted for cancellation."],
    };
  }
  if (path === "/v2/auth/w/order/multi") {
    // The same batch as the socket's `ox_multi`: the reply is its `ox_multi-req` notification.
    const r = gate.orderMulti(user, body["ops"]);
    return r.ok ? { status: 200, body: r.note } : err(10020, r.msg);
  }
  if (path === "/v2/auth/w/token") {
    const grant = tokenGrant(caps, body);
    if (!grant.ok) return err(10020, grant.msg, 400);
    return {
      status: 200,
      body: [gate.accounts.issueToken(user, now, grant.ttlMs ?? undefined, grant.caps, auth.keyId ?? null)],
    };
  }
  if (path === "/v2/auth/r/summary")
    return { status: 200, body: accountSummary(gate.accounts.db, t.exchange, user, now) };
  // The site's internal form: the same record as the first element (SPEC section 7; summary.ts).
  if (path === "/v2/auth/r/int/summary")
    return { status: 200, body: [accountSummary(gate.accounts.db, t.exchange, user, now)] };
  if (path === "/v2/auth/w/user/token/generate") {
    // The site asks for a token of a scope; minted by w/token's rules (never more than the caller
    // may do, caps/capsRW/writePermission/allow_write honoured), the scope required here, and the
    // token the reply's first element.
    if (typeof body["scope"] !== "string") return err(10020, "scope: invalid", 400);
    const grant = tokenGrant(caps, body);
    if (!grant.ok) return err(10020, grant.msg, 400);
    return {
      status: 200,
      body: [gate.accounts.issueToken(user, now, grant.ttlMs ?? undefined, grant.caps, auth.keyId ?? null)],
    };
  }
  if (path === "/v2/auth/w/token/del") {
    // Only the caller's own tokens: a session deletes any of its user's; a limited credential
    // (a key, or a token limited to capabilities) itself and the tokens minted with its key.
    const target = typeof body["token"] === "string" ? body["token"] : "";
    const held = target !== "" ? gate.accounts.checkToken(target, now) : null;
    const own =
      held?.ok === true &&
      held.userId === user &&
      (caps === null || target === auth.token || (auth.keyId !== undefined && held.keyId === auth.keyId));
    if (!own || !gate.accounts.revokeOwnToken(target, user)) return err(10100, "token: invalid");
    return { status: 200, body: [1] };
  }
  return (
    gate.funds.handle(user, path, body) ??
    positionsRest(t, user, path, body) ??
    extra(user, path, body, caps) ??
    err(10020, "not found", 404)
  );
}
