import { Trans, useLingui } from "@lingui/react/macro";
import { useEffect, useId, useMemo, useState, useSyncExternalStore, type FormEvent } from "react";
import { useSnapshot } from "valtio";
import {
  CURRENCY_LABELS_KEY,
  currencyDecimals,
  decodeCurrencyLabels,
  FIAT_CURRENCIES,
  TRANSFER_WALLETS,
  type AccountView,
  type TransferRefusal,
  type TransferWallet,
  type Wallet,
} from "../protocol";
import { Modal } from "../ui/api-keys";
import { accountStore } from "../ui/desk/account-store";
import { unitDecimals, valuationUnit } from "../ui/desk/bitcoin-view";
import { log } from "../ui/log";
import { useRates, valueIn } from "../ui/rates";
import { authCall, openingHttp, session } from "../ui/session";
import { settings, updateSetting } from "../ui/settings/store";
import {
  accountTotals,
  EQUIVALENT_CURRENCIES,
  positionQuote,
  TransferModel,
  walletRows,
  type TransferError,
  type TransferForm as TransferFormValues,
} from "../ui/wallets/model";
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

function useWalletWords() {
  const { t } = useLingui();
  const walletName = (type: string): string => {
    switch (type) {
      case "exchange":
        return t`Exchange`;
      case "margin":
        return t`Margin`;
      case "funding":
        return t`Funding`;
      case "creditline":
        return t`Credit line`;
      case "contribution":
        return t`Contribution`;
      default:
        return type;
    }
  };
  const refusal = (r: TransferRefusal, currency: string): string => {
    const decimals = currencyDecimals(currency);
    switch (r) {
      case "sameWallet":
        return t`Choose two different wallets.`;
      case "currency":
      case "currencyTo":
        return t`Choose a currency.`;
      case "amount":
        return t`Enter an amount above zero, such as 25 or 0.5.`;
      case "precision":
        return t`Use at most ${decimals} decimals for ${currency}.`;
      case "insufficient":
        return t`The source wallet does not have that much available.`;
      case "from":
      case "to":
        return t`Choose a wallet.`;
      case "requestId":
      case "requestReused":
        return t`The exchange refused the request. Check the form and try again.`;
      default: {
        const never: never = r;
        return never;
      }
    }
  };
  const error = (e: TransferError, currency: string): string => {
    switch (e.kind) {
      case "refused":
        return refusal(e.refusal, currency);
      case "read-only":
        return t`You are acting in a read-only context: nothing can be changed here. Switch back to the main account to make changes.`;
      case "unreachable":
        return t`The exchange could not be reached. Nothing was moved; try again.`;
      case "server":
        return t`The exchange had a problem answering. Try again in a moment.`;
      default: {
        const never: never = e;
        return never;
      }
    }
  };
  return { walletName, error };
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

/** A random request id: one per intended transfer (the exchange moves it once per id). */
function newRequestId(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The whole available amount as text, cut (never rounded up) to the currency's decimals. */
function allOf(available: number, currency: string): string {
  const scale = 10 ** currencyDecimals(currency);
  // The epsilon undoes binary noise (0.3 * 1e8 is 29999999.999999996), never a real unit.
  const text = (Math.floor(available * scale + 1e-6) / scale).toFixed(currencyDecimals(currency));
  return text.includes(".") ? text.replace(/\.?0+$/, "") : text;
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
  const words = useWalletWords();
  const fmt = useFormat();
  const [dialog, setDialog] = useState<"settings" | "transfer" | null>(null);
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
            </tr>
          </thead>
          <tbody>
            {rows.length === 0 && (
              <tr>
                <td className={w.td} colSpan={6}>
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
                <td className={w.td}>{words.walletName(x.type)}</td>
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
      <Modal
        open={dialog === "transfer"}
        title={<Trans>Transfer between wallets</Trans>}
        onClose={() => setDialog(null)}
        testId="transfer-dialog"
      >
        <TransferForm wallets={view.wallets} onDone={() => setDialog(null)} />
      </Modal>
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

function Moved({ done }: { readonly done: TransferFormValues }) {
  const words = useWalletWords();
  const amount = done.amount.trim();
  const currency = done.currency;
  const fromName = words.walletName(done.from);
  const toName = words.walletName(done.to);
  return (
    <p className={w.success} role="status">
      <Trans>
        Moved {amount} {currency} from {fromName} to {toName}.
      </Trans>
    </p>
  );
}

function TransferForm({ wallets, onDone }: { readonly wallets: readonly Wallet[]; readonly onDone: () => void }) {
  const { t } = useLingui();
  const id = useId();
  const words = useWalletWords();
  const fmt = useFormat();
  const s = useSnapshot(session);
  const [model] = useState(() => new TransferModel({ call: authCall, newId: newRequestId }));
  const state = useSyncExternalStore(model.subscribe, model.state);
  const [from, setFrom] = useState<TransferWallet>("exchange");
  const [to, setTo] = useState<TransferWallet>("margin");
  const [currency, setCurrency] = useState("");
  const [amount, setAmount] = useState("");
  const sources = wallets.filter((x) => x.type === from && x.available > 0);
  const ccy = sources.some((x) => x.currency === currency) ? currency : (sources[0]?.currency ?? "");
  const available = sources.find((x) => x.currency === ccy)?.available ?? 0;
  const busy = state.status === "converting";
  const error = state.status === "failed" ? state.error : null;
  const amountError = error?.kind === "refused" && ["amount", "precision", "insufficient"].includes(error.refusal);
  const edit =
    <T,>(set: (v: T) => void) =>
    (v: T) => {
      set(v);
      model.clear();
    };
  const submit = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    const r = await model.submit({ from, to, currency: ccy, amount }, available);
    if (r.status === "succeeded") setAmount("");
  };
  const done = state.status === "succeeded" ? state.done : null;
  const availableText = fmt.amount(available);
  return (
    <form className={w.dialogForm} onSubmit={(e) => void submit(e)} noValidate data-testid="transfer-form">
      <div className={w.formGrid}>
        <label className={css.field}>
          <span>
            <Trans>From wallet</Trans>
          </span>
          <select
            className={w.select}
            value={from}
            onChange={(e) => edit(setFrom)(e.currentTarget.value as TransferWallet)}
          >
            {TRANSFER_WALLETS.map((x) => (
              <option key={x} value={x}>
                {words.walletName(x)}
              </option>
            ))}
          </select>
        </label>
        <label className={css.field}>
          <span>
            <Trans>To wallet</Trans>
          </span>
          <select
            className={w.select}
            value={to}
            onChange={(e) => edit(setTo)(e.currentTarget.value as TransferWallet)}
          >
            {TRANSFER_WALLETS.map((x) => (
              <option key={x} value={x}>
                {words.walletName(x)}
              </option>
            ))}
          </select>
        </label>
      </div>
      <label className={css.field}>
        <span>
          <Trans>Currency</Trans>
        </span>
        <select className={w.select} value={ccy} onChange={(e) => edit(setCurrency)(e.currentTarget.value)}>
          {sources.length === 0 && <option value="">{t`Nothing available in this wallet`}</option>}
          {sources.map((x) => (
            <option key={x.currency} value={x.currency}>
              {x.currency}
            </option>
          ))}
        </select>
      </label>
      <label className={css.field}>
        <span>
          <Trans>Amount</Trans>
        </span>
        <input
          className={css.input}
          name="transfer-amount"
          inputMode="decimal"
          autoComplete="off"
          value={amount}
          aria-invalid={amountError}
          aria-describedby={`${id}-available${amountError ? ` ${id}-error` : ""}`}
          onChange={(e) => edit(setAmount)(e.currentTarget.value)}
        />
      </label>
      <p className={w.hint} id={`${id}-available`}>
        <Trans>
          Available: {availableText} {ccy}
        </Trans>{" "}
        <button
          type="button"
          className={w.ghost}
          disabled={available <= 0}
          onClick={() => edit(setAmount)(allOf(available, ccy))}
        >
          <Trans>Use all</Trans>
        </button>
      </p>
      {error && (
        <p className={css.alert} role="alert" id={`${id}-error`}>
          {words.error(error, ccy)}
        </p>
      )}
      {busy && (
        <p className={w.hint} role="status">
          <Trans>Transferring…</Trans>
        </p>
      )}
      {done && <Moved done={done} />}
      {s.user?.isGroupMaster === true && (
        <p className={w.hint}>
          <Trans>
            To move funds to or from a sub-account, use the <a href="/subaccounts">sub-accounts page</a>.
          </Trans>
        </p>
      )}
      <div className={w.dialogActions}>
        <button type="button" className={w.ghost} onClick={onDone}>
          <Trans>Close</Trans>
        </button>
        <button type="submit" className={w.button} disabled={busy} data-testid="transfer-submit">
          <Trans>Transfer</Trans>
        </button>
      </div>
    </form>
  );
}
