import { Trans, useLingui } from "@lingui/react/macro";
import { useSnapshot } from "valtio";
import { useLocation, useSearch } from "wouter";
import { auth, isLoggedIn } from "../ui/auth";
import { platform } from "../ui/config";
import { DisplayControls } from "../ui/shell/DisplayControls";
import * as css from "../ui/shell/shell.css";
import { navFor } from "./routes";

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
  const items = navFor(platform(), loggedIn);
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
          <a key={r.id} className={css.navLink} href={r.path} aria-current={path === r.path ? "page" : undefined}>
            {i18n._(r.title)}
          </a>
        ))}
      </nav>
      <DisplayControls />
      {loggedIn ? (
        <a className={css.ghostButton} href="/logout" data-testid="header-logout">
          <Trans>Sign out</Trans>
        </a>
      ) : (
        <a className={css.button} href={loginHref(path, search)} data-testid="header-login">
          <Trans>Sign in</Trans>
        </a>
      )}
    </header>
  );
}

export function Footer() {
  const year = new Date().getFullYear();
  return (
    <footer className={css.footer}>
      <span>
        <Trans>© {year} Orderflow. Trading digital assets carries risk.</Trans>
      </span>
      <span>
        <a href="/about">
          <Trans>About</Trans>
        </a>{" "}
        ·{" "}
        <a href="/freeze">
          <Trans>Freeze account</Trans>
        </a>
      </span>
    </footer>
  );
}
