/**
 * The first render of a prerendered page (docs/product-rules.md#public-pages). The build rendered
 * the page in one locale for a visitor; the app hydrates that HTML when its own first render will be
 * the same: the locale shown is the prerendered one, the person is not signed in (the header
 * differs otherwise) and the display settings the header shows are the defaults. Either way the page's chunk, catalog and page data are loaded first, so the
 * first render shows the page and not a loading state.
 */
import { LOCALE_PARAM, type Locale } from "../protocol";
import { platform } from "../ui/config";
import { loadCatalog } from "../ui/i18n";
import { log } from "../ui/log";
import { normalizePath } from "../ui/routing/paths";
import { DEFAULT_SETTINGS, type UserSettings } from "../ui/settings/schema";
import { markPageReady, pageDataFor } from "./page-host";
import { routeFor } from "./published";
import { routesFor } from "./routes";

/** Makes the current address's page ready before the first render; false when it cannot be. */
async function preparePage(path: string): Promise<boolean> {
  const def = routeFor(routesFor(platform()), path);
  // No route: the not-found page, which needs nothing loaded.
  if (!def) return true;
  try {
    const [Page, data] = await Promise.all([
      def.load(),
      def.pageData ? pageDataFor(path) : null,
      def.catalog ? loadCatalog(def.catalog) : null,
    ]);
    // A failed page data load is PageHost's to show (not found, error page, retry).
    if (data !== null && data.status !== "ok") return false;
    markPageReady(def.id, Page);
    return true;
  } catch (err) {
    log.warn("page could not be prepared before the first render", err);
    return false;
  }
}

/**
 * Whether to hydrate the HTML in `root` (else it is rendered afresh). Loads the page first in both
 * cases.
 */
export async function shouldHydrate(
  root: HTMLElement,
  loc: Location,
  locale: Locale,
  loggedIn: boolean,
  shown: Pick<UserSettings, "theme" | "theme_mode" | "color_scheme">,
): Promise<boolean> {
  const path = normalizePath(loc.pathname);
  const ready = await preparePage(path);
  const prerendered = root.dataset["prerendered"];
  if (prerendered === undefined) return false;
  // The not-found page was rendered at a path of its own: it matches any path no route matches.
  const samePage = root.dataset["path"] === path || routeFor(routesFor(platform()), path) === undefined;
  // The header's display selects show the defaults the build rendered with; hydrating them with other
  // values would leave the selects showing the defaults.
  const displayDefaults =
    shown.theme === DEFAULT_SETTINGS.theme &&
    shown.theme_mode === DEFAULT_SETTINGS.theme_mode &&
    shown.color_scheme === DEFAULT_SETTINGS.color_scheme;
  return ready && samePage && prerendered === locale && !loggedIn && displayDefaults;
}

/**
 * Keeps a `?locale=` in the address in step with the language shown: after a switch, a reload or a
 * shared link shows the language chosen, not the one the address was opened with.
 */
export function followLocaleInAddress(win: Window, locale: Locale): void {
  const url = new URL(win.location.href);
  if (!url.searchParams.has(LOCALE_PARAM)) return;
  url.searchParams.set(LOCALE_PARAM, locale);
  win.history.replaceState(win.history.state, "", url);
}
