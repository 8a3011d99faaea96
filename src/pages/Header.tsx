import { msg } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { useEffect, useRef } from "react";
import { useSnapshot } from "valtio";
import { useLocation, useSearch } from "wouter";
import { auth, isLoggedIn } from "../ui/auth";
import { platform } from "../ui/config";
import { session } from "../ui/session";
import { contextFor, watchContext } from "../ui/subaccounts/context";
import { useDismissable } from "../ui/shell/dismiss";
import { DisplayControls } from "../ui/shell/DisplayControls";
import { PaperSwitch } from "../ui/paper";
import * as css from "../ui/shell/shell.css";
import { FOOTER_GROUPS } from "./footer-links";
import { routeFor, routeHref, routeMatches } from "./published";
import { navFor, routesFor, type RouteDef } from "./routes";

/** The sign-in link returns to the current page, except from the session pages themselves. */
function loginHref(path: string, search: string): string {
  if (path === "/login" || path === "/logout" || path === "/logged-out" || path === "/") return "/login";
  const back = search === "" ? path : `${path}?${search}`;
  return `/login?${new URLSearchParams({ back }).toString()}`;
}

export function Header() {
  const { i18n, t } = useLingui();
  const a = useSnapshot(auth);
  const [path] = useLocation();
  const search = useSearch();
  const loggedIn = isLoggedIn(a);
  const all = navFor(platform(), loggedIn);
  // The site's own pages stay in the bar; a signed-in person's account pages gather in one menu,
  // so the bar fits one line on a laptop whatever the account area grows to.
  const items = all.filter((r) => r.navLoggedIn !== true);
  const mine = all.filter((r) => r.navLoggedIn === true);
  const s = useSnapshot(session);
  // Which account this browser acts as, when it is a sub-account (docs/product-rules.md#sub-accounts).
  const actingAs = loggedIn && s.user !== null && s.user.masterAccountId !== null ? s.user.username : null;
  const readOnly = actingAs !== null && (contextFor(window, s.user?.id ?? null)?.readOnly ?? false);
  // Another tab switched accounts: this one reloads as well.
  useEffect(() => watchContext(window), []);
  return (
    <header className={css.header}>
      <a className={css.skipLink} href="#main">
        <Trans>Skip to content</Trans>
      </a>
      <a className={css.brand} href="/" aria-label={t`Orderflow home`}>
        <span className={css.brandMark} aria-hidden="true" />
        Orderflow
      </a>
      <nav className={css.nav} aria-label={t`Main`}>
        {items.map((r) => (
          <a
            key={r.id}
            className={css.navLink}
            href={routeHref(r.path)}
            aria-current={routeMatches(r.path, path) ? "page" : undefined}
          >
            {i18n._(r.title)}
          </a>
        ))}
      </nav>
      {mine.length > 0 && <AccountMenu items={mine} path={path} />}
      <DisplayControls />
      <PaperSwitch loggedIn={loggedIn} />
      {actingAs !== null && (
        <a className={css.ghostButton} href="/subaccounts" data-testid="acting-as">
          {readOnly ? t`Acting as ${actingAs} (read-only)` : t`Acting as ${actingAs}`}
        </a>
      )}
      {loggedIn ? (
        <a className={css.ghostButton} href="/logout" data-testid="header-logout">
          <Trans>Sign out</Trans>
        </a>
      ) : (
        <>
          <a className={css.ghostButton} href="/signup" data-testid="header-signup">
            <Trans>Sign up</Trans>
          </a>
          <a className={css.button} href={loginHref(path, search)} data-testid="header-login">
            <Trans>Sign in</Trans>
          </a>
        </>
      )}
    </header>
  );
}

/** The signed-in person's pages (account, security, API keys, …) in a native disclosure menu. */
function AccountMenu({ items, path }: { readonly items: readonly RouteDef[]; readonly path: string }) {
  const { i18n } = useLingui();
  const details = useRef<HTMLDetailsElement>(null);
  useDismissable(details);
  const here = items.some((r) => routeMatches(r.path, path));
  return (
    <details ref={details} className={css.disclosure}>
      <summary className={css.ghostButton} data-testid="account-menu" aria-current={here ? "page" : undefined}>
        <Trans>My account</Trans>
      </summary>
      <nav className={css.menu} aria-label={i18n._(ACCOUNT_MENU)}>
        {items.map((r) => (
          <a
            key={r.id}
            className={css.navLink}
            href={routeHref(r.path)}
            aria-current={routeMatches(r.path, path) ? "page" : undefined}
            onClick={() => {
              if (details.current) details.current.open = false;
            }}
          >
            {i18n._(r.title)}
          </a>
        ))}
      </nav>
    </details>
  );
}

const ACCOUNT_MENU = msg`Account pages`;

/** The site's footer: the link groups of footer-links.ts, each link labelled by its route's title. */
export function Footer() {
  const { i18n, t } = useLingui();
  const year = new Date().getFullYear();
  const routes = routesFor(platform());
  const groups = FOOTER_GROUPS.map((g) => ({
    ...g,
    links: g.paths.flatMap((p) => {
      const route = routeFor(routes, p);
      return route ? [{ path: p, title: route.title }] : [];
    }),
  })).filter((g) => g.links.length > 0);
  return (
    <footer className={css.footer}>
      <nav className={css.footerNav} aria-label={t`All pages`}>
        {groups.map((g) => (
          <div key={g.id}>
            <h2 className={css.footerTitle}>{i18n._(g.title)}</h2>
            <ul className={css.footerList}>
              {g.links.map((l) => (
                <li key={l.path}>
                  <a className={css.footerLink} href={l.path}>
                    {i18n._(l.title)}
                  </a>
                </li>
              ))}
            </ul>
          </div>
        ))}
      </nav>
      <p className={css.footerNote}>
        <Trans>© {year} Orderflow. Trading digital assets carries risk.</Trans>
      </p>
    </footer>
  );
}
