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
 */
import { randomInt } from "node:crypto";
import { apiKeyRowCodec, ERROR_CODES, permissionRowCodec } from "../src/protocol/index.ts";
import { fail, ok, type Reply } from "./reply.ts";
import { safeEqual, type Accounts } from "./store/accounts.ts";
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
const MAX_KEYS = 20;
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
  if (/^\/v2\/auth\/(?:r\/positions|[rw]\/position\/|r\/info\/margin|calc\/order\/avail)/.test(path))
    return { cap: "p", write };
  if (path === "/v2/auth/w/withdraw") return { cap: "wd", write: true };
  if (/^\/v2\/auth\/(?:r\/wallets|r\/ledgers|r\/movements|w\/transfer|w\/deposit)/.test(path))
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

/** Permissions as sent by the app: `{ orders: { read, write }, … }` or `[[scope, read, write]]`. */
function capsFrom(input: unknown): string[] | null {
  const entries: [string, unknown, unknown][] = [];
  if (Array.isArray(input)) {
    for (const e of input) if (Array.isArray(e) && typeof e[0] === "string") entries.push([e[0], e[1], e[2]]);
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

export class ApiKeys {
  readonly #pending = new Map<
    string,
    { userId: number; label: string; caps: string[]; code: string | null; expires: number; tries: number }
  >();

  constructor(
    readonly accounts: Accounts,
    readonly now: () => number,
    readonly mail: (to: string, subject: string, body: string) => void,
  ) {}

  /** Key management for the signed-in owner; null when the path is not one of these calls. */
  handle(userId: number, path: string, body: Record<string, unknown>, caps: readonly string[] | null): Reply | null {
    const db = this.accounts.db;
    switch (path) {
      case "/v2/auth/r/permissions":
        return ok(permissionsWire(caps));
      case "/v2/auth/r/api/keys": {
        const rows = db
          .prepare("SELECT key, label, caps, created_at FROM api_keys WHERE user_id = ? ORDER BY created_at, key")
          .all(userId) as { key: string; label: string; caps: string; created_at: number }[];
        return ok(
          rows.map((r) =>
            apiKeyRowCodec.encode({
              key: r.key,
              label: r.label,
              permissions: permissionsWire(JSON.parse(r.caps) as string[]),
              mtsCreate: r.created_at,
            }),
          ),
        );
      }
      case "/v2/auth/w/api/key/generate": {
        const label = typeof body["label"] === "string" ? body["label"].trim() : "";
        if (label === "" || label.length > 64) return fail(GENERIC, "label: invalid");
        const newCaps = capsFrom(body["permissions"]);
        if (!newCaps) return fail(GENERIC, "permissions: invalid");
        const count = (db.prepare("SELECT COUNT(*) AS n FROM api_keys WHERE user_id = ?").get(userId) as { n: number })
          .n;
        if (count >= MAX_KEYS) return fail(GENERIC, `label: at most ${MAX_KEYS} keys per account`);
        const user = this.accounts.byId(userId);
        if (!user) return fail(AUTH_FAILED, "token: invalid");
        const id = String(randomInt(1e9, 1e10));
        let code: string | null = null;
        if (!user.tfa_secret) {
          code = String(randomInt(0, 1e6)).padStart(6, "0");
          this.mail(user.email, "Confirm your new API key", `Your code to create the API key "${label}" is ${code}.`);
        }
        this.#pending.set(id, { userId, label, caps: newCaps, code, expires: this.now() + PENDING_MS, tries: 0 });
        return ok({ id, method: user.tfa_secret ? "otp" : "email" });
      }
      case "/v2/auth/w/api/key/verify": {
        const p = this.#pending.get(String(body["id"]));
        if (!p || p.userId !== userId || p.expires <= this.now()) return fail(GENERIC, "id: invalid or expired");
        const code = typeof body["code"] === "string" ? body["code"].trim() : "";
        const secret = this.accounts.byId(userId)?.tfa_secret ?? null;
        // A TOTP code is good once for everything: the one that signed the owner in cannot also
        // approve a key (Accounts.useTotpStep).
        const step = p.code === null && secret !== null ? totpStep(secret, code, this.now()) : null;
        const good =
          p.code !== null ? safeEqual(code, p.code) : step !== null && this.accounts.useTotpStep(userId, step);
        if (!good) {
          // A six-digit code must not be guessable in the ten minutes it lives: a few tries, then
          // the request is gone and the owner starts again.
          if (++p.tries >= MAX_CODE_TRIES) this.#pending.delete(String(body["id"]));
          return fail(GENERIC, "code: invalid");
        }
        this.#pending.delete(String(body["id"]));
        const created = this.accounts.createApiKey(userId, p.label, p.caps, this.now());
        return ok([created.key, created.secret]);
      }
      case "/v2/auth/w/api/key/update": {
        const key = typeof body["key"] === "string" ? body["key"] : "";
        const row = db.prepare("SELECT label, caps FROM api_keys WHERE key = ? AND user_id = ?").get(key, userId) as
          { label: string; caps: string } | undefined;
        if (!row) return fail(GENERIC, "key: invalid");
        const label = typeof body["label"] === "string" ? body["label"].trim() : row.label;
        if (label === "" || label.length > 64) return fail(GENERIC, "label: invalid");
        const newCaps =
          body["permissions"] === undefined ? (JSON.parse(row.caps) as string[]) : capsFrom(body["permissions"]);
        if (!newCaps) return fail(GENERIC, "permissions: invalid");
        // The key's tokens and sockets are narrowed with it (accounts.ts updateApiKey).
        this.accounts.updateApiKey(userId, key, label, newCaps);
        // The update answers the key's row without its creation time.
        const updated = { key, label, permissions: permissionsWire(newCaps), mtsCreate: null };
        return ok(apiKeyRowCodec.encode(updated, 3));
      }
      case "/v2/auth/w/api/key/revoke": {
        // With the key go the tokens minted with it, and its sockets are closed (accounts.ts).
        const n = this.accounts.revokeApiKeys(userId, body["all"] === 1 ? null : String(body["key"]));
        if (n === 0) return fail(GENERIC, "key: invalid");
        return ok([n]);
      }
      default:
        return null;
    }
  }
}
