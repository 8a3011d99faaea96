import { useLingui } from "@lingui/react/macro";
import { useSnapshot } from "valtio";
import { isLocale, LOCALE_NAMES, LOCALES } from "../../protocol";
import { settings, updateSetting } from "../settings/store";
import { THEME_MODES, THEME_NAMES } from "../theme/theme";
import { MODE_LABELS, THEME_LABELS } from "./labels";
import * as css from "./shell.css";

/** Language, theme and mode switchers shown in the header on every page. */
export function DisplayControls() {
  const { t, i18n } = useLingui();
  const s = useSnapshot(settings);
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
      <label>
        <span className={css.visuallyHidden}>{t`Theme`}</span>
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
      <label>
        <span className={css.visuallyHidden}>{t`Mode`}</span>
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
    </div>
  );
}
