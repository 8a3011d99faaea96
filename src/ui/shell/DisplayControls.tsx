import { Trans, useLingui } from "@lingui/react/macro";
import { useRef } from "react";
import { useDismissable } from "./dismiss";
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

  useDismissable(details);

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
