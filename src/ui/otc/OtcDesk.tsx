import { Trans, useLingui } from "@lingui/react/macro";
import { Fragment, useEffect, useId, useState, useSyncExternalStore, type FormEvent } from "react";
import {
  isOtcPair,
  OTC_PAIRS,
  OTC_SIDES,
  OTC_SPREAD_PPM,
  otcCurrencies,
  otcMinAmount,
  type OtcHistoryEntry,
  type OtcPair,
  type OtcQuote,
  type OtcSide,
  type OtcTrade,
} from "../../protocol";
import { platform } from "../config";
import { useTicker } from "../conversions/countdown";
import { secondsLeft } from "../conversions/model";
import { appScheduler } from "../scheduler";
import { authCall } from "../session";
import { useTimeFormat } from "../time/format";
import { fetchExchangeAvailable, fetchOtcHistory, type Call } from "./api";
import { OtcModel, shownQuote } from "./model";
import * as css from "./otc.css";
import { pairName, useOtcWords } from "./words";

/** The pair the form opens on: the platform's default pair when it is quoted over the counter. */
function defaultPair(): OtcPair {
  const pair = platform().defaultPair;
  return isOtcPair(pair) ? pair : "BTCUSD";
}

/**
 * The OTC desk (docs/product-rules.md#otc-block-trades): the request form (pair, buy or sell, the
 * amount with its minimum block), the quote with its countdown and Accept, the outcome, the exchange
 * wallet's balances of the pair and the history of quotes. The logic is `OtcModel`'s; what was typed
 * stays whatever fails.
 */
export function OtcDesk({ call = authCall }: { readonly call?: Call }) {
  const { t, i18n } = useLingui();
  const id = useId();
  const words = useOtcWords();
  const [model] = useState(() => new OtcModel({ call, now: () => appScheduler.now() }));
  const state = useSyncExternalStore(model.subscribe, model.state);

  const [pair, setPair] = useState<OtcPair>(defaultPair);
  const [side, setSide] = useState<OtcSide>("buy");
  const [amount, setAmount] = useState("");
  const [available, setAvailable] = useState<ReadonlyMap<string, number> | null>(null);
  const [history, setHistory] = useState<readonly OtcHistoryEntry[] | null>(null);
  const [historyFailed, setHistoryFailed] = useState(false);

  /** Bumped after a quote or a trade: the balances and the history are read again. */
  const [version, setVersion] = useState(0);
  const reload = (): void => setVersion((v) => v + 1);

  const shown = shownQuote(state);
  const now = useTicker(shown !== null);
  const expired = model.expired(now);
  // Read on opening, after each quote and trade, and once the quote shown runs out (its history
  // row turns from open to expired). An answer for an older read is dropped.
  useEffect(() => {
    let current = true;
    void Promise.all([fetchExchangeAvailable(call), fetchOtcHistory(call)]).then(([w, h]) => {
      if (!current) return;
      if (w.ok) setAvailable(w.value);
      setHistoryFailed(!h.ok);
      if (h.ok) setHistory(h.value);
    });
    return () => {
      current = false;
    };
  }, [call, version, expired]);

  const { base, quote: quoteCcy } = otcCurrencies(pair);
  const min = i18n.number(otcMinAmount(pair), { maximumFractionDigits: 8 });
  const error = state.status === "failed" ? state.error : null;
  const amountError = error?.kind === "refused" && ["amount", "precision", "tooSmall"].includes(error.refusal);
  const busy = state.status === "quoting" || state.status === "accepting";

  const edit =
    <T,>(set: (v: T) => void) =>
    (v: T): void => {
      set(v);
      model.edited();
    };
  const requestQuote = async (e?: FormEvent): Promise<void> => {
    e?.preventDefault();
    const r = await model.quote({ pair, side, amount });
    if (r.status === "quoted") reload();
  };
  const accept = async (): Promise<void> => {
    const r = await model.accept();
    if (r.status === "accepted") setAmount("");
    reload();
  };
  const fmt = (n: number): string => i18n.number(n, { maximumFractionDigits: 8 });

  return (
    <div className={css.page}>
      <div className={css.top}>
        <section className={css.card} aria-labelledby={`${id}-request`}>
          <h2 className={css.h2} id={`${id}-request`}>
            <Trans>Request a quote</Trans>
          </h2>
          <form className={css.form} onSubmit={(e) => void requestQuote(e)} noValidate data-testid="otc-form">
            <div className={css.row}>
              <label className={css.field}>
                <span>
                  <Trans>Pair</Trans>
                </span>
                <select
                  className={css.select}
                  value={pair}
                  disabled={busy}
                  onChange={(e) => {
                    const v = e.currentTarget.value;
                    if (isOtcPair(v)) edit(setPair)(v);
                  }}
                >
                  {OTC_PAIRS.map((p) => (
                    <option key={p} value={p}>
                      {pairName(p)}
                    </option>
                  ))}
                </select>
              </label>
              <fieldset className={css.sides} disabled={busy}>
                <legend className={css.legend}>
                  <Trans>Side</Trans>
                </legend>
                <div className={css.segments}>
                  {OTC_SIDES.map((s) => (
                    <label key={s} className={css.segment}>
                      <input
                        type="radio"
                        name={`${id}-side`}
                        value={s}
                        checked={side === s}
                        onChange={() => edit(setSide)(s)}
                      />
                      {words.side(s)}
                    </label>
                  ))}
                </div>
              </fieldset>
            </div>
            <label className={css.field}>
              <span>
                <Trans>Amount ({base})</Trans>
              </span>
              <input
                className={css.input}
                inputMode="decimal"
                autoComplete="off"
                value={amount}
                disabled={busy}
                aria-invalid={amountError}
                aria-describedby={`${id}-min${amountError ? ` ${id}-error` : ""}`}
                onChange={(e) => edit(setAmount)(e.currentTarget.value)}
              />
              <span className={css.hint} id={`${id}-min`}>
                <Trans>
                  Minimum block: {min} {base}
                </Trans>
              </span>
            </label>

            {shown && (
              <QuotePanel
                quote={shown.quote}
                expiresAt={shown.expiresAt}
                now={now}
                accepting={state.status === "accepting"}
                onAccept={() => void accept()}
              />
            )}
            {error && (
              <p className={css.alert} role="alert" id={`${id}-error`}>
                {state.status === "failed" && state.quote !== null
                  ? t`The answer was lost on the way. Accepting again is safe: a quote trades at most once.`
                  : words.error(error, pair)}
              </p>
            )}
            {state.status === "quoting" && (
              <p className={css.hint} role="status">
                <Trans>Getting a quote…</Trans>
              </p>
            )}
            {state.status === "accepting" && (
              <p className={css.hint} role="status">
                <Trans>Trading…</Trans>
              </p>
            )}
            {state.status === "accepted" && <Traded trade={state.trade} />}
            <div className={css.actions}>
              <button type="submit" className={shown && !expired ? css.ghost : css.button} disabled={busy}>
                {shown ? <Trans>Request a new quote</Trans> : <Trans>Request a quote</Trans>}
              </button>
            </div>
          </form>
        </section>
        <section className={css.card} aria-labelledby={`${id}-balances`}>
          <h2 className={css.h2} id={`${id}-balances`}>
            <Trans>Exchange wallet</Trans>
          </h2>
          {available === null ? (
            <p className={css.muted}>
              <Trans>Loading…</Trans>
            </p>
          ) : (
            <dl className={css.balances} data-testid="otc-balances">
              {[base, quoteCcy].map((c) => (
                <Fragment key={c}>
                  <dt className={css.term}>{c}</dt>
                  <dd className={css.figure} data-testid={`otc-available-${c}`}>
                    {fmt(available.get(c) ?? 0)}
                  </dd>
                </Fragment>
              ))}
            </dl>
          )}
          <p className={css.hint}>
            <Trans>Blocks trade from and into your exchange wallet.</Trans>
          </p>
        </section>
      </div>
      <History entries={history} failed={historyFailed} />
    </div>
  );
}

/** The quote: price, amount, total, spread, the countdown; Accept while it holds, disabled and explained once it has run out. */
function QuotePanel({
  quote,
  expiresAt,
  now,
  accepting,
  onAccept,
}: {
  readonly quote: OtcQuote;
  readonly expiresAt: number;
  readonly now: number;
  readonly accepting: boolean;
  readonly onAccept: () => void;
}) {
  const { t, i18n } = useLingui();
  const explained = useId();
  const fmt = (n: number): string => i18n.number(n, { maximumFractionDigits: 8 });
  const { base, quote: quoteCcy } = otcCurrencies(quote.pair);
  const price = fmt(quote.price);
  const amount = fmt(quote.amount);
  const total = fmt(quote.total);
  const spread = i18n.number(OTC_SPREAD_PPM / 1e6, { style: "percent", maximumFractionDigits: 2 });
  // Never more than the quote's whole lifetime: the clock may not have ticked since it arrived.
  const lifetime = Math.ceil((quote.expires - quote.mts) / 1000);
  const seconds = Math.min(lifetime, secondsLeft(expiresAt, now));
  const expired = seconds <= 0 && !accepting;
  return (
    <section className={css.quote} aria-label={t`Quote`} data-testid="otc-quote">
      <dl className={css.figures}>
        <dt className={css.term}>
          <Trans>Price</Trans>
        </dt>
        <dd className={css.figure}>
          1 {base} = {price} {quoteCcy}
        </dd>
        <dt className={css.term}>{quote.side === "buy" ? <Trans>You buy</Trans> : <Trans>You sell</Trans>}</dt>
        <dd className={css.figure}>
          {amount} {base}
        </dd>
        <dt className={css.term}>{quote.side === "buy" ? <Trans>You pay</Trans> : <Trans>You receive</Trans>}</dt>
        <dd className={css.receive} data-testid="otc-total">
          {total} {quoteCcy}
        </dd>
      </dl>
      <p className={css.hint}>
        <Trans>The price includes the desk&apos;s {spread} spread over the order book. No other fee applies.</Trans>
      </p>
      {expired ? (
        <p className={css.alert} role="alert" id={explained}>
          <Trans>This quote has expired: its price no longer holds. Request a new quote to trade.</Trans>
        </p>
      ) : (
        <p className={css.timer} role="timer">
          <Trans>Quote valid for {seconds} s</Trans>
        </p>
      )}
      <div className={css.actions}>
        <button
          type="button"
          className={css.button}
          disabled={accepting || expired}
          aria-describedby={expired ? explained : undefined}
          onClick={onAccept}
        >
          <Trans>Accept</Trans>
        </button>
      </div>
    </section>
  );
}

function Traded({ trade }: { readonly trade: OtcTrade }) {
  const { i18n } = useLingui();
  const fmt = (n: number): string => i18n.number(n, { maximumFractionDigits: 8 });
  const { base, quote } = otcCurrencies(trade.pair);
  const amount = fmt(trade.amount);
  const price = fmt(trade.price);
  const total = fmt(trade.total);
  return (
    <p className={css.success} role="status" data-testid="otc-result">
      {trade.side === "buy" ? (
        <Trans>
          Bought {amount} {base} at {price} {quote} for {total} {quote}.
        </Trans>
      ) : (
        <Trans>
          Sold {amount} {base} at {price} {quote} for {total} {quote}.
        </Trans>
      )}
    </p>
  );
}

/** The account's quotes, newest first, with what became of each. */
function History({
  entries,
  failed,
}: {
  readonly entries: readonly OtcHistoryEntry[] | null;
  readonly failed: boolean;
}) {
  const { t, i18n } = useLingui();
  const id = useId();
  const words = useOtcWords();
  const time = useTimeFormat();
  const fmt = (n: number): string => i18n.number(n, { maximumFractionDigits: 8 });
  return (
    <section className={css.cardShrinks} aria-labelledby={id}>
      <h2 className={css.h2} id={id}>
        <Trans>Your quotes</Trans>
      </h2>
      {failed && (
        <p className={css.alert} role="alert">
          <Trans>Your quotes could not be loaded. They will show once the exchange answers.</Trans>
        </p>
      )}
      {entries === null ? (
        !failed && (
          <p className={css.muted}>
            <Trans>Loading…</Trans>
          </p>
        )
      ) : entries.length === 0 ? (
        <p className={css.muted}>
          <Trans>No quotes yet. Your requests and their outcome will show here.</Trans>
        </p>
      ) : (
        // A region that scrolls sideways on a phone, reachable by keyboard.
        <div className={css.scroll} tabIndex={0} role="region" aria-label={t`Your quotes`}>
          <table className={css.table} data-testid="otc-history">
            <thead>
              <tr>
                <th className={css.th} scope="col">
                  <Trans>Time</Trans>
                </th>
                <th className={css.th} scope="col">
                  <Trans>Pair</Trans>
                </th>
                <th className={css.th} scope="col">
                  <Trans>Side</Trans>
                </th>
                <th className={css.thNum} scope="col">
                  <Trans>Amount</Trans>
                </th>
                <th className={css.thNum} scope="col">
                  <Trans>Price</Trans>
                </th>
                <th className={css.thNum} scope="col">
                  <Trans>Total</Trans>
                </th>
                <th className={css.th} scope="col">
                  <Trans>Outcome</Trans>
                </th>
              </tr>
            </thead>
            <tbody>
              {entries.map((e) => {
                const { base, quote } = otcCurrencies(e.pair);
                return (
                  <tr key={e.id}>
                    <td className={css.td}>{time.full(e.mts)}</td>
                    <td className={css.td}>{pairName(e.pair)}</td>
                    <td className={css.td}>
                      <span className={e.side === "buy" ? css.buy : css.sell}>{words.side(e.side)}</span>
                    </td>
                    <td className={css.num}>
                      {fmt(e.amount)} {base}
                    </td>
                    <td className={css.num}>
                      {fmt(e.price)} {quote}
                    </td>
                    <td className={css.num}>
                      {fmt(e.total)} {quote}
                    </td>
                    <td className={css.td}>
                      <span className={css.pill}>{words.outcome(e.status)}</span>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
