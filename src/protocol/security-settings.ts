/**
 * The account's security settings (docs/product-rules.md#account-security-settings): their names,
 * stored values and defaults, which changes loosen the account's protection (those wait for a
 * mailed confirmation) and the rules a value must meet. Shared by the security page and the
 * exchange, so both refuse the same input. An IP address check is injected (`IpCheck`): the
 * exchange passes node's `net.isIP`, the browser a check built on its URL parser; this module has
 * no parser of its own.
 */

/** The switches and lists of the security settings, as stored. */
export const SECURITY_SETTINGS = [
  "keep_session_alive",
  "email_on_login",
  "nosinglelogin",
  "ip_lock",
  "no_enforce_withdrawal_check",
  "lock_on_new_ip",
] as const;

export type SecuritySettingName = (typeof SECURITY_SETTINGS)[number];

/** Every setting a change may name: the six above and the two-factor fallback. */
export type SecurityChangeName = SecuritySettingName | "two_fa_fallback";

export const SECURITY_CHANGE_NAMES: readonly SecurityChangeName[] = [...SECURITY_SETTINGS, "two_fa_fallback"];

/**
 * The values an account has before it changes anything. Sessions are capped (keep-alive off), a
 * sign-in mail is opt-in, several sessions may run at once, no address lock, withdrawals are
 * checked, new addresses sign in without a mailed confirmation, and any second factor the account
 * has may stand in for the first.
 */
export const SECURITY_DEFAULTS: Readonly<Record<SecurityChangeName, string>> = {
  keep_session_alive: "0",
  email_on_login: "0",
  nosinglelogin: "1",
  ip_lock: "0",
  no_enforce_withdrawal_check: "0",
  lock_on_new_ip: "0",
  two_fa_fallback: "1",
};

/** At most this many addresses on the `ip_lock` list. */
export const IP_LOCK_MAX = 20;
/** How long a mailed confirm or cancel link of a pending change works. */
export const SECURITY_CHANGE_TTL_MS = 60 * 60_000;
/** How long the mailed link that confirms a sign-in from a new address works. */
export const LOGIN_CONFIRM_TTL_MS = 30 * 60_000;
/** With `keep_session_alive` off, a sign-in session ends this long after it began, renewals or not. */
export const SESSION_MAX_MS = 12 * 60 * 60_000;

/** 4 or 6 for an IPv4 or IPv6 address written alone, else 0 (node's `net.isIP` contract). */
export type IpCheck = (text: string) => number;

/**
 * Whether a stored value reads as "on": `"1"` for a switch, `"0"` for `nosinglelogin` (the page
 * shows "single login", the inverse of the stored "no single login"), any list for `ip_lock`.
 */
export function settingOn(name: SecurityChangeName, value: string): boolean {
  if (name === "nosinglelogin") return value === "0";
  if (name === "ip_lock") return value !== "0" && value !== "";
  return value === "1";
}

/** The addresses of a stored `ip_lock` value (`"0"`: none). */
export function ipLockList(value: string): string[] {
  return value === "0" ? [] : value.split(",").filter((a) => a !== "");
}

export type IpListProblem =
  { readonly kind: "invalid"; readonly entry: string } | { readonly kind: "too-many" } | { readonly kind: "empty" };

/**
 * An `ip_lock` list as typed (separated by commas, spaces or lines): single IPv4 or IPv6 addresses
 * (no ranges, no zone), lower-case, duplicates dropped, at most IP_LOCK_MAX, at least one.
 */
export function parseIpLock(
  text: string,
  isIp: IpCheck,
): { readonly ok: true; readonly list: readonly string[] } | { readonly ok: false; readonly problem: IpListProblem } {
  const list: string[] = [];
  for (const raw of text.split(/[\s,]+/)) {
    if (raw === "") continue;
    // A zone (`fe80::1%eth0`) names an interface of one machine: never a peer address to compare.
    const entry = raw.toLowerCase();
    if (entry.includes("%") || isIp(entry) === 0) return { ok: false, problem: { kind: "invalid", entry: raw } };
    if (!list.includes(entry)) list.push(entry);
  }
  if (list.length === 0) return { ok: false, problem: { kind: "empty" } };
  if (list.length > IP_LOCK_MAX) return { ok: false, problem: { kind: "too-many" } };
  return { ok: true, list };
}

/**
 * Checks a requested value: `"1"`/`"0"` for a switch; for `ip_lock` `"0"` (unlocked) or a list
 * (parseIpLock), answered in its stored form (addresses joined by commas).
 */
export function checkSettingValue(
  name: SecurityChangeName,
  val: unknown,
  isIp: IpCheck,
):
  | { readonly ok: true; readonly value: string }
  | { readonly ok: false; readonly problem: IpListProblem | { readonly kind: "value" } } {
  if (name !== "ip_lock") {
    return val === "1" || val === "0" ? { ok: true, value: val } : { ok: false, problem: { kind: "value" } };
  }
  if (val === "0") return { ok: true, value: "0" };
  if (typeof val !== "string") return { ok: false, problem: { kind: "value" } };
  const parsed = parseIpLock(val, isIp);
  return parsed.ok ? { ok: true, value: parsed.list.join(",") } : parsed;
}

/**
 * Whether changing `name` from `from` to `to` waits for the owner's mailed confirmation instead of
 * applying at once: every change that loosens the account's protection (keeping sessions alive,
 * stopping the sign-in mail, allowing several sessions, lifting the address lock or adding an
 * address to it, not checking withdrawals, signing in from new addresses unconfirmed), and turning
 * the address lock on. A lock set at once would let a stolen session lock the owner out from
 * wherever they are (the list must hold the caller's address, which is the thief's), so turning it
 * on names addresses like adding one does and waits for the mailbox. The two-factor fallback
 * always waits, whichever way it changes. Removing addresses from an existing lock (a narrower
 * list) and every other tightening applies at once.
 */
export function changeLoosens(name: SecurityChangeName, from: string, to: string): boolean {
  if (from === to) return false;
  switch (name) {
    case "two_fa_fallback":
      return true;
    case "ip_lock": {
      if (to === "0" || from === "0") return true;
      const had = ipLockList(from);
      return ipLockList(to).some((a) => !had.includes(a));
    }
    case "keep_session_alive":
    case "nosinglelogin":
    case "no_enforce_withdrawal_check":
      return to === "1";
    case "email_on_login":
    case "lock_on_new_ip":
      return to === "0";
    default: {
      const never: never = name;
      return never;
    }
  }
}
