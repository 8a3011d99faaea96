/**
 * The security settings as the rest of the exchange reads them (docs/product-rules.md#account-security-settings):
 * stored values with their defaults, the address lock, the session cap, the addresses an account
 * has signed in from, and whether withdrawals are checked. Reads only; the changes, their mailed
 * confirmations and the sign-in gate are server/security-settings.ts.
 */
import { BlockList, isIP } from "node:net";
import {
  ipLockList,
  SECURITY_DEFAULTS,
  SESSION_MAX_MS,
  settingOn,
  type SecurityChangeName,
} from "../../src/protocol/index.ts";
import type { Db } from "./db.ts";

/** How a refusal for an address off the `ip_lock` list reads (sign-in, calls, sockets; the app tells it). */
export const IP_LOCK_REFUSAL = "ip: address not allowed";

/** The stored value of `name` for `userId`, or its default. */
export function securitySetting(db: Db, userId: number, name: SecurityChangeName): string {
  const row = db.prepare("SELECT value FROM security_settings WHERE user_id = ? AND name = ?").get(userId, name) as
    { value: string } | undefined;
  return row?.value ?? SECURITY_DEFAULTS[name];
}

/** An address as settings compare it: an IPv4-mapped IPv6 peer (`::ffff:1.2.3.4`) as IPv4, lower-case. */
export function plainPeer(address: string): string {
  const m = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return m ? (m[1] as string) : address.toLowerCase();
}

/** Whether `address` is on `list` (addresses compared as addresses, `::1` and `0::1` alike). */
export function onAddressList(list: readonly string[], address: string | null): boolean {
  if (!address) return false;
  const addr = plainPeer(address);
  const family = isIP(addr);
  if (family === 0) return false;
  const rules = new BlockList();
  for (const entry of list) {
    const f = isIP(entry);
    if (f !== 0) rules.addAddress(entry, f === 6 ? "ipv6" : "ipv4");
  }
  return rules.check(addr, family === 6 ? "ipv6" : "ipv4");
}

/**
 * `ip_lock`: whether a session of `userId` may sign in or call from `address`. Any address while
 * the lock is off (`"0"`); otherwise only a listed one (an unknown address is refused).
 */
export function ipLockAllows(db: Db, userId: number, address: string | null): boolean {
  const value = securitySetting(db, userId, "ip_lock");
  return !settingOn("ip_lock", value) || onAddressList(ipLockList(value), address);
}

/**
 * `keep_session_alive` off: whether sign-in session `sessionId` has outlived SESSION_MAX_MS, so its
 * tokens (renewed or not) are refused. With the setting on, renewals keep a session for as long as
 * they come. A session unknown here (a token from before sessions were kept) is not capped.
 */
export function sessionLapsed(db: Db, sessionId: number, now: number): boolean {
  const row = db.prepare("SELECT user_id, created_at FROM sessions WHERE id = ?").get(sessionId) as
    { user_id: number; created_at: number } | undefined;
  if (!row || now - row.created_at < SESSION_MAX_MS) return false;
  return !settingOn("keep_session_alive", securitySetting(db, row.user_id, "keep_session_alive"));
}

/** Whether `userId` has signed in from `address` before (a session begun there). */
export function knownAddress(db: Db, userId: number, address: string): boolean {
  const addr = plainPeer(address);
  const rows = db
    .prepare("SELECT DISTINCT address FROM sessions WHERE user_id = ? AND address IS NOT NULL")
    .all(userId) as {
    address: string;
  }[];
  return onAddressList(
    rows.map((r) => plainPeer(r.address)),
    addr,
  );
}

/** Whether `userId` has ever had a session (the very first sign-in has no address to compare). */
export function hasSignedIn(db: Db, userId: number): boolean {
  return db.prepare("SELECT 1 FROM sessions WHERE user_id = ? LIMIT 1").get(userId) !== undefined;
}

/**
 * `no_enforce_withdrawal_check`: whether a withdrawal of `userId` must pass the exchange's
 * confirmation step (true unless the owner turned the check off, a change confirmed by mail).
 * The withdrawal confirmation itself calls this; it is not built here.
 */
export function withdrawalCheckEnforced(db: Db, userId: number): boolean {
  return !settingOn("no_enforce_withdrawal_check", securitySetting(db, userId, "no_enforce_withdrawal_check"));
}

/**
 * `ip_lock` on a credential's call or socket: a token that is not an API key's (a session's own,
 * one it minted, a sub-account context, checked against its master's lock too) is refused from an
 * address off the account's list. API keys and their tokens have their own allowlist
 * (server/api-keys.ts) and are left to it.
 */
export function credentialAddressAllowed(
  db: Db,
  cred: { readonly userId: number; readonly keyId?: string; readonly context?: { readonly masterId: number } },
  address: string | null,
): boolean {
  if (cred.keyId !== undefined) return true;
  if (!ipLockAllows(db, cred.userId, address)) return false;
  return cred.context === undefined || ipLockAllows(db, cred.context.masterId, address);
}
