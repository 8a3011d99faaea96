/**
 * API keys with capabilities (generate, verify the generation, update, revoke one or all:
 * docs/product-rules.md#other-flows). Generating is two steps: the request names the label and
 * permissions and gets a pending id; the key and its secret exist only once the owner proves it is
 * them — the TOTP code when two-factor is on, otherwise a code mailed to the outbox. The secret is
 * shown once and never again.
 *
 * Capabilities are stored as scope letters with an optional `:r` (read only): `o` orders, `p`
 * positions (margin trading: `r/positions`, `w/position/…`, margin info, `calc/order/avail` — the
 * real API's separate "positions" permission), `w` wallets, `wd` withdraw, `a` account, `f`
 * funding, `s` settings. Keys stored before `p` existed had positions under `o`: store/db.ts's
 * migration gave them `p` (or `p:r`). Calls made with a key are checked
 * against them (`requiredCap`), and so are calls with a token minted by a key (`tokenGrant`: never
 * more than the key) or a session's token asked with narrower caps or read-only; calls made with
 * a session token are the user's own and are not.
 *
 * Paths (Bitfinex documents none for this, so they follow its naming): `/v2/auth/r/api/keys`,
 * `/v2/auth/w/api/key/generate`, `/v2/auth/w/api/key/verify`, `/v2/auth/w/api/key/update`,
 * `/v2/auth/w/api/key/revoke`, and `/v2/auth/r/permissions` for the calling credential.
 *
 * Permissions are taken in every form the product knows (docs/product-rules.md#permission-strings):
 * `{scope: {read, write}}`, `[[scope, read, write]]`, or a permission string in either format. A key
 * may carry an IP allowlist (addresses and CIDR ranges, `[]`: any address); a call signed with the
 * key, or made with a token minted with it, from another address is refused (`keyAllowsAddress`).
 *
 * A pending generation lives in SQLite (`api_key_requests`), so a restart does not lose the code
 * already mailed; verifying deletes the request and writes the key in one transaction: a crash
 * leaves either the request or the key, never both and never a part of one.
 */
import { randomInt } from "node:crypto";
import { BlockList, isIP } from "node:net";
import {
  apiKeyRowCodec,
  CAPABILITY_SCOPES,
  ERROR_CODES,
  parsePermissionString,
  permissionRowCodec,
} from "../src/protocol/index.ts";
import { fail, ok, type Reply } from "./reply.ts";
import { safeEqual, type Accounts } from "./store/accounts.ts";
import type { Db } from "./store/db.ts";
import { totpStep } from "./store/totp.ts";

const { GENERIC, AUTH_FAILED } = ERROR_CODES;

/** Scopes in the order `r/permissions` lists them, with the capability letter that grants each. */
const SCOPES: readonly (readonly [scope: string, cap: string])[] = [
  ["account", "a"],
  ["history", "a"],
  ["orders", "o"],
  ["positions", "p"],
  ["funding", "f"],
  ["settings", "s"],
  ["wallets", "w"],
  ["withdraw", "wd"],
  // `r/permissions` lists two more (docs/protocol.md#permissions). No call here needs them; keys
  // and tokens may carry them (`bp` is w/token's bfxpay letter; ui_withdraw has none documented:
  // `uwd` is this exchange's).
  ["ui_withdraw", "uwd"],
  ["bfxpay", "bp"],
];
const CAPS = new Set(SCOPES.map(([, c]) => c));
const PENDING_MS = 10 * 60_000;
export const MAX_KEYS = 20;
/** Generations one account may have waiting for their code at once (each mails a code). */
export const MAX_PENDING = 5;
/** Entries an IP allowlist may hold. */
export const MAX_IPS = 20;
export const MAX_LABEL = 64;
/** Wrong codes a pending key generation takes before it is dropped. */
export const MAX_CODE_TRIES = 5;

export interface Need {
  readonly cap: string;
  readonly write: boolean;
}

/**
 * What a call made with an API key needs; null for calls a key may never make (managing keys,
 * two-factor set-up — only the signed-in owner does those).
 */
export function requiredCap(path: string): Need | null {
  const write = path.startsWith("/v2/auth/w/");
  if (/^\/v2\/auth\/[rw]\/(?:api\/|int\/2fa)/.test(path) || path === "/v2/auth/w/int/2fa/register") return null;
  if (/^\/v2\/auth\/[rw]\/orders?\b|^\/v2\/auth\/r\/trades/.test(path)) return { cap: "o", write };
  // An OTC block is a trade: the orders permission, like placing one.
  if (/^\/v2\/auth\/[rw]\/int\/otc\//.test(path)) return { cap: "o", write };
  if (
    /^\/v2\/auth\/(?:r\/positions|[rw]\/position\/|r\/info\/margin|calc\/order\/avail|w\/deriv\/|calc\/deriv\/)/.test(
      path,
    )
  )
    return { cap: "p", write };
  // Withdrawals and their calls (exchange/withdrawals.ts): the info and travel-rule reads too, which
  // show the account's limits and address book.
  if (path === "/v2/auth/w/withdraw" || /^\/v2\/auth\/[rw]\/int\/movements\//.test(path)) return { cap: "wd", write };
  // A conversion moves wallet balances like a transfer: the wallets permission.
  if (/^\/v2\/auth\/(?:r\/wallets|r\/ledgers|r\/movements|w\/transfer|w\/deposit|w\/int\/convert)/.test(path))
    return { cap: "w", write };
  if (/^\/v2\/auth\/[rw]\/settings/.test(path)) return { cap: "s", write };
  // Every funding call: offers, credits, loans, trades, auto-renew, close, and `r/info/funding/…`.
  if (/^\/v2\/auth\/(?:[rw]\/funding|r\/info\/funding|calc\/funding)/.test(path)) return { cap: "f", write };
  return { cap: "a", write };
}

/** Whether a key's capabilities grant a need. */
export function allows(caps: readonly string[], need: Need | null): boolean {
  if (!need) return false;
  return caps.includes(need.cap) || (!need.write && caps.includes(`${need.cap}:r`));
}

/** `[[scope, read, write], …]` as `r/permissions` answers (docs/protocol.md#permissions). */
export function permissionsWire(caps: readonly string[] | null): unknown[][] {
  return SCOPES.map(([scope, cap]) => {
    const write = caps === null || caps.includes(cap);
    return permissionRowCodec.encode({ scope, read: write || caps.includes(`${cap}:r`), write });
  });
}

/** The longest a token asked for with `ttl` may live (the product's token time to live, 3600 s). */
export const MAX_TOKEN_TTL_S = 3600;

/**
 * What a web session's renewal asks for (a write-enabled token carries the capabilities o, f, s, w:
 * docs/product-rules.md#token-capabilities; src/ui/session/core.ts TOKEN_CAPS, some builds add `a`). A session
 * asking for at least these, with write, gets a session token: the app renews its session with it
 * and makes every call with the result — positions, withdrawals, API key management included (the
 * real site's session is a cookie these caps do not limit).
 */
export const WEB_SESSION_CAPS: readonly string[] = ["o", "f", "s", "w"];

/** Everything a session may do, as capability letters (key management aside: sessions only). */
const SESSION_CAPS: readonly string[] = [...CAPS];

/**
 * What `w/token` mints (`{scope, ttl, caps, writePermission}`, `capsRW`, the `cpl` variant's
 * `allow_write`: docs/protocol.md#tokens, docs/product-rules.md#token-capabilities) for a caller
 * with `callerCaps` (null: a session token). A token never carries more than its caller: the
 * caller's capabilities (a session's: every letter) are intersected with what is asked — `caps`
 * letters, write only with `writePermission: true` (or `allow_write`), or `capsRW` `{letter: {read,
 * write}}` — and asking for nothing gives the caller's own, read-only with `writePermission: false`
 * (or `allow_write: false`). A session asking for nothing, or for WEB_SESSION_CAPS with write,
 * keeps a session token (null). `ttl` is seconds, at most MAX_TOKEN_TTL_S; absent, the session's 8
 * minutes.
 */
export function tokenGrant(
  callerCaps: readonly string[] | null,
  body: Record<string, unknown>,
): { ok: true; caps: string[] | null; ttlMs: number | null } | { ok: false; msg: string } {
  const scope = body["scope"];
  if (scope !== undefined && scope !== "api" && scope !== "cpl") return { ok: false, msg: "scope: invalid" };
  let ttlMs: number | null = null;
  if (body["ttl"] !== undefined) {
    const ttl = Number(body["ttl"]);
    if (!Number.isFinite(ttl) || ttl < 1 || ttl > MAX_TOKEN_TTL_S) return { ok: false, msg: "ttl: invalid" };
    ttlMs = Math.floor(ttl * 1000);
  }
  const flag = (v: unknown): boolean | null => (v === true || v === 1 ? true : v === false || v === 0 ? false : null);
  const writeFlag = flag(body["writePermission"]) ?? flag(body["allow_write"]);
  const held = callerCaps ?? SESSION_CAPS;
  const asked = new Map<string, boolean>(); // letter → write
  const rw = body["capsRW"];
  if (Array.isArray(body["caps"])) {
    for (const c of body["caps"]) if (typeof c === "string") asked.set(c, writeFlag === true);
  } else if (typeof rw === "object" && rw !== null && !Array.isArray(rw)) {
    for (const [c, v] of Object.entries(rw as Record<string, unknown>)) {
      const o = (typeof v === "object" && v !== null ? v : {}) as Record<string, unknown>;
      const w = o["write"] === 1 || o["write"] === true;
      if (w || o["read"] === 1 || o["read"] === true) asked.set(c, w);
    }
  } else {
    // Nothing asked: the caller's own capabilities, read-only if write is refused.
    const readOnly = writeFlag === false;
    if (callerCaps === null && !readOnly) return { ok: true, caps: null, ttlMs };
    return { ok: true, caps: held.map((c) => (readOnly && !c.endsWith(":r") ? `${c}:r` : c)), ttlMs };
  }
  if (callerCaps === null && WEB_SESSION_CAPS.every((c) => asked.get(c) === true))
    return { ok: true, caps: null, ttlMs };
  const caps: string[] = [];
  for (const [c, w] of asked) {
    if (!CAPS.has(c)) continue;
    if (w && held.includes(c)) caps.push(c);
    else if (held.includes(c) || held.includes(`${c}:r`)) caps.push(`${c}:r`);
  }
  return { ok: true, caps, ttlMs };
}

/**
 * A permission string in either format (docs/product-rules.md#permission-strings) as scope rows;
 * null when any part of it is not understood (the product's reader skips such parts, but a key must
 * get exactly what its owner asked for or nothing).
 */
function permissionStringRows(text: string): [string, boolean, boolean][] | null {
  const trimmed = text.trim();
  if (trimmed === "") return null;
  if (/(read|write)$/.test(trimmed)) {
    if (!trimmed.split(/[,\s]+/).every((item) => /^[a-z_]+[-:_](read|write)$/.test(item))) return null;
  } else {
    const parts = trimmed.split(":");
    const flag = parts.pop();
    if (
      (flag !== "0" && flag !== "1") ||
      parts.length === 0 ||
      !parts.every((c) => Object.hasOwn(CAPABILITY_SCOPES, c))
    )
      return null;
  }
  return Object.entries(parsePermissionString(trimmed)).map(([scope, p]) => [scope, p.read, p.write]);
}

/**
 * Permissions as sent: `{ orders: { read, write }, … }`, `[[scope, read, write]]`, or a permission
 * string. Null when malformed or naming an unknown scope; write implies read.
 */
export function capsFrom(input: unknown): string[] | null {
  const entries: [string, unknown, unknown][] = [];
  if (typeof input === "string") {
    const rows = permissionStringRows(input);
    if (!rows) return null;
    entries.push(...rows);
  } else if (Array.isArray(input)) {
    for (const e of input) {
      if (!Array.isArray(e) || typeof e[0] !== "string") return null;
      entries.push([e[0], e[1], e[2]]);
    }
  } else if (typeof input === "object" && input !== null) {
    for (const [k, v] of Object.entries(input as Record<string, unknown>)) {
      const o = (typeof v === "object" && v !== null ? v : {}) as Record<string, unknown>;
      entries.push([k, o["read"], o["write"]]);
    }
  } else return null;
  const caps = new Set<string>();
  for (const [scope, read, write] of entries) {
    const cap = SCOPES.find(([s]) => s === scope)?.[1];
    if (!cap) return null;
    if (write === 1 || write === true) {
      caps.delete(`${cap}:r`);
      caps.add(cap);
    } else if ((read === 1 || read === true) && !caps.has(cap)) caps.add(`${cap}:r`);
  }
  return [...caps].filter((c) => CAPS.has(c.replace(":r", "")));
}

/** An address as the allowlist compares it: an IPv4-mapped IPv6 address (`::ffff:1.2.3.4`) as IPv4. */
function plainAddress(address: string): string {
  const m = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return m ? (m[1] as string) : address.toLowerCase();
}

/**
 * An IP allowlist as sent (a list, or text separated by commas, spaces or lines): IPv4 and IPv6
 * addresses and CIDR ranges, at most MAX_IPS, duplicates dropped. Absent or empty: any address.
 */
export function parseIpAllowlist(input: unknown): { ok: true; ips: string[] } | { ok: false; msg: string } {
  if (input === undefined || input === null) return { ok: true, ips: [] };
  const items = typeof input === "string" ? input.split(/[\s,]+/) : Array.isArray(input) ? (input as unknown[]) : null;
  if (!items) return { ok: false, msg: "ips: invalid" };
  const ips: string[] = [];
  for (const item of items) {
    if (typeof item !== "string") return { ok: false, msg: "ips: invalid" };
    const text = item.trim();
    if (text === "") continue;
    const [addr = "", prefix, ...rest] = text.split("/");
    const family = isIP(addr);
    const max = family === 4 ? 32 : 128;
    if (
      family === 0 ||
      rest.length > 0 ||
      (prefix !== undefined && (!/^\d{1,3}$/.test(prefix) || Number(prefix) > max))
    )
      return { ok: false, msg: `ips: invalid address ${text.slice(0, 64)}` };
    const entry = prefix === undefined ? plainAddress(addr) : `${addr.toLowerCase()}/${Number(prefix)}`;
    if (!ips.includes(entry)) ips.push(entry);
  }
  if (ips.length > MAX_IPS) return { ok: false, msg: `ips: at most ${MAX_IPS} entries` };
  return { ok: true, ips };
}

function storedList(json: string | undefined): string[] {
  try {
    const v: unknown = JSON.parse(json ?? "[]");
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : [];
  } catch {
    return [];
  }
}

/**
 * Whether API key `keyId` may be used from `address` (the caller's socket address): any address
 * when its allowlist is empty; otherwise only a listed address or one inside a listed range. An
 * unknown key, or an unknown address with a list, is refused.
 */
export function keyAllowsAddress(db: Db, keyId: string, address: string | null | undefined): boolean {
  const row = db.prepare("SELECT ip_allow FROM api_keys WHERE key = ?").get(keyId) as { ip_allow: string } | undefined;
  if (!row) return false;
  const list = storedList(row.ip_allow);
  if (list.length === 0) return true;
  if (!address) return false;
  const addr = plainAddress(address);
  const family = isIP(addr);
  if (family === 0) return false;
  const rules = new BlockList();
  for (const entry of list) {
    const [a = "", prefix] = entry.split("/");
    const type = isIP(a) === 6 ? "ipv6" : "ipv4";
    if (prefix === undefined) rules.addAddress(a, type);
    else rules.addSubnet(a, Number(prefix), type);
  }
  return rules.check(addr, family === 6 ? "ipv6" : "ipv4");
}

/** A label: 1 to MAX_LABEL characters after trimming, no control characters. */
function labelFrom(v: unknown): string | null {
  if (typeof v !== "string") return null;
  const label = v.trim();
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  return label === "" || label.length > MAX_LABEL || /[\u0000-\u001f\u007f]/.test(label) ? null : label;
}

interface RequestRow {
  readonly id: string;
  readonly user_id: number;
  readonly label: string;
  readonly caps: string;
  readonly ip_allow: string;
  readonly code: string | null;
  readonly expires_at: number;
  readonly tries: number;
}

export class ApiKeys {
  constructor(
    readonly accounts: Accounts,
    readonly now: () => number,
    readonly mail: (to: string, subject: string, body: string) => void,
  ) {
    // This module's own table (store/db.ts's migrations cover the shared ones).
    accounts.db.exec(`CREATE TABLE IF NOT EXISTS api_key_requests (
      id TEXT PRIMARY KEY,
      user_id INTEGER NOT NULL REFERENCES users(id),
      label TEXT NOT NULL,
      caps TEXT NOT NULL,
      ip_allow TEXT NOT NULL,
      code TEXT,
      expires_at INTEGER NOT NULL,
      tries INTEGER NOT NULL DEFAULT 0
    )`);
  }

  #row(key: string, label: string, caps: readonly string[], ips: readonly string[], mtsCreate: number | null) {
    return apiKeyRowCodec.encode({ key, label, permissions: permissionsWire(caps), mtsCreate, ipAllowlist: [...ips] });
  }

  /** Key management for the signed-in owner; null when the path is not one of these calls. */
  handle(userId: number, path: string, body: Record<string, unknown>, caps: readonly string[] | null): Reply | null {
    const db = this.accounts.db;
    switch (path) {
      case "/v2/auth/r/permissions":
        return ok(permissionsWire(caps));
      case "/v2/auth/r/api/keys": {
        const rows = db
          .prepare(
            "SELECT key, label, caps, ip_allow, created_at FROM api_keys WHERE user_id = ? ORDER BY created_at, key",
          )
          .all(userId) as { key: string; label: string; caps: string; ip_allow: string; created_at: number }[];
        return ok(rows.map((r) => this.#row(r.key, r.label, storedList(r.caps), storedList(r.ip_allow), r.created_at)));
      }
      case "/v2/auth/w/api/key/generate": {
        const label = labelFrom(body["label"]);
        if (label === null) return fail(GENERIC, "label: invalid");
        const newCaps = capsFrom(body["permissions"]);
        if (!newCaps) return fail(GENERIC, "permissions: invalid");
        if (newCaps.length === 0) return fail(GENERIC, "permissions: none granted");
        const ips = parseIpAllowlist(body["ips"]);
        if (!ips.ok) return fail(GENERIC, ips.msg);
        const user = this.accounts.byId(userId);
        if (!user) return fail(AUTH_FAILED, "token: invalid");
        const now = this.now();
        // The request, its count checks and its mail in one transaction: two racing requests cannot
        // both pass the limits, and a crash never leaves a mailed code without its request.
        return db.transaction((): Reply => {
          db.prepare("DELETE FROM api_key_requests WHERE expires_at <= ?").run(now);
          const count = (
            db.prepare("SELECT COUNT(*) AS n FROM api_keys WHERE user_id = ?").get(userId) as { n: number }
          ).n;
          if (count >= MAX_KEYS) return fail(GENERIC, `label: at most ${MAX_KEYS} keys per account`);
          const waiting = (
            db.prepare("SELECT COUNT(*) AS n FROM api_key_requests WHERE user_id = ?").get(userId) as { n: number }
          ).n;
          if (waiting >= MAX_PENDING) return fail(GENERIC, "id: too many pending, verify or wait");
          const id = String(randomInt(1e9, 1e10));
          let code: string | null = null;
          if (!user.tfa_secret) {
            code = String(randomInt(0, 1e6)).padStart(6, "0");
            this.mail(user.email, "Confirm your new API key", `Your code to create the API key "${label}" is ${code}.`);
          }
          db.prepare(
            "INSERT INTO api_key_requests (id, user_id, label, caps, ip_allow, code, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
          ).run(id, userId, label, JSON.stringify(newCaps), JSON.stringify(ips.ips), code, now + PENDING_MS);
          return ok({ id, method: user.tfa_secret ? "otp" : "email" });
        })();
      }
      case "/v2/auth/w/api/key/verify": {
        const id = typeof body["id"] === "string" || typeof body["id"] === "number" ? String(body["id"]) : "";
        const code = typeof body["code"] === "string" ? body["code"].trim() : "";
        const now = this.now();
        return db.transaction((): Reply => {
          const p = db.prepare("SELECT * FROM api_key_requests WHERE id = ? AND user_id = ?").get(id, userId) as
            RequestRow | undefined;
          if (!p || p.expires_at <= now) return fail(GENERIC, "id: invalid or expired");
          const secret = this.accounts.byId(userId)?.tfa_secret ?? null;
          // A TOTP code is good once for everything: the one that signed the owner in cannot also
          // approve a key (Accounts.useTotpStep).
          const step = p.code === null && secret !== null ? totpStep(secret, code, now) : null;
          const good =
            p.code !== null ? safeEqual(code, p.code) : step !== null && this.accounts.useTotpStep(userId, step);
          if (!good) {
            // A six-digit code must not be guessable in the ten minutes it lives: a few tries, then
            // the request is gone and the owner starts again.
            if (p.tries + 1 >= MAX_CODE_TRIES) db.prepare("DELETE FROM api_key_requests WHERE id = ?").run(id);
            else db.prepare("UPDATE api_key_requests SET tries = tries + 1 WHERE id = ?").run(id);
            return fail(GENERIC, "code: invalid");
          }
          db.prepare("DELETE FROM api_key_requests WHERE id = ?").run(id);
          const created = this.accounts.createApiKey(userId, p.label, storedList(p.caps), now, undefined, {
            ipAllow: storedList(p.ip_allow),
          });
          return ok([created.key, created.secret]);
        })();
      }
      case "/v2/auth/w/api/key/update": {
        const key = typeof body["key"] === "string" ? body["key"] : "";
        const row = db
          .prepare("SELECT label, caps, ip_allow, created_at FROM api_keys WHERE key = ? AND user_id = ?")
          .get(key, userId) as { label: string; caps: string; ip_allow: string; created_at: number } | undefined;
        if (!row) return fail(GENERIC, "key: invalid");
        const label = body["label"] === undefined ? row.label : labelFrom(body["label"]);
        if (label === null) return fail(GENERIC, "label: invalid");
        const newCaps = body["permissions"] === undefined ? storedList(row.caps) : capsFrom(body["permissions"]);
        if (!newCaps) return fail(GENERIC, "permissions: invalid");
        if (newCaps.length === 0) return fail(GENERIC, "permissions: none granted");
        const ips =
          body["ips"] === undefined
            ? { ok: true as const, ips: storedList(row.ip_allow) }
            : parseIpAllowlist(body["ips"]);
        if (!ips.ok) return fail(GENERIC, ips.msg);
        // One transaction: the allowlist first, so the sockets updateApiKey tells re-check against
        // it too; its tokens and sockets are narrowed with the key (accounts.ts updateApiKey).
        db.transaction(() => {
          db.prepare("UPDATE api_keys SET ip_allow = ? WHERE key = ? AND user_id = ?").run(
            JSON.stringify(ips.ips),
            key,
            userId,
          );
          this.accounts.updateApiKey(userId, key, label, newCaps);
        })();
        return ok(this.#row(key, label, newCaps, ips.ips, row.created_at));
      }
      case "/v2/auth/w/api/key/revoke": {
        const all = body["all"] === 1 || body["all"] === true;
        const key = typeof body["key"] === "string" && body["key"] !== "" ? body["key"] : null;
        if (!all && key === null) return fail(GENERIC, "key: invalid");
        // With the key go the tokens minted with it, and its sockets are closed (accounts.ts).
        const n = this.accounts.revokeApiKeys(userId, all ? null : key);
        if (n === 0 && !all) return fail(GENERIC, "key: invalid");
        return ok([n]);
      }
      default:
        return null;
    }
  }
}
