import { msg } from "@lingui/core/macro";
import { useLingui } from "@lingui/react/macro";
import {
  useCallback,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  useSyncExternalStore,
  type MouseEvent,
} from "react";
import { useSnapshot } from "valtio";
import type { AuthTrade } from "../../../../protocol";
import { log } from "../../../log";
import { appScheduler } from "../../../scheduler";
import { settings, updateSetting } from "../../../settings/store";
import { accountStore } from "../../account-store";
import { fillOrderForm } from "../../desk-state";
import type { WidgetDef, WidgetProps } from "../../widget";
import {
  amountLabel,
  BoundedCache,
  FeedBadge,
  formValue,
  HealthStore,
  priceLabel,
  resolveSource,
  useInjectedSource,
} from "../book";
import { MAX_TRADE_ROWS, TradesPainter } from "./trades-painter";
import { useTimeFormat } from "../../../time/format";
import * as css from "./trades-tape.css";

/** The tape's throttle: trades are read, not watched tick by tick; 4 views a second is plenty. */
const TRADES_THROTTLE_MS = 250;

/**
 * The trades tape: the market's public trades (price coloured by the taker's side, amount, time)
 * and the account's own trades on this market, in two tabs (setting `trades_tab`). Clicking a price
 * puts it into the order form. Public trades are painted imperatively into at most 100 rows.
 */
export function TradesTape({ symbol }: WidgetProps) {
  const { t } = useLingui();
  const s = useSnapshot(settings);
  const tab = s.trades_tab === 1 ? 1 : 0;
  const [health] = useState(() => new HealthStore(() => appScheduler.now()));
  const panelId = useId();
  return (
    <div className={css.root} data-testid="trades-tape">
      <div className={css.tabbar}>
        {/* A tablist holds only tabs: the feed badge sits beside it. */}
        <div className={css.tabs} role="tablist" aria-label={t`Trades`}>
          <button
            type="button"
            role="tab"
            className={css.tab}
            aria-selected={tab === 0}
            aria-controls={panelId}
            data-testid="trades-tab-market"
            onClick={() => updateSetting("trades_tab", 0)}
          >
            {t`Market`}
          </button>
          <button
            type="button"
            role="tab"
            className={css.tab}
            aria-selected={tab === 1}
            aria-controls={panelId}
            data-testid="trades-tab-own"
            onClick={() => updateSetting("trades_tab", 1)}
          >
            {t`My trades`}
          </button>
        </div>
        <span className={css.spacer} />
        {tab === 0 ? <FeedBadge store={health} testId="trades-health" /> : null}
      </div>
      {tab === 0 ? (
        <PublicTrades key={symbol} symbol={symbol} health={health} panelId={panelId} />
      ) : (
        <OwnTrades symbol={symbol} panelId={panelId} />
      )}
    </div>
  );
}

function Heads({ own }: { readonly own: boolean }) {
  const { t } = useLingui();
  return (
    <div className={`${css.heads} ${own ? css.ownHeads : ""}`}>
      <span className={`${css.head} ${css.headLeft}`}>{t`Price`}</span>
      <span className={css.head}>{t`Amount`}</span>
      {own ? <span className={css.head}>{t`Fee`}</span> : null}
      <span className={css.head}>{t`Time`}</span>
    </div>
  );
}

interface PublicTradesProps {
  readonly symbol: string;
  readonly health: HealthStore;
  readonly panelId: string;
}

/**
 * A public tape's feed: subscribes to the symbol's trades, grows the row skeletons while the tape
 * fills, and has the painter write every view (the funding desk's tape shares it). Returns the
 * skeletons' count and the ref callbacks for the rows and the scrolling panel.
 */
export function usePublicTrades(
  symbol: string,
  painter: TradesPainter,
  health: HealthStore,
): {
  readonly rows: number;
  readonly register: (el: HTMLElement | null) => void;
  readonly observe: (el: HTMLElement | null) => void;
} {
  const injected = useInjectedSource();
  const timeFormat = useTimeFormat();
  // How many row skeletons exist: grows while the tape fills, then stays (no re-render per view).
  const [rows, setRows] = useState(0);
  const rowsRef = useRef(0);

  useEffect(() => painter.setClock(timeFormat.clock), [painter, timeFormat]);

  useEffect(() => {
    const controller = new AbortController();
    painter.setView(null);
    health.reset();
    resolveSource(injected)
      .trades(
        symbol,
        TRADES_THROTTLE_MS,
        (view) => {
          if (controller.signal.aborted) return;
          const n = Math.min(view.count, MAX_TRADE_ROWS);
          if (n !== rowsRef.current) {
            rowsRef.current = n;
            setRows(n);
          }
          painter.setView(view);
          health.observe(view.status, view.health);
        },
        controller.signal,
      )
      .catch((err: unknown) => log.warn("trades subscription failed", symbol, err));
    return () => controller.abort();
  }, [injected, painter, health, symbol]);

  const register = useCallback((el: HTMLElement | null) => painter.register(el), [painter]);
  const observe = useCallback((el: HTMLElement | null) => painter.observe(el), [painter]);

  // New skeletons are painted before the browser shows them.
  useLayoutEffect(() => painter.paint(), [painter, rows]);
  return { rows, register, observe };
}

function PublicTrades({ symbol, health, panelId }: PublicTradesProps) {
  const { t } = useLingui();
  const timeFormat = useTimeFormat();
  const [painter] = useState(() => new TradesPainter(timeFormat.clock, css.ROW_HEIGHT));
  const { rows, register, observe } = usePublicTrades(symbol, painter, health);

  const onClick = (e: MouseEvent<HTMLDivElement>) => {
    const target = e.target as Element;
    if (!target.closest('[data-part="price"]')) return;
    const price = painter.priceOf(target);
    if (price !== null) fillOrderForm({ price: formValue(price), focus: "amount" });
  };

  const indices = Array.from({ length: rows }, (_, i) => i);
  return (
    <>
      <Heads own={false} />
      <div
        id={panelId}
        ref={observe}
        role="tabpanel"
        className={css.panel}
        onClick={onClick}
        data-testid="trades-public"
        aria-label={t`Market trades`}
      >
        {indices.map((i) => (
          <div key={i} ref={register} className={css.row} data-index={i} data-empty="">
            <button type="button" className={`${css.cell} ${css.price}`} data-part="price" />
            <span className={css.cell} data-part="amount" />
            <span className={`${css.cell} ${css.muted}`} data-part="time" />
          </div>
        ))}
        {rows === 0 ? <PublicNote health={health} /> : null}
      </div>
    </>
  );
}

function PublicNote({ health }: { readonly health: HealthStore }) {
  const { t } = useLingui();
  const h = useSyncExternalStore(health.subscribe, health.getSnapshot);
  return <div className={css.note}>{h.status === "NONE" ? t`Waiting for trades…` : t`No trades yet.`}</div>;
}

interface OwnTradesProps {
  readonly symbol: string;
  readonly panelId: string;
}

/** The account's trades change at human pace, so they render through React from the account store. */
function OwnTrades({ symbol, panelId }: OwnTradesProps) {
  const { t } = useLingui();
  const account = useSnapshot(accountStore);
  const [times] = useState(() => new BoundedCache<string, string>(512));
  const trades = ownTrades(account.view?.trades ?? [], symbol);
  const timeFormat = useTimeFormat();
  const time = (mts: number) =>
    times.get(`${timeFormat.pattern}|${timeFormat.utcOffset}|${Math.floor(mts / 1000)}`, () => timeFormat.clock(mts));

  let note: string | null = null;
  if (!account.view) note = account.link === "live" ? t`Loading your trades…` : t`Log in to see your trades.`;
  else if (trades.length === 0) note = t`No trades of yours on this market yet.`;

  return (
    <>
      <Heads own />
      <div id={panelId} role="tabpanel" className={css.panel} data-testid="trades-own" aria-label={t`My trades`}>
        {trades.map((tr) => (
          <div key={tr.id} className={`${css.row} ${css.ownRow}`} data-dir={tr.exec_amount < 0 ? "down" : "up"}>
            <button
              type="button"
              className={`${css.cell} ${css.price}`}
              data-part="price"
              onClick={() => fillOrderForm({ price: formValue(tr.exec_price), focus: "amount" })}
            >
              {priceLabel(tr.exec_price, 5)}
            </button>
            <span className={`${css.cell} ${tr.exec_amount < 0 ? css.down : css.up}`}>
              {amountLabel(Math.abs(tr.exec_amount), false)}
            </span>
            <span className={`${css.cell} ${css.muted}`}>
              {tr.fee === null ? "—" : `${amountLabel(Math.abs(tr.fee), false)} ${tr.fee_currency ?? ""}`}
            </span>
            <span className={`${css.cell} ${css.muted}`}>{time(tr.mts_create)}</span>
          </div>
        ))}
        {note ? <div className={css.note}>{note}</div> : null}
      </div>
    </>
  );
}

/** This market's own trades, newest first, at most MAX_TRADE_ROWS. */
export function ownTrades(all: readonly AuthTrade[], symbol: string): AuthTrade[] {
  return all
    .filter((tr) => tr.pair === symbol)
    .sort((a, b) => b.mts_create - a.mts_create || b.id - a.id)
    .slice(0, MAX_TRADE_ROWS);
}

export const tradesTapeWidget: WidgetDef = {
  type: "trades",
  title: msg`Trades`,
  component: TradesTape,
  defaultSize: { w: 6, h: 14 },
  minSize: { w: 4, h: 6 },
};
