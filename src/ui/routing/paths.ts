/**
 * Route-matching rules (docs/product-rules.md#routes-and-navigation): trailing slashes tolerated,
 * `/index.html` is the root, protected prefixes send a logged-out user to the login page with a
 * `back` address, `/freeze` is excluded from the forced-login message, `/tradedesk*` is the
 * trading-desk area.
 */

export const PROTECTED_PREFIXES = [
  "/t",
  "/f",
  "/trading",
  "/funding",
  "/deposit",
  "/withdraw",
  "/wallets",
  "/otc",
  "/account",
  "/subaccounts",
  "/security",
  "/notifications",
  "/interface",
  "/api",
  "/archive",
  "/reports",
] as const;

export const LOGIN_PATH = "/login";
export const FREEZE_PATH = "/freeze";
export const TRADEDESK_PREFIX = "/tradedesk";

/**
 * The canonical form of a path for matching: `/index.html` → `/`, repeated slashes folded, one
 * trailing slash dropped (`/about/` → `/about`). Query and hash are not part of a path.
 */
export function normalizePath(pathname: string): string {
  let p = pathname.replace(/\/{2,}/g, "/");
  if (!p.startsWith("/")) p = `/${p}`;
  if (p === "/index.html" || p.endsWith("/index.html")) p = p.slice(0, -"index.html".length);
  if (p.length > 1 && p.endsWith("/")) p = p.slice(0, -1);
  return p;
}

/** True when `path` is `prefix` or lies below it as a whole segment (`/t/BTCUSD`, not `/terms`). */
export function hasPathPrefix(path: string, prefix: string): boolean {
  const p = normalizePath(path);
  return p === prefix || p.startsWith(`${prefix}/`);
}

export function isProtectedPath(path: string): boolean {
  return PROTECTED_PREFIXES.some((prefix) => hasPathPrefix(path, prefix));
}

/** The trading-desk area: any path starting with /tradedesk (docs/product-rules.md#protected-area). */
export function isTradeDeskPath(path: string): boolean {
  return normalizePath(path).startsWith(TRADEDESK_PREFIX);
}

/** Whether the login page should show the "please sign in" message for a redirect from `path`. */
export function showsForcedLoginMessage(path: string): boolean {
  return !hasPathPrefix(path, FREEZE_PATH);
}

/**
 * The login address for a forced login: `back` holds the full current address (path, query and
 * hash) so the user returns exactly where they were; `forced=1` asks for the forced-login message.
 */
export function loginRedirect(currentHref: string, origin: string): string {
  const url = new URL(currentHref, origin);
  const back = url.origin === origin ? `${url.pathname}${url.search}${url.hash}` : "/";
  const params = new URLSearchParams({ back });
  if (showsForcedLoginMessage(url.pathname)) params.set("forced", "1");
  return `${LOGIN_PATH}?${params.toString()}`;
}

/**
 * Where to go after login: the `back` parameter when it is a same-site path (an open redirect to
 * another host is refused), otherwise the home page.
 */
export function safeBackTarget(search: string): string {
  const back = new URLSearchParams(search).get("back");
  // Browsers drop tabs and newlines from addresses and read "\\" as "/": "/\t/evil.example" is
  // "//evil.example" to them, and "/\tlogin" is the login page again (the user would be stranded).
  // Such text is refused outright; what is left is resolved as the browser would resolve it.
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused here
  if (!back || !back.startsWith("/") || /[\u0000-\u001f\u007f\\]/.test(back)) return "/";
  let url: URL;
  try {
    url = new URL(back, BACK_BASE);
  } catch {
    return "/";
  }
  if (url.origin !== BACK_BASE || hasPathPrefix(url.pathname, LOGIN_PATH)) return "/";
  return `${url.pathname}${url.search}${url.hash}`;
}

/** Any origin of our own to resolve `back` against: a result on another origin left the site. */
const BACK_BASE = "https://orderflow.invalid";

export type RouteDecision = { readonly kind: "render" } | { readonly kind: "redirect"; readonly to: string };

/** The access decision for a path: logged-out users on protected paths go to the login page. */
export function decideAccess(href: string, origin: string, loggedIn: boolean): RouteDecision {
  const path = new URL(href, origin).pathname;
  if (!loggedIn && isProtectedPath(path)) return { kind: "redirect", to: loginRedirect(href, origin) };
  return { kind: "render" };
}
