import { Trans, useLingui } from "@lingui/react/macro";
import { useEffect, useId, useState, useSyncExternalStore, type FormEvent } from "react";
import {
  conversionFeePpm,
  conversionTargets,
  currencyTicker,
  CONVERSION_WALLETS,
  CONVERTIBLE_CURRENCIES,
  type Conversion,
  type ConversionQuote,
  type TransferWallet,
  type Wallet,
} from "../../protocol";
import { Modal } from "../api-keys";
import { AmountField } from "../wallets/AmountField";
import { appScheduler } from "../scheduler";
import { authCall } from "../session";
import { AgreementDialog } from "./AgreementDialog";
import { useTicker } from "./countdown";
import type { Call } from "./api";
import * as css from "./conversions.css";
import { ConversionModel, maxAmount, secondsLeft, type ConversionState } from "./model";
import { useConversionWords } from "./words";

/** Where the dialog opens: a wallet row's currency and wallet, or nothing chosen (the toolbar). */
export interface ConversionStart {
  readonly from: string | null;
  readonly wallet: TransferWallet | null;
}

/** Whether a wallet row can open the dialog on itself: a convertible currency in a wallet conversions use. */
export function isConvertibleWallet<W extends Pick<Wallet, "type" | "currency">>(
  w: W,
): w is W & { readonly type: TransferWallet } {
  return (
    Object.hasOwn(CONVERTIBLE_CURRENCIES, w.currency) && (CONVERSION_WALLETS as readonly string[]).includes(w.type)
  );
}

/**
 * The conversion dialog (docs/product-rules.md#conversions), opened from the wallets page: wallet,
 * the currency to convert and the one to receive, the amount (with "Max"); "Get quote" shows the
 * rate, the fee, what is received and how long the quote holds; "Convert" converts at it. The
 * currency-agreement dialog comes first when a currency needs terms not yet accepted. The logic
 * is `ConversionModel`'s; the values typed stay while the dialog is open, whatever fails.
 */
export function ConversionDialog({
  start,
  wallets,
  onClose,
  call = authCall,
}: {
  /** Null while closed. */
  readonly start: ConversionStart | null;
  readonly wallets: readonly Wallet[];
  readonly onClose: () => void;
  /** The exchange's authenticated calls: the session's, or a test's scripted exchange. */
  readonly call?: Call;
}) {
  return (
    <Modal open={start !== null} title={<Trans>Convert currency</Trans>} onClose={onClose} testId="conversion-dialog">
      {start !== null && <ConversionForm start={start} wallets={wallets} onClose={onClose} call={call} />}
    </Modal>
  );
}

/** The quote the dialog shows in a state, with when it runs out on this clock. */
function shownQuote(s: ConversionState): { readonly quote: ConversionQuote; readonly expiresAt: number } | null {
  if (s.status === "quoted" || s.status === "converting") return s;
  if (s.status === "failed" && s.quote !== null) return { quote: s.quote, expiresAt: s.expiresAt };
  return null;
}

function ConversionForm({
  start,
  wallets,
  onClose,
  call,
}: {
  readonly start: ConversionStart;
  readonly wallets: readonly Wallet[];
  readonly onClose: () => void;
  readonly call: Call;
}) {
  const { t, i18n } = useLingui();
  const id = useId();
  const words = useConversionWords();
  const [model] = useState(() => new ConversionModel({ call, now: () => appScheduler.now() }));
  const state = useSyncExternalStore(model.subscribe, model.state);
  useEffect(() => {
    void model.load();
  }, [model]);

  const [wallet, setWallet] = useState<TransferWallet>(start.wallet ?? "exchange");
  const [from, setFrom] = useState(start.from ?? "");
  const [to, setTo] = useState("");
  const [amount, setAmount] = useState("");

  const availableOf = (currency: string): number =>
    wallets.find((w) => w.type === wallet && w.currency === currency)?.available ?? 0;
  // What this wallet holds of the convertible currencies, in the table's order.
  const sources = Object.keys(CONVERTIBLE_CURRENCIES).filter((c) => availableOf(c) > 0);
  const source = sources.includes(from) ? from : (sources[0] ?? "");
  const targets = conversionTargets(source);
  // USDt first when it is a choice: converting into it is what most come for.
  const target = (targets as readonly string[]).includes(to)
    ? to
    : targets.includes("UST")
      ? "UST"
      : (targets[0] ?? "");
  const available = availableOf(source);
  const form = { from: source, to: target, wallet, amount };

  const shown = shownQuote(state);
  const now = useTicker(shown !== null);
  const converting = state.status === "converting";
  const busy = converting || state.status === "quoting";
  const error = state.status === "failed" ? state.error : null;
  const amountError =
    error?.kind === "refused" &&
    ["amount", "precision", "insufficient", "tooSmall", "tooLarge"].includes(error.refusal);

  const edit =
    <T,>(set: (v: T) => void) =>
    (v: T): void => {
      set(v);
      model.edited();
    };
  const getQuote = (e?: FormEvent): void => {
    e?.preventDefault();
    void model.quote(form, available);
  };
  const convert = async (): Promise<void> => {
    const r = await model.convert();
    if (r.status === "succeeded") setAmount("");
  };

  const fmt = (n: number): string => i18n.number(n, { maximumFractionDigits: 8 });
  const availableText = fmt(available);
  // The ticker people know (USDt for the API's UST); the fields' values stay the API's codes.
  const ccy = currencyTicker(source);
  const agreementState = state.status === "agreement" ? state : null;

  return (
    <>
      <form className={css.form} onSubmit={getQuote} noValidate data-testid="conversion-form">
        <div className={css.grid}>
          <label className={css.field}>
            <span>
              <Trans>Wallet</Trans>
            </span>
            <select
              className={css.select}
              value={wallet}
              disabled={converting}
              onChange={(e) => edit(setWallet)(e.currentTarget.value as TransferWallet)}
            >
              {CONVERSION_WALLETS.map((w) => (
                <option key={w} value={w}>
                  {words.walletName(w)}
                </option>
              ))}
            </select>
          </label>
          <label className={css.field}>
            <span>
              <Trans>Convert from</Trans>
            </span>
            <select
              className={css.select}
              value={source}
              disabled={converting}
              onChange={(e) => edit(setFrom)(e.currentTarget.value)}
            >
              {sources.length === 0 && <option value="">{t`Nothing available in this wallet`}</option>}
              {sources.map((c) => (
                <option key={c} value={c}>
                  {currencyTicker(c)}
                </option>
              ))}
            </select>
          </label>
          <label className={css.field}>
            <span>
              <Trans>Convert to</Trans>
            </span>
            <select
              className={css.select}
              value={target}
              disabled={converting || targets.length === 0}
              onChange={(e) => edit(setTo)(e.currentTarget.value)}
            >
              {targets.map((c) => (
                <option key={c} value={c}>
                  {currencyTicker(c)}
                </option>
              ))}
            </select>
          </label>
        </div>
        <AmountField
          id={id}
          value={amount}
          onChange={edit(setAmount)}
          max={() => maxAmount(available, source)}
          available={available}
          availableText={availableText}
          currency={ccy}
          invalid={amountError}
          disabled={converting}
        />

        {shown && (
          <QuotePanel
            quote={shown.quote}
            expiresAt={shown.expiresAt}
            now={now}
            converting={converting}
            onConvert={() => void convert()}
          />
        )}
        {error && (
          <p className={css.alert} role="alert" id={`${id}-error`}>
            {state.status === "failed" && state.quote !== null ? words.lostAnswer : words.error(error, ccy)}
          </p>
        )}
        {state.status === "quoting" && (
          <p className={css.hint} role="status">
            <Trans>Getting a quote…</Trans>
          </p>
        )}
        {converting && (
          <p className={css.hint} role="status">
            <Trans>Converting…</Trans>
          </p>
        )}
        {state.status === "succeeded" && <Converted done={state.done} />}
        <div className={css.actions}>
          <button type="button" className={css.ghost} onClick={onClose}>
            <Trans>Close</Trans>
          </button>
          <button
            type="submit"
            className={shown && !model.expired(now) ? css.ghost : css.button}
            disabled={busy || sources.length === 0}
          >
            {shown ? <Trans>Get a new quote</Trans> : <Trans>Get quote</Trans>}
          </button>
        </div>
      </form>
      {/* Beside the form, not in it: the agreement has a form of its own, and forms do not nest. */}
      <AgreementDialog
        currency={agreementState?.currency ?? null}
        accepting={agreementState?.accepting ?? false}
        error={agreementState?.error ?? null}
        onAccept={() => void model.accept()}
        onCancel={() => model.cancelAgreement()}
      />
    </>
  );
}

/** The quote: rate, fee, what is received, the countdown; Convert while it holds, "expired" once it has run out. */
function QuotePanel({
  quote,
  expiresAt,
  now,
  converting,
  onConvert,
}: {
  readonly quote: ConversionQuote;
  readonly expiresAt: number;
  readonly now: number;
  readonly converting: boolean;
  readonly onConvert: () => void;
}) {
  const { t, i18n } = useLingui();
  const fmt = (n: number): string => i18n.number(n, { maximumFractionDigits: 8 });
  const from = currencyTicker(quote.from);
  const to = currencyTicker(quote.to);
  const rate = i18n.number(quote.rate, { maximumFractionDigits: 10 });
  const fee = fmt(quote.fee);
  const receive = fmt(quote.receive);
  const percent = i18n.number((conversionFeePpm(quote.from, quote.to) ?? 0) / 1e6, {
    style: "percent",
    maximumFractionDigits: 2,
  });
  // Never more than the quote's whole lifetime: the clock may not have ticked since it arrived.
  const lifetime = Math.ceil((quote.expires - quote.mts) / 1000);
  const seconds = Math.min(lifetime, secondsLeft(expiresAt, now));
  const expired = seconds <= 0 && !converting;
  return (
    <section className={css.quote} aria-label={t`Quote`} data-testid="conversion-quote">
      <dl className={css.figures}>
        <dt className={css.term}>
          <Trans>Rate</Trans>
        </dt>
        <dd className={css.figure}>
          1 {from} = {rate} {to}
        </dd>
        <dt className={css.term}>
          <Trans>Fee</Trans>
        </dt>
        <dd className={css.figure}>
          {fee} {to} ({percent})
        </dd>
        <dt className={css.term}>
          <Trans>You receive</Trans>
        </dt>
        <dd className={css.receive} data-testid="conversion-receive">
          {receive} {to}
        </dd>
      </dl>
      {expired ? (
        <p className={css.alert} role="alert">
          <Trans>This quote has expired. Get a new quote to convert.</Trans>
        </p>
      ) : (
        <>
          <p className={css.timer} role="timer">
            <Trans>Quote valid for {seconds} s</Trans>
          </p>
          <div className={css.actions}>
            <button type="button" className={css.button} disabled={converting} onClick={onConvert}>
              <Trans>Convert</Trans>
            </button>
          </div>
        </>
      )}
    </section>
  );
}

function Converted({ done }: { readonly done: Conversion }) {
  const { i18n } = useLingui();
  const fmt = (n: number): string => i18n.number(n, { maximumFractionDigits: 8 });
  const amount = fmt(done.amount);
  const receive = fmt(done.receive);
  const from = currencyTicker(done.from);
  const to = currencyTicker(done.to);
  return (
    <p className={css.success} role="status">
      <Trans>
        Converted {amount} {from} into {receive} {to}.
      </Trans>
    </p>
  );
}
