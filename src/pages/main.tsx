/**
 * Boot order: configuration → auth and the session lifecycle → stored settings → locale → theme →
 * first render. Settings come from IndexedDB before the first paint so a reload never flashes the
 * wrong theme or language.
 */
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { subscribeKey } from "valtio/utils";
import { localeFromSearch, negotiateLocale, variantConfig } from "../protocol";
import { initAuth } from "../ui/auth";
import { apiUrl, loadConfig } from "../ui/config";
import { activateLocale } from "../ui/i18n";
import { log } from "../ui/log";
import { syncNotificationPrefs } from "../ui/notifications/sync";
import { registerServiceWorker } from "../ui/service-worker";
import { authCall, session, startSession } from "../ui/session";
import { hydrateAndPersistSettings, settings } from "../ui/settings/store";
import { exchangeFetch } from "../ui/shell/api-notice";
import { platformStatusFrom, restoreMaintenanceDismissal, setMaintenance } from "../ui/shell/maintenance";
import { applyTheme } from "../ui/theme/theme";
import { App } from "./App";
import { followLocaleInAddress } from "./hydrate";
import { resourcesFailed } from "./page-host";

async function boot(): Promise<void> {
  const config = await loadConfig(window.location.origin);
  initAuth(window);
  // Token check, renewal, user info and the account socket (docs/product-rules.md#session-and-token).
  startSession(window);

  // The browser's language and the platform variant's display currency are the defaults; stored
  // choices override them.
  settings.locale = negotiateLocale(navigator.languages);
  const variant = variantConfig(config.platform);
  settings.total_equivalent_currency = variant.defaultCurrency;
  settings.ticker_vol_unit = variant.defaultCurrency;
  await hydrateAndPersistSettings();
  // A locale the address names (`?locale=`, docs/product-rules.md#locales) is a choice, as if made
  // in the switch: it is shown, and kept.
  const addressed = localeFromSearch(window.location.search);
  if (addressed !== null) settings.locale = addressed;
  // After the local copy: the exchange's notification preferences win once the user is known.
  syncNotificationPrefs();
  // And the other settings follow the person across devices, the change made last winning; not
  // needed for the first paint, so loaded beside it.
  void import("../ui/settings/sync")
    .then((m) => m.startSettingsSync(document, authCall, session))
    .catch((err: unknown) => log.warn("settings sync unavailable", err));

  await activateLocale(settings.locale);
  subscribeKey(settings, "locale", (locale) => {
    void activateLocale(locale);
    followLocaleInAddress(window, locale);
  });

  const dark = window.matchMedia("(prefers-color-scheme: dark)");
  const paint = (): void => {
    settings.browser_theme_mode = dark.matches ? "dark" : "light";
    applyTheme(
      document.documentElement,
      { name: settings.theme, mode: settings.theme_mode, scheme: settings.color_scheme },
      dark.matches,
    );
  };
  paint();
  dark.addEventListener("change", paint);
  subscribeKey(settings, "theme", paint);
  subscribeKey(settings, "theme_mode", paint);
  subscribeKey(settings, "color_scheme", paint);

  await restoreMaintenanceDismissal();
  exchangeFetch(apiUrl(config.endpoints, "/v2/platform/status"))
    .then((r) => (r.ok ? r.json() : r.body?.cancel().then(() => null)))
    .then((body: unknown) => {
      const active = platformStatusFrom(body);
      if (active !== null) setMaintenance(active);
    })
    .catch((err: unknown) => log.warn("platform status unavailable", err));

  const root = document.getElementById("root");
  if (!root) throw new Error("#root missing from index.html");
  const app = (
    <StrictMode>
      <App />
    </StrictMode>
  );
  // The prerendered HTML of a public page (for search engines, link previews and readers without
  // JavaScript) is replaced by the app's own render, not hydrated: the app's first render differs
  // from the build's in too many states (maintenance, a platform variant, developer flags, a
  // redirect to sign in) for a mismatch-free hydration yet (hydrate.ts).
  createRoot(root).render(app);

  if (import.meta.env.PROD) {
    void registerServiceWorker({
      location: window.location,
      container: "serviceWorker" in navigator ? navigator.serviceWorker : undefined,
      onEvent: (e) => {
        log.info("service worker", e);
        // On an update, reload if resources failed (the old build's chunks are gone).
        if (e === "updated" && resourcesFailed()) window.location.reload();
      },
    });
  }
}

void boot();
