import { useLingui } from "@lingui/react/macro";
import { useEffect, useState, type ComponentType } from "react";
import { loadCatalog } from "../ui/i18n";
import { appScheduler } from "../ui/scheduler";
import { log } from "../ui/log";
import { DELAYED_LOAD_EVENT, watchDelayedLoad } from "../ui/routing/page-data";
import { announce } from "../ui/shell/announcer";
import * as shell from "../ui/shell/shell.css";
import { ErrorPage } from "./ErrorPage";
import { ErrorStatus } from "./ErrorStatus";
import { NotFoundPage } from "./NotFoundPage";
import { forgetPageData, noteResourceFailure, pageDataFor, readyPage } from "./page-host";
import type { RouteDef } from "./routes";

type State =
  | { readonly status: "loading" }
  | { readonly status: "ready"; readonly Page: ComponentType }
  | { readonly status: "not-found" }
  | { readonly status: "server-error" }
  | { readonly status: "error" };

const STALE_RELOAD_KEY = "stale-build-reload";

let initialPage = true;

/** Sets the document title and, after in-app navigations, announces the new page. */
export function usePageTitle(title: string | null): void {
  const { t } = useLingui();
  useEffect(() => {
    if (title === null) return;
    document.title = [title, "Orderflow"].join(" · ");
    if (initialPage) initialPage = false;
    else announce(t`Navigated to ${title}`);
  }, [title, t]);
}

/**
 * Loads a route's chunk and page data, then shows it: 404 → not-found page, 500 → error page,
 * repeated failures → an error status with a retry. A load over 1 s shows progress and raises the
 * delayed-load event. Keyed by path in the router, so each path starts from "loading".
 */
export function PageHost({ def, path }: { readonly def: RouteDef; readonly path: string }) {
  const { i18n, t } = useLingui();
  // A page made ready before the first render (a prerendered page being hydrated) shows at once.
  const [state, setState] = useState<State>(() => {
    const Page = readyPage(def.id);
    return Page ? { status: "ready", Page } : { status: "loading" };
  });
  const [delayed, setDelayed] = useState(false);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let live = true;
    const work = Promise.all([
      def.load(),
      def.pageData ? pageDataFor(path) : Promise.resolve(null),
      def.catalog ? loadCatalog(def.catalog) : null,
    ]);
    watchDelayedLoad(work, appScheduler, () => {
      if (!live) return;
      setDelayed(true);
      window.dispatchEvent(new CustomEvent(DELAYED_LOAD_EVENT, { detail: { path } }));
    })
      .then(([Page, data]) => {
        if (!live) return;
        if (data === null || data.status === "ok") {
          if (
            data !== null &&
            data.data.build !== __BUILD_ID__ &&
            sessionStorage.getItem(STALE_RELOAD_KEY) !== data.data.build
          ) {
            // The server runs a newer build than this tab: reload once to pick it up.
            sessionStorage.setItem(STALE_RELOAD_KEY, data.data.build);
            window.location.reload();
            return;
          }
          setState({ status: "ready", Page });
        } else {
          setState({ status: data.status });
        }
      })
      .catch((err: unknown) => {
        log.error("page chunk failed to load", err);
        noteResourceFailure();
        if (live) setState({ status: "error" });
      });
    return () => {
      live = false;
    };
  }, [def, path, attempt]);

  const title =
    state.status === "ready"
      ? i18n._(def.title)
      : state.status === "not-found"
        ? t`Page not found`
        : state.status === "server-error"
          ? t`Something went wrong`
          : state.status === "error"
            ? t`This page could not be loaded`
            : null;
  usePageTitle(title);

  switch (state.status) {
    case "loading":
      return delayed ? <div className={shell.progress} role="progressbar" aria-label={t`Loading`} /> : null;
    case "ready": {
      const Page = state.Page;
      return <Page />;
    }
    case "not-found":
      return <NotFoundPage />;
    case "server-error":
      return <ErrorPage />;
    case "error":
      return (
        <ErrorStatus
          onRetry={() => {
            forgetPageData(path);
            setState({ status: "loading" });
            setDelayed(false);
            setAttempt((n) => n + 1);
          }}
        />
      );
    default: {
      const never: never = state;
      return never;
    }
  }
}

/** The 404 page for paths no route matches. */
export function UnknownPath() {
  const { t } = useLingui();
  usePageTitle(t`Page not found`);
  return <NotFoundPage />;
}
