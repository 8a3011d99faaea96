/**
 * The address's locale after the first render (docs/product-rules.md#public-pages). A prerendered
 * public page is replaced by the app's render rather than hydrated (src/pages/main.tsx says why).
 */
import { LOCALE_PARAM, type Locale } from "../protocol";

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
