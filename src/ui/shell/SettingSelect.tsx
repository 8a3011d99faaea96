import type { MessageDescriptor } from "@lingui/core";
import { useLingui } from "@lingui/react/macro";
import { useSnapshot } from "valtio";
import { LOCALE_NAMES, LOCALES } from "../../protocol";
import type { SettingKey, UserSettings } from "../settings/schema";
import { settings, updateSetting } from "../settings/store";
import { COLOR_SCHEMES, THEME_MODES, THEME_NAMES } from "../theme/theme";
import { MODE_LABELS, SCHEME_LABELS, THEME_LABELS } from "./labels";
import * as css from "./shell.css";

/** The settings whose value is a string, the only ones a select can show. */
type StringSettingKey = { [K in SettingKey]: UserSettings[K] extends string ? K : never }[SettingKey];

interface SettingSelectProps {
  readonly name: StringSettingKey;
  readonly options: readonly string[];
  /** A localized label per option; a plain string is shown as it is (locale endonyms). */
  readonly labels: Readonly<Record<string, MessageDescriptor | string>>;
  readonly testId?: string;
}

/** A select bound to one user setting; the store's bounds decide what is kept. */
export function SettingSelect({ name, options, labels, testId }: SettingSelectProps) {
  const { i18n } = useLingui();
  const s = useSnapshot(settings);
  return (
    <select
      className={css.select}
      data-testid={testId}
      value={s[name]}
      onChange={(e) => updateSetting(name, e.target.value)}
    >
      {options.map((o) => {
        const label = labels[o] ?? o;
        return (
          <option key={o} value={o} lang={name === "locale" ? o : undefined}>
            {typeof label === "string" ? label : i18n._(label)}
          </option>
        );
      })}
    </select>
  );
}

export const LocaleSelect = ({ testId }: { readonly testId?: string }) => (
  <SettingSelect name="locale" options={LOCALES} labels={LOCALE_NAMES} {...(testId ? { testId } : {})} />
);
export const ThemeSelect = ({ testId }: { readonly testId?: string }) => (
  <SettingSelect name="theme" options={THEME_NAMES} labels={THEME_LABELS} {...(testId ? { testId } : {})} />
);
export const ModeSelect = ({ testId }: { readonly testId?: string }) => (
  <SettingSelect name="theme_mode" options={THEME_MODES} labels={MODE_LABELS} {...(testId ? { testId } : {})} />
);
export const SchemeSelect = ({ testId }: { readonly testId?: string }) => (
  <SettingSelect name="color_scheme" options={COLOR_SCHEMES} labels={SCHEME_LABELS} {...(testId ? { testId } : {})} />
);
