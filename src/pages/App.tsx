import { I18nProvider } from "@lingui/react";
import { useEffect, useMemo } from "react";
import { useSnapshot } from "valtio";
import { Redirect, Route, Router, Switch, useLocation, useRouter } from "wouter";
import { useBrowserLocation, type BrowserLocationHook } from "wouter/use-browser-location";
import { auth, isLoggedIn } from "../ui/auth";
import { platform } from "../ui/config";
import { i18n } from "../ui/i18n";
import { decideAccess, normalizePath } from "../ui/routing/paths";
import { Announcer } from "../ui/shell/Announcer";
import { RequiredLevelDialog } from "../ui/account/RequiredLevelDialog";
import { DemoBlockHost, PaperBanner } from "../ui/paper";
import { ApiNotice } from "../ui/shell/ApiNotice";
import { DevFlagsHost } from "../ui/dev/DevFlagsPanel";
import { CookieBanner } from "../ui/shell/CookieBanner";
import { installLeaveGuard } from "../ui/shell/leave-guard";
import { LeaveQuestion } from "../ui/shell/LeaveQuestion";
import { MaintenanceNotice } from "../ui/shell/MaintenanceNotice";
import * as css from "../ui/shell/shell.css";
import { ErrorBoundary } from "./ErrorBoundary";
import { Footer, Header } from "./Header";
import { installLinkInterception, installPrefetch } from "./navigation";
import { PageHost, UnknownPath } from "./PageHost";
import { routesFor } from "./routes";

/** Wouter's browser location with the product's path rules: trailing slash and /index.html tolerated. */
const useNormalizedLocation: BrowserLocationHook = (options) => {
  const [path, navigate] = useBrowserLocation(options);
  return [normalizePath(path), navigate];
};

/** Where the app renders outside a browser: the build's prerender of a public page (src/pages/prerender.tsx). */
export interface ServerLocation {
  readonly path: string;
  readonly search: string;
}

function Shell({ at }: { readonly at: ServerLocation | undefined }) {
  const a = useSnapshot(auth);
  const [path] = useLocation();
  const { parser } = useRouter();
  const routes = useMemo(() => routesFor(platform()), []);

  useEffect(() => installLinkInterception(document), []);
  useEffect(() => installLeaveGuard(window), []);
  useEffect(() => installPrefetch(document, routes, parser), [routes, parser]);

  // At build time there is no window; the prerendered pages are public, so the origin is moot.
  const access = at
    ? decideAccess(`${at.path}${at.search}`, "http://prerender.invalid", false)
    : decideAccess(window.location.href, window.location.origin, isLoggedIn(a));

  return (
    <div className={css.layout}>
      <MaintenanceNotice />
      <ApiNotice />
      <Header />
      <PaperBanner />
      <main id="main" className={css.main} tabIndex={-1}>
        <ErrorBoundary resetKey={path}>
          {access.kind === "redirect" ? (
            <Redirect to={access.to} replace />
          ) : (
            <Switch>
              {routes.map((def) => (
                <Route key={def.id} path={def.path}>
                  {/* Static pages start fresh per path; a page without page data (the desk) stays
                      mounted across its own paths, so switching pair keeps the desk and its sockets. */}
                  <PageHost key={def.pageData ? path : def.id} def={def} path={path} />
                </Route>
              ))}
              <Route>
                <UnknownPath />
              </Route>
            </Switch>
          )}
        </ErrorBoundary>
      </main>
      <Footer />
      <RequiredLevelDialog />
      <DemoBlockHost />
      <LeaveQuestion />
      <CookieBanner />
      <DevFlagsHost />
      <Announcer />
    </div>
  );
}

export function App({ at }: { readonly at?: ServerLocation }) {
  return (
    <I18nProvider i18n={i18n}>
      <Router hook={useNormalizedLocation} {...(at ? { ssrPath: at.path, ssrSearch: at.search } : {})}>
        <Shell at={at} />
      </Router>
    </I18nProvider>
  );
}
