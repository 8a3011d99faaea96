import { Trans } from "@lingui/react/macro";
import { get, set } from "idb-keyval";
import { useEffect, useState } from "react";
import { apiUrl, appConfig } from "../config";
import {
  CONSENT_STORAGE_KEY,
  consentValid,
  countryFromGeo,
  parseConsent,
  shouldShowBanner,
  type CookieConsent,
} from "../consent";
import { log } from "../log";
import { exchangeFetch } from "./api-notice";
import * as css from "./shell.css";

async function lookupCountry(): Promise<string | null> {
  try {
    const res = await exchangeFetch(apiUrl(appConfig().endpoints, "/v2/int/geo/ip"));
    if (!res.ok) {
      // Release the unread body: an unread response keeps the request open in the browser.
      void res.body?.cancel();
      throw new Error(`HTTP ${res.status}`);
    }
    return countryFromGeo(await res.json());
  } catch (err) {
    // A failed geo lookup is logged (docs/product-rules.md#errors); the banner then shows (the safe default).
    log.warn("geo lookup failed", err);
    return null;
  }
}

/** The cookie consent banner: necessary (always on), analytical and marketing categories. */
export function CookieBanner() {
  const [visible, setVisible] = useState(false);
  const [customizing, setCustomizing] = useState(false);
  const [analytical, setAnalytical] = useState(false);
  const [marketing, setMarketing] = useState(false);

  useEffect(() => {
    let live = true;
    void (async () => {
      const stored = parseConsent(await get(CONSENT_STORAGE_KEY).catch(() => null));
      if (stored && live) {
        setAnalytical(stored.analytical);
        setMarketing(stored.marketing);
      }
      // Ask only when there is no valid decision; the country lookup is skipped otherwise.
      if (consentValid(stored, Date.now())) return;
      const country = await lookupCountry();
      if (live) setVisible(shouldShowBanner(stored, country, Date.now()));
    })();
    return () => {
      live = false;
    };
  }, []);

  if (!visible) return null;

  const decide = (a: boolean, m: boolean): void => {
    const consent: CookieConsent = { decidedAt: Date.now(), necessary: true, analytical: a, marketing: m };
    set(CONSENT_STORAGE_KEY, consent).catch((err: unknown) => log.error("consent could not be saved", err));
    setVisible(false);
  };

  return (
    <section className={css.banner} role="dialog" aria-labelledby="cookie-title" data-testid="cookie-banner">
      <strong id="cookie-title">
        <Trans>Cookies on this site</Trans>
      </strong>
      <p>
        <Trans>
          We use necessary cookies to keep you signed in and secure. With your consent we also use analytical cookies to
          improve the site and marketing cookies to measure campaigns.
        </Trans>
      </p>
      {customizing && (
        <div className={css.bannerRow}>
          <label>
            <input type="checkbox" checked disabled /> <Trans>Necessary</Trans>
          </label>
          <label>
            <input type="checkbox" checked={analytical} onChange={(e) => setAnalytical(e.target.checked)} />{" "}
            <Trans>Analytical</Trans>
          </label>
          <label>
            <input type="checkbox" checked={marketing} onChange={(e) => setMarketing(e.target.checked)} />{" "}
            <Trans>Marketing</Trans>
          </label>
        </div>
      )}
      <div className={css.bannerRow}>
        <button type="button" className={css.button} onClick={() => decide(true, true)}>
          <Trans>Accept all</Trans>
        </button>
        <button type="button" className={css.ghostButton} onClick={() => decide(false, false)}>
          <Trans>Necessary only</Trans>
        </button>
        {customizing ? (
          <button type="button" className={css.ghostButton} onClick={() => decide(analytical, marketing)}>
            <Trans>Save my choices</Trans>
          </button>
        ) : (
          <button type="button" className={css.ghostButton} onClick={() => setCustomizing(true)}>
            <Trans>Choose</Trans>
          </button>
        )}
      </div>
    </section>
  );
}
