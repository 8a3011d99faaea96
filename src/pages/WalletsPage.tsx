import { Trans, useLingui } from "@lingui/react/macro";
import { useEffect, useId, useMemo, useState, type FormEvent } from "react";
import { useSnapshot } from "valtio";
import { CURRENCY_LABELS_KEY, decodeCurrencyLabels, FIAT_CURRENCIES, type AccountView } from "../protocol";
import { Modal } from "../ui/api-keys";
import { ConversionDialog, convertRowAction, isConvertibleWallet, type ConversionStart } from "../ui/conversions";
import { accountStore } from "../ui/desk/account-store";
import { unitDecimals, valuationUnit } from "../ui/desk/bitcoin-view";
import { log } from "../ui/log";
import { useRates, valueIn } from "../ui/rates";
import { openingHttp } from "../ui/session";
import { settings, updateSetting } from "../ui/settings/store";
import { accountTotals, EQUIVALENT_CURRENCIES, positionQuote, walletRows } from "../ui/wallets/model";
import { TransferDialog } from "../ui/wallets/TransferDialog";
import { useWalletName } from "../ui/wallets/words";
import * as css from "./pages.css";
import * as w from "./wallets.css";

const FIAT: ReadonlySet<string> = new Set(FIAT_CURRENCIES);

/** Currency names: the exchange's labels (`pub:map:currency:label`), fiat in the reader's language. */
function useCurrencyNames(): (code: string) => string {
  const { i18n } = useLingui();
  const [labels, setLabels] = useState<ReadonlyMap<string, string>>(new Map());
  useEffect(() => {
    let live = true;
    openingHttp()({ method: "GET", path: `/v2/conf/${CURRENCY_LABELS_KEY}` }).then(
      (r) => live && r.status === 200 && setLabels(decodeCurrencyLabels(r.body)),
      (err: unknown) => log.warn("currency labels failed", err),
    );
    return () => {
      live = false;
    };
  }, []);
  const display = useMemo(() => {
    try {
      return new Intl.DisplayNames([i18n.locale], { type: "currency" });
    } catch {
      return null;
    }
  }, [i18n.locale]);
  return (code) => (FIAT.has(code) ? display?.of(code) : undefined) ?? labels.get(code) ?? code;
}

function useFormat() {
  const { i18n } = useLingui();
  return {
    amount: (n: number): string => i18n.number(n, { maximumFractionDigits: 8 }),
    value: (n: number, unit: string): string =>
      Number.isNaN(n)
        ? "—"
        : i18n.number(n, { minimumFractionDigits: unitDecimals(unit), maximumFractionDigits: unitDecimals(unit) }),
  };
}

export function WalletsPage() {
  const account = useSnapshot(accountStore);
  const view = account.view;
  return (
    <div className={w.page}>
      <h1 className={css.h1}>
        <Trans>Wallets</Trans>
      </h1>
      <p className={css.lead}>
        <Trans>Every wallet of your account with what it is worth, and transfers between them.</Trans>
      </p>
      {account.link === "failed" ? (
        <p className={css.alert} role="alert">
          <Trans>Your account could not be reached. Sign in again to see your wallets.</Trans>
        </p>
      ) : view === null ? (
        <p className={css.muted} data-testid="wallets-loading">
          <Trans>Loading your wallets…</Trans>
        </p>
      ) : (
        <Wallets view={view} />
      )}
    </div>
  );
}

function Wallets({ view }: { readonly view: AccountView }) {
  const { t } = useLingui();
  const s = useSnapshot(settings);
  const names = useCurrencyNames();
  const walletName = useWalletName();
  const fmt = useFormat();
  const [dialog, setDialog] = useState<"settings" | "transfer" | null>(null);
  const [conversion, setConversion] = useState<ConversionStart | null>(null);
  const unit = valuationUnit(s);
  // Every wallet's currency, USD (the exchange's totals) and the positions' quote currencies (their P/L).
  const currencies = useMemo(
    () => [
      ...view.wallets.map((x) => x.currency),
      "USD",
      ...view.positions.flatMap((p) => positionQuote(p.pair) ?? []),
    ],
    [view.wallets, view.positions],
  );
  const rates = useRates(currencies, unit);
  const rows = useMemo(
    () => walletRows(view.wallets, s.hide_small_balances, s.small_balances_threshold),
    [view.wallets, s.hide_small_balances, s.small_balances_threshold],
  );
  const hidden = view.wallets.length - rows.length;
  const threshold = s.small_balances_threshold;
  const { aum, aumNet } = accountTotals(view, (currency, amount) => valueIn(rates, currency, amount, unit));
  return (
    <>
      <div className={w.toolbar}>
        <label className={css.field}>
          <span>
            <Trans>Show values in</Trans>
          </span>
          <select
            className={w.select}
            data-testid="equivalent-currency"
            value={s.total_equivalent_currency}
            disabled={s.bitcoin_view_enabled}
            onChange={(e) => updateSetting("total_equivalent_currency", e.currentTarget.value)}
          >
            {EQUIVALENT_CURRENCIES.map((c) => (
              <option key={c} value={c}>
                {c} — {names(c)}
              </option>
            ))}
          </select>
        </label>
        <button
          type="button"
          className={w.ghost}
          aria-pressed={s.bitcoin_view_enabled}
          data-testid="wallets-bitcoin-view"
          onClick={() => updateSetting("bitcoin_view_enabled", !settings.bitcoin_view_enabled)}
        >
          <Trans>Bitcoin view</Trans>
        </button>
        <span className={w.spacer} />
        <button type="button" className={w.ghost} onClick={() => setDialog("settings")}>
          <Trans>Wallet settings</Trans>
        </button>
        <button
          type="button"
          className={w.ghost}
          data-testid="open-conversion"
          onClick={() => setConversion({ from: null, wallet: null })}
        >
          <Trans>Convert</Trans>
        </button>
        <button type="button" className={w.button} data-testid="open-transfer" onClick={() => setDialog("transfer")}>
          <Trans>Transfer</Trans>
        </button>
      </div>
      <div className={w.totals}>
        <section className={w.total} aria-label={t`Total assets`} data-testid="wallets-aum">
          <span className={w.totalLabel}>
            <Trans>Total assets (AUM)</Trans>
          </span>
          <p className={w.totalValue}>
            {fmt.value(aum, unit)} {unit}
          </p>
        </section>
        <section className={w.total} aria-label={t`Net assets`} data-testid="wallets-aum-net">
          <span className={w.totalLabel}>
            <Trans>Net assets, with open positions' profit and loss (AUMNet)</Trans>
          </span>
          <p className={w.totalValue}>
            {fmt.value(aumNet, unit)} {unit}
          </p>
        </section>
      </div>
      <div className={w.scroll} tabIndex={0} role="region" aria-label={t`Balances in every wallet`}>
        <table className={w.table} data-testid="wallets-table">
          <caption className={w.caption}>
            {hidden > 0 ? (
              <Trans>
                Balances in every wallet ({hidden} small balances hidden, below {threshold})
              </Trans>
            ) : (
              <Trans>Balances in every wallet</Trans>
            )}
          </caption>
          <thead>
            <tr>
              <th className={w.th} scope="col">
                <Trans>Currency</Trans>
              </th>
              <th className={w.th} scope="col">
                <Trans>Wallet</Trans>
              </th>
              <th className={`${w.th} ${w.num}`} scope="col">
                <Trans>Balance</Trans>
              </th>
              <th className={`${w.th} ${w.num}`} scope="col">
                <Trans>Available</Trans>
              </th>
              <th className={`${w.th} ${w.num}`} scope="col">
                <Trans>Unsettled interest</Trans>
              </th>
              <th className={`${w.th} ${w.num}`} scope="col">
                <Trans>Value ({unit})</Trans>
              </th>
              <th className={w.th} scope="col">
                <Trans>Actions</Trans>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.length === 0 && (
              <tr>
                <td className={w.td} colSpan={7}>
                  <Trans>No balances to show.</Trans>
                </td>
              </tr>
            )}
            {rows.map((x) => (
              <tr key={`${x.type}:${x.currency}`} data-testid={`wallet-${x.type}-${x.currency}`}>
                <th className={`${w.td} ${w.rowHead}`} scope="row">
                  <span className={w.ccy}>
                    <strong>{x.currency}</strong>
                    <span className={w.ccyName}>{names(x.currency)}</span>
                  </span>
                </th>
                <td className={w.td}>{walletName(x.type)}</td>
                <td className={`${w.td} ${w.num}`} data-column="balance">
                  {fmt.amount(x.balance)}
                </td>
                <td className={`${w.td} ${w.num}`} data-column="available">
                  {fmt.amount(x.available)}
                </td>
                <td className={`${w.td} ${w.num}`} data-column="interest">
                  {x.interest === null ? "—" : fmt.amount(x.interest)}
                </td>
                <td className={`${w.td} ${w.num}`} data-column="value">
                  {fmt.value(valueIn(rates, x.currency, x.balance, unit), unit)}
                </td>
                <td className={w.td}>
                  {isConvertibleWallet(x) && x.available > 0 && (
                    <button
                      type="button"
                      className={convertRowAction}
                      onClick={() => setConversion({ from: x.currency, wallet: x.type })}
                    >
                      <Trans>Convert</Trans>
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <Modal
        open={dialog === "settings"}
        title={<Trans>Wallet settings</Trans>}
        onClose={() => setDialog(null)}
        testId="wallets-settings"
      >
        <SettingsForm onDone={() => setDialog(null)} />
      </Modal>
      <TransferDialog open={dialog === "transfer"} wallets={view.wallets} onClose={() => setDialog(null)} />
      <ConversionDialog start={conversion} wallets={view.wallets} onClose={() => setConversion(null)} />
    </>
  );
}

/** Hide small balances and its threshold (the wallets and balances settings). */
function SettingsForm({ onDone }: { readonly onDone: () => void }) {
  const { t } = useLingui();
  const s = useSnapshot(settings);
  const id = useId();
  const [threshold, setThreshold] = useState(String(s.small_balances_threshold));
  const [bad, setBad] = useState(false);
  const submit = (e: FormEvent): void => {
    e.preventDefault();
    const text = threshold.trim();
    const n = /^(?:\d+(?:\.\d*)?|\.\d+)$/.test(text) ? Number(text) : Number.NaN;
    if (!updateSetting("small_balances_threshold", n)) {
      setBad(true);
      return;
    }
    setBad(false);
    onDone();
  };
  return (
    <form className={w.dialogForm} onSubmit={submit} noValidate>
      <label className={w.check}>
        <input
          type="checkbox"
          data-testid="hide-small-balances"
          checked={s.hide_small_balances}
          onChange={(e) => updateSetting("hide_small_balances", e.currentTarget.checked)}
        />
        <Trans>Hide small balances</Trans>
      </label>
      <label className={css.field}>
        <span>
          <Trans>Hide balances below</Trans>
        </span>
        <input
          className={css.input}
          inputMode="decimal"
          autoComplete="off"
          value={threshold}
          aria-invalid={bad}
          aria-describedby={bad ? `${id}-error` : undefined}
          onChange={(e) => setThreshold(e.currentTarget.value)}
        />
        {bad && (
          <span className={css.fieldError} id={`${id}-error`}>
            {t`Enter a number from 0 to 1000, such as 0.00001.`}
          </span>
        )}
      </label>
      <div className={w.dialogActions}>
        <button type="submit" className={w.button}>
          <Trans>Save</Trans>
        </button>
      </div>
    </form>
  );
}
