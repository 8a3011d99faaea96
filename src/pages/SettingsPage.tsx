import { msg } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { useState, type ReactNode } from "react";
import { useSnapshot } from "valtio";
import { intlTag } from "../ui/i18n";
import { CANDLE_TIMEFRAMES, NUMBER_BOUNDS, type SettingKey, type UserSettings } from "../ui/settings/schema";
import { settings, updateSetting } from "../ui/settings/store";
import { LocaleSelect, ModeSelect, SchemeSelect, SettingSelect, ThemeSelect } from "../ui/shell/SettingSelect";
import { TimeFormatSelect, UtcOffsetSelect } from "../ui/time/TimeSettings";
import * as css from "./pages.css";

const SIDES = ["left", "right"] as const;
const SIDE_LABELS = { left: msg`Left`, right: msg`Right` };
/** The chart's own timeframe buttons read the same codes. */
const TIMEFRAME_LABELS = Object.fromEntries(CANDLE_TIMEFRAMES.map((tf) => [tf, tf]));

function Row({ label, children }: { readonly label: ReactNode; readonly children: ReactNode }) {
  return (
    <label className={css.settingRow}>
      <span>{label}</span>
      {children}
    </label>
  );
}

/** The settings whose value is a number. */
type NumberSettingKey = { [K in SettingKey]: UserSettings[K] extends number ? K : never }[SettingKey];

/** A number setting: the value is kept only when it is inside its bound; otherwise we say why. */
function NumberSetting({ name, step = 1 }: { readonly name: NumberSettingKey; readonly step?: number }) {
  const { t } = useLingui();
  const s = useSnapshot(settings);
  const [draft, setDraft] = useState<string | null>(null);
  const bound = NUMBER_BOUNDS[name];
  const value = s[name];
  const refused = draft !== null;
  const min = bound?.min;
  const max = bound?.max;
  return (
    <span className={css.field}>
      <input
        className={css.input}
        type="number"
        step={step}
        min={min}
        max={max}
        data-testid={`setting-${name}`}
        aria-invalid={refused}
        value={draft ?? String(value)}
        onChange={(e) => {
          const n = e.target.value === "" ? Number.NaN : Number(e.target.value);
          setDraft(updateSetting(name, n) ? null : e.target.value);
        }}
        onBlur={() => setDraft(null)}
      />
      {refused && bound && (
        <span className={css.fieldError} role="alert">
          {t`Must be between ${min} and ${max}; the saved value is kept.`}
        </span>
      )}
    </span>
  );
}

function Toggle({ name }: { readonly name: SettingKey }) {
  const s = useSnapshot(settings);
  return (
    <input
      type="checkbox"
      data-testid={`setting-${name}`}
      checked={s[name] === true}
      onChange={(e) => updateSetting(name, e.target.checked)}
    />
  );
}

/** The interface settings page (/interface): the basic display and notification settings. */
export function SettingsPage() {
  const s = useSnapshot(settings);
  const SAMPLE = new Intl.NumberFormat(intlTag(s.locale), { minimumFractionDigits: 1, maximumFractionDigits: 1 });
  return (
    <section>
      <h1 className={css.h1}>
        <Trans>Interface settings</Trans>
      </h1>
      <p className={css.muted}>
        <Trans>
          Changes are saved as you make them. While you are signed in they follow you to your other devices; when two
          devices change the same setting, the later change wins.
        </Trans>
      </p>
      <h2 className={css.h2}>
        <Trans>Display</Trans>
      </h2>
      <div className={css.settingsGrid}>
        <Row label={<Trans>Language</Trans>}>
          <LocaleSelect />
        </Row>
        <Row label={<Trans>Theme</Trans>}>
          <ThemeSelect />
        </Row>
        <Row label={<Trans>Mode</Trans>}>
          <ModeSelect />
        </Row>
        <Row label={<Trans>Price colours</Trans>}>
          <SchemeSelect testId="scheme-select" />
        </Row>
        <div className={css.swatches} aria-hidden="true">
          <span className={css.up}>▲ {SAMPLE.format(27310.5)}</span>
          <span className={css.down}>▼ {SAMPLE.format(27288)}</span>
        </div>
        <Row label={<Trans>Sidebar side</Trans>}>
          <SettingSelect name="sidebar_side" options={SIDES} labels={SIDE_LABELS} />
        </Row>
        <Row label={<Trans>Date and time</Trans>}>
          <TimeFormatSelect className={css.input} />
        </Row>
        <Row label={<Trans>Time zone</Trans>}>
          <UtcOffsetSelect className={css.input} />
        </Row>
      </div>
      <h2 className={css.h2}>
        <Trans>Trading</Trans>
      </h2>
      <div className={css.settingsGrid}>
        <Row label={<Trans>Book refresh interval (ms)</Trans>}>
          <NumberSetting name="book_throttle_ms" step={50} />
        </Row>
        <Row label={<Trans>Compact numbers in the book</Trans>}>
          <Toggle name="book_compact_numbers" />
        </Row>
        <Row label={<Trans>Chart height (px)</Trans>}>
          <NumberSetting name="chart_height" step={5} />
        </Row>
        <Row label={<Trans>Orders shown per table</Trans>}>
          <NumberSetting name="orders_display_limit" />
        </Row>
        <Row label={<Trans>Derivatives leverage</Trans>}>
          <NumberSetting name="derivative_leverage" />
        </Row>
        <Row label={<Trans>Keep the amount after placing an order</Trans>}>
          <Toggle name="order_form_keep_amount" />
        </Row>
        <Row label={<Trans>Hide small balances</Trans>}>
          <Toggle name="hide_small_balances" />
        </Row>
        <Row label={<Trans>Small balance threshold</Trans>}>
          <NumberSetting name="small_balances_threshold" step={0.00001} />
        </Row>
      </div>
      <h2 className={css.h2}>
        <Trans>Chart</Trans>
      </h2>
      <div className={css.settingsGrid}>
        <Row label={<Trans>Timeframe of a new chart</Trans>}>
          <SettingSelect name="chart_interval" options={CANDLE_TIMEFRAMES} labels={TIMEFRAME_LABELS} />
        </Row>
        <Row label={<Trans>Show my orders on the chart</Trans>}>
          <Toggle name="show_chart_orders" />
        </Row>
        <Row label={<Trans>Show my positions on the chart</Trans>}>
          <Toggle name="show_chart_positions" />
        </Row>
        <Row label={<Trans>Show my price alerts on the chart</Trans>}>
          <Toggle name="show_chart_alerts" />
        </Row>
        <Row label={<Trans>Show liquidations on the chart</Trans>}>
          <Toggle name="show_liquidations" />
        </Row>
      </div>
      <h2 className={css.h2}>
        <Trans>Notifications</Trans>
      </h2>
      {/* The notification switches live on the notifications page, which also stores them on the
          exchange (it reads the e-mail ones, and another device gets them): one place, one copy. */}
      <p className={css.muted}>
        <Trans>
          Which notifications you get, their sound and the e-mails we send are set on the{" "}
          <a href="/notifications">notifications page</a>.
        </Trans>
      </p>
    </section>
  );
}
