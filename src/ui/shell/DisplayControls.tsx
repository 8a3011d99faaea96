import { Trans, useLingui } from "@lingui/react/macro";
import { useEffect, useRef } from "react";
import { useSnapshot } from "valtio";
import { isLocale, LOCALE_NAMES, LOCALES } from "../../protocol";
import { settings, updateSetting } from "../settings/store";
import { COLOR_SCHEMES, THEME_MODES, THEME_NAMES } from "../theme/theme";
import { MODE_LABELS, SCHEME_LABELS, THEME_LABELS } from "./labels";
import * as css from "./shell.css";

/**
 * Language switcher and a "Display" disclosure with theme, mode and price colours, shown in the
 * header on every page. The disclosure is a native <details>, so it works with keyboard and screen
 * readers; it closes on Escape and on a click outside.
 */
export function DisplayControls() {
  const { t, i18n } = useLingui();
  const s = useSnapshot(settings);
  const details = useRef<HTMLDetailsElement>(null);

  useEffect(() => {
    const close = (e: Event): void => {
      const el = details.current;
      if (!el?.open) return;
      if (e instanceof KeyboardEvent ? e.key === "Escape" : !el.contains(e.target as Node)) el.open = false;
    };
    document.addEventListener("pointerdown", close);
    document.addEventListener("keydown", close);
    return () => {
      document.removeEventListener("pointerdown", close);
      document.removeEventListener("keydown", close);
    };
  }, []);

  return (
    <div className={css.controls}>
      <label>
        <span className={css.visuallyHidden}>{t`Language`}</span>
        <select
          className={css.select}
          data-testid="locale-select"
          value={s.locale}
          onChange={(e) => {
            if (isLocale(e.target.value)) updateSetting("locale", e.target.value);
          }}
        >
          {LOCALES.map((l) => (
            <option key={l} value={l} lang={l}>
              {LOCALE_NAMES[l]}
            </option>
          ))}
        </select>
      </label>
      <details ref={details} className={css.disclosure}>
        <summary className={css.ghostButton} data-testid="display-menu">
          <Trans>Display</Trans>
        </summary>
        <div className={css.popover}>
          <label className={css.popoverRow}>
            <span>{t`Theme`}</span>
            <select
              className={css.select}
              data-testid="theme-select"
              value={s.theme}
              onChange={(e) => updateSetting("theme", e.target.value)}
            >
              {THEME_NAMES.map((name) => (
                <option key={name} value={name}>
                  {i18n._(THEME_LABELS[name])}
                </option>
              ))}
            </select>
          </label>
          <label className={css.popoverRow}>
            <span>{t`Mode`}</span>
            <select
              className={css.select}
              data-testid="mode-select"
              value={s.theme_mode}
              onChange={(e) => updateSetting("theme_mode", e.target.value)}
            >
              {THEME_MODES.map((mode) => (
                <option key={mode} value={mode}>
                  {i18n._(MODE_LABELS[mode])}
                </option>
              ))}
            </select>
          </label>
          <label className={css.popoverRow}>
            <span>{t`Price colours`}</span>
            <select
              className={css.select}
              data-testid="header-scheme-select"
              value={s.color_scheme}
              onChange={(e) => updateSetting("color_scheme", e.target.value)}
            >
              {COLOR_SCHEMES.map((c) => (
                <option key={c} value={c}>
                  {i18n._(SCHEME_LABELS[c])}
                </option>
              ))}
            </select>
          </label>
        </div>
      </details>
    </div>
  );
}
