import { Trans, useLingui } from "@lingui/react/macro";
import { useEffect, useRef } from "react";
import { LocaleSelect, ModeSelect, SchemeSelect, ThemeSelect } from "./SettingSelect";
import * as css from "./shell.css";

/**
 * Language switcher and a "Display" disclosure with theme, mode and price colours, shown in the
 * header on every page. The disclosure is a native <details>, so it works with keyboard and screen
 * readers; it closes on Escape and on a click outside.
 */
export function DisplayControls() {
  const { t } = useLingui();
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
        <LocaleSelect testId="locale-select" />
      </label>
      <details ref={details} className={css.disclosure}>
        <summary className={css.ghostButton} data-testid="display-menu">
          <Trans>Display</Trans>
        </summary>
        <div className={css.popover}>
          <label className={css.popoverRow}>
            <span>{t`Theme`}</span>
            <ThemeSelect testId="theme-select" />
          </label>
          <label className={css.popoverRow}>
            <span>{t`Mode`}</span>
            <ModeSelect testId="mode-select" />
          </label>
          <label className={css.popoverRow}>
            <span>{t`Price colours`}</span>
            <SchemeSelect testId="header-scheme-select" />
          </label>
        </div>
      </details>
    </div>
  );
}
