/**
 * Authenticated REST (docs/protocol.md#authenticated-rest): `bfx-token`, or `bfx-apikey` + `bfx-nonce` +
 * `bfx-signature = hex(HMAC-SHA384(secret, "/api/" + path + nonce + body))` over the exact body
 * text, or the v1 form (`X-BFX-APIKEY`, base64 `X-BFX-PAYLOAD`, `X-BFX-SIGNATURE` over the payload).
 * Errors come back as `["error", code, "message"]` with HTTP 500, as the real API does.
 */
import type { IncomingHttpHeaders } from "node:http";
import {
  ERROR_CODES,
  HISTORY_LIMIT_MAX,
  LEDGER_LIMIT_MAX,
  MARGIN_GROUP_DEFAULT,
  parseLedgerQuery,
  PAPER_LIVE_ONLY_MESSAGE,
  paperLiveOnly,
  parseRangeQuery,
  READ_ONLY_CONTEXT_MESSAGE,
  userInfoCodec,
} from "../../src/protocol/index.ts";
import type { AuthCheck } from "../store/accounts.ts";
import { allows, keyAllowsAddress, requiredCap, tokenGrant } from "../api-keys.ts";
import { pendingLevel } from "../compliance.ts";
import { credentialAddressAllowed, IP_LOCK_REFUSAL } from "../store/security-settings.ts";
import { paperInfo, paperOf } from "../paper.ts";
import { CONTEXT_PATHS, subaccountInfo, subaccountsOf } from "../subaccounts.ts";
import type { AccountGateway } from "./account-gateway.ts";
import { conversionsOf } from "./conversions.ts";
import { fundingRest } from "./funding-api.ts";
import { ledgerCsv, ledgerPage, ledgerWire, reconcileLedgers } from "./ledger-history.ts";
import { derivativesRest } from "./derivatives-api.ts";
import { marginRest } from "./margin-api.ts";
import { closedPositionPage, closedPositionWire, positionsCsv } from "./position-history.ts";
import { ordersRest } from "./orders-api.ts";
import { otcOf } from "./otc.ts";
import { isPaperAccount } from "./paper-accounts.ts";
import { reportsOf } from "./reports.ts";
import { accountSummary } from "./summary.ts";
import { fail, ok, type Reply } from "../reply.ts";

const { AUTH_FAILED, GENERIC, PARAMS } = ERROR_CODES;

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
  /** The caller's socket address: a token of an account with `ip_lock` on works only from a listed one. */
  address: string | null,
): AuthCheck {
  const token = header(h, "bfx-token");
  if (token) {
    const check = gate.accounts.checkToken(token, now);
    // ip_lock (server/security-settings.ts): 10100 ends the session on the web, which is what an
    // address off the list must get (docs/product-rules.md#errors).
    if (check.ok && !credentialAddressAllowed(gate.accounts.db, check, address))
      return { ok: false, code: AUTH_FAILED, msg: IP_LOCK_REFUSAL };
    return check;
  }
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
      if (decoded.request !== path) return { ok: false, code: AUTH_FAILED, msg: "payload: request mismatch" };
      n =
        typeof decoded.nonce === "string" || typeof decoded.nonce === "number"
          ? decimalNonce(String(decoded.nonce))
          : NaN;
    } catch {
      return { ok: false, code: AUTH_FAILED, msg: "payload: invalid" };
    }
    return gate.accounts.checkSignature(v1key, payload, v1sig, n, now);
  }
  return { ok: false, code: AUTH_FAILED, msg: "apikey: invalid" };
}

/** A nonce is decimal digits only: `Number()` would also read "0x10", " 12" or "1e3". */
function decimalNonce(text: string): number {
  return /^[0-9]{1,16}$/.test(text) ? Number(text) : NaN;
}

function userInfo(gate: AccountGateway, userId: number): unknown[] {
  const u = gate.accounts.byId(userId);
  const verified = (u?.email_verified ?? 0) === 1;
  // What this exchange knows of an account; the codec writes every other field null (flags 0).
  const known: Partial<Parameters<typeof userInfoCodec.encode>[0]> = {
    id: userId,
    email: u?.email ?? "",
    username: u?.username ?? "",
    mtsAccountCreate: u?.created_at ?? null,
    verified,
    verificationLevel: u?.verification_level ?? 0,
    verificationLevelSubmitted: pendingLevel(gate.accounts.db, userId),
    locale: u?.locale ?? "en",
    company: "bitfinex",
    isEmailVerified: verified,
    isGroupWithdrawEnabled: true,
    isPptEnabled: true,
    // Each quote currency's margin balance backs that currency's positions alone (positions.ts):
    // the default margin group, not cross collateral.
    teMarginGroup: MARGIN_GROUP_DEFAULT,
    tfaTypes: u ? gate.accounts.secondFactors(u) : [],
    complianceAccountType: "individual",
    // Sub-account and group fields (server/subaccounts.ts), and a paper account's (server/paper.ts).
    ...subaccountInfo(gate.accounts.db, userId),
    ...paperInfo(gate.accounts.db, userId),
  };
  return userInfoCodec.encode(known as Parameters<typeof userInfoCodec.encode>[0]);
}

/** The v1 account calls the exchange answers (signed or with a token, like `/v2/auth/…`). */
const V1_AUTH_PATHS: ReadonlySet<string> = new Set([
  "/v1/account_us_resident",
  // The withdrawal address book and the address check (server/address-book.ts).
  "/v1/account_address_book_entries",
  "/v1/ui_check_address",
]);

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
  ) => Reply | null = () => null,
  /** The caller's socket address: a key with an IP allowlist (or a token minted with it) is checked against it. */
  address: string | null = null,
): Reply | null {
  if (!path.startsWith("/v2/auth/") && !V1_AUTH_PATHS.has(path)) return null;
  const auth = authenticateRest(gate, path, raw, h, now, address);
  if (!auth.ok) return fail(auth.code, auth.msg);
  if (auth.keyId !== undefined && !keyAllowsAddress(gate.accounts.db, auth.keyId, address))
    return fail(AUTH_FAILED, "apikey: address not allowed");
  const user = auth.userId;
  const caps = auth.caps ?? null;
  // A read-only sub-account context writes nothing (server/subaccounts.ts); refused before the
  // capability check so the answer names the reason. Switching back, renewing and logout remain.
  const contextCall = auth.context !== undefined && CONTEXT_PATHS.has(path);
  if (auth.context?.readOnly && (path.startsWith("/v2/auth/w/") || V1_AUTH_PATHS.has(path)) && !contextCall)
    return fail(GENERIC, READ_ONLY_CONTEXT_MESSAGE);
  // A key may read its own permissions, and a credential delete itself (or its key's tokens: the
  // ownership check below), whatever they are; anything else needs the capability. Giving up a
  // credential must never need more than holding it.
  if (caps && !SELF_SERVICE.has(path) && !contextCall && !allows(caps, requiredCap(path)))
    return fail(AUTH_FAILED, "apikey: permission denied for this call");
  let body: Record<string, unknown> = {};
  if (raw.trim() !== "") {
    try {
      const parsed: unknown = JSON.parse(raw);
      if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed))
        body = parsed as Record<string, unknown>;
      else return fail(PARAMS, "body: invalid", 400);
    } catch {
      return fail(PARAMS, "body: invalid", 400);
    }
  }
  // A paper account's money stays paper: deposits, withdrawals, API keys and transfers to other
  // accounts are live-only (server/paper.ts), refused with the reason the app's dialog names.
  if (paperLiveOnly(path, body) && isPaperAccount(gate.accounts.db, user))
    return fail(GENERIC, PAPER_LIVE_ONLY_MESSAGE);
  const paper = paperOf(gate).handle(auth, path, now);
  if (paper) return paper;
  const sub = subaccountsOf(gate).handle(auth, path, body, now);
  if (sub) return sub;
  // Mailed reports (reports.ts): generated in the background, downloaded by a session's link.
  const report = reportsOf(gate).handle(auth, path, body);
  if (report) return report;
  if (path === "/v2/auth/r/info/user") return ok(userInfo(gate, user));
  if (path === "/v2/auth/r/wallets") return ok(gate.balances.walletsWire(user));
  if (path === "/v2/auth/r/ledgers/reconcile") return ok(reconcileLedgers(gate.balances.db, user));
  // Ledger pages and the CSV export (ledger-history.ts; docs/protocol.md#ledger-history).
  const ledgers = /^\/v2\/auth\/r\/ledgers(?:\/([A-Z0-9:]+))?\/(hist|export)$/.exec(path);
  if (ledgers) {
    const export_ = ledgers[2] === "export";
    const q = parseLedgerQuery(body, export_ ? null : LEDGER_LIMIT_MAX);
    if (!q.ok) return fail(PARAMS, q.message, 400);
    const currency = ledgers[1] ?? null;
    const db = gate.balances.db;
    if (export_) return ok(ledgerCsv(db, user, currency, q.query, now));
    return ok(ledgerPage(db, user, currency, q.query).map(ledgerWire));
  }
  // Closed positions, pages or CSV (position-history.ts; docs/protocol.md#history-paging).
  const closed = /^\/v2\/auth\/r\/positions(?:\/(t[A-Z0-9:]+))?\/(hist|export)$/.exec(path);
  if (closed) {
    const [, symbol = null, kind] = closed;
    const q = parseRangeQuery(body, kind === "export" ? null : HISTORY_LIMIT_MAX);
    if (!q.ok) return fail(PARAMS, q.message, 400);
    const db = gate.balances.db;
    if (kind === "export") return ok(positionsCsv(db, user, symbol, q.query, now));
    return ok(closedPositionPage(db, user, symbol, q.query).map(closedPositionWire));
  }
  const domain =
    fundingRest(gate, user, path, body) ??
    ordersRest(gate.orders, user, path, body, now) ??
    marginRest(gate.positions, gate.balances, user, path, body) ??
    derivativesRest(gate.positions, user, path, body) ??
    gate.funds.handle(user, path, body, { keyId: auth.keyId, caps: auth.caps }) ??
    conversionsOf(gate).handle(user, path, body) ??
    otcOf(gate).handle(user, path, body);
  if (domain) return domain;
  if (path === "/v2/auth/w/token") {
    const grant = tokenGrant(caps, body);
    if (!grant.ok) return fail(PARAMS, grant.msg, 400);
    // A session's renewal, or a token limited to capabilities, stays in the caller's sign-in
    // session and ends with it (Accounts.mintToken); a key's token carries the key instead.
    return ok([gate.accounts.mintToken(auth, user, now, grant.ttlMs, grant.caps)]);
  }
  if (path === "/v2/auth/r/summary") return ok(accountSummary(gate.accounts.db, gate.exchange, user, now));
  // The site's internal form: the same record as the first element (docs/product-rules.md#calls; summary.ts).
  if (path === "/v2/auth/r/int/summary") return ok([accountSummary(gate.accounts.db, gate.exchange, user, now)]);
  if (path === "/v2/auth/w/user/token/generate") {
    // The site asks for a token of a scope; minted by w/token's rules (never more than the caller
    // may do, caps/capsRW/writePermission/allow_write honoured), the scope required here, and the
    // token the reply's first element.
    if (typeof body["scope"] !== "string") return fail(PARAMS, "scope: invalid", 400);
    const grant = tokenGrant(caps, body);
    if (!grant.ok) return fail(PARAMS, grant.msg, 400);
    // In the caller's sign-in session, as w/token's (Accounts.mintToken).
    return ok([gate.accounts.mintToken(auth, user, now, grant.ttlMs, grant.caps)]);
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
    if (!own) return fail(AUTH_FAILED, "token: invalid");
    // A session's own token deleting itself is the logout: the whole sign-in session ends with
    // it — its earlier renewals and every token minted from it (Accounts.mintToken) — not only
    // the token the app held.
    const session =
      target === auth.token && caps === null && auth.keyId === undefined ? gate.accounts.sessionOfToken(target) : null;
    if (session !== null) gate.accounts.revokeSessions(user, (s) => s === session);
    else if (!gate.accounts.revokeOwnToken(target, user)) return fail(AUTH_FAILED, "token: invalid");
    return ok([1]);
  }
  return extra(user, path, body, caps) ?? fail(PARAMS, "not found", 404);
}
