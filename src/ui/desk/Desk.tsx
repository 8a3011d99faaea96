/**
 * The trading desk: the pair's headline (live ticker, connection light), layout controls, the widget
 * grid, notifications and keyboard shortcuts. The grid is editable only in the trading-desk area and
 * when trading is allowed (docs/product-rules.md#trading-allowed), i.e. for a signed-in user on
 * /tradedesk; elsewhere the saved layout is shown as it is.
 */
import { useLingui } from "@lingui/react/macro";
import { useEffect, useMemo, useState, useSyncExternalStore } from "react";
import { useSnapshot } from "valtio";
import { useLocation } from "wouter";
import { formatPercent, splitPair, toSignificant, type TickerView } from "../../protocol";
import { auth, isLoggedIn } from "../auth";
import { market } from "../market/market";
import { gridEditable } from "./desk-paths";
import { accountStore } from "./account-store";
import { hydrateAndPersistAlerts, watchAlerts } from "./alerts";
import { ConnectionLight } from "./ConnectionLight";
import { watchConnection } from "./connection-store";
import * as css from "./desk.css";
import { deskState, deskSymbol, fillOrderForm } from "./desk-state";
import { DeskGrid } from "./grid/DeskGrid";
import {
  addWidget,
  cancelEditing,
  configureLayouts,
  deleteLayout,
  layoutsState,
  loadAndPersistLayouts,
  moveWidget,
  pinWidget,
  removeWidget,
  renameLayout,
  resetLayout,
  resizeWidget,
  saveEditing,
  selectLayout,
  shownLayout,
  startCreating,
  startEditing,
} from "./grid/layouts";
import { Modal } from "./Modal";
import { PhoneDesk } from "./phone/PhoneDesk";
import { usePhoneLayout } from "./phone/use-phone-layout";
import { notices, notify } from "./notices";
import { Toasts } from "./Notices";
import { NotificationsPanel } from "../notifications/NotificationsPanel";
import { useExchangeNotices, useOrderFillNotices } from "../notifications/use-desk-notices";
import { platform } from "../config";
import { defaultLayout, offeredWidgets } from "./registry";
import { SHORTCUTS, shortcutFor } from "./shortcuts";
import { subscribeTickers, tickersSnapshot } from "./widgets/markets/tickers-feed";
import { tradingSymbol } from "../../protocol";
import type { GridLayout } from "./grid/layout";
import { hasUnsavedDraft } from "./grid/unsaved-draft";
import { useLeaveBlock } from "../shell/leave-guard";

// The platform variant's widgets only (this module loads with the desk page, after the config): a
// stored layout naming a widget of a switched-off feature loses it as an unknown one.
const OFFERED = offeredWidgets(platform());
const OFFERED_LIST = [...OFFERED.values()];
configureLayouts(OFFERED, () => defaultLayout("", platform()));

export function Desk({ pair }: { readonly pair: string }) {
  const { t, i18n } = useLingui();
  const [path] = useLocation();
  const a = useSnapshot(auth);
  const l = useSnapshot(layoutsState);
  const n = useSnapshot(notices);
  // At phone widths: one column of tabs instead of the grid (docs/product-rules.md#phone-desk).
  const phone = usePhoneLayout();
  const [sidebar, setSidebar] = useState(false);
  const [help, setHelp] = useState(false);
  const [confirmCancel, setConfirmCancel] = useState(false);
  const [naming, setNaming] = useState<null | { kind: "create" | "rename"; value: string }>(null);

  // "Trading allowed": signed in with credentials that may write orders — a read-only API
  // key's session gets the desk to watch, not to rearrange.
  const canTrade = useSnapshot(accountStore).view?.auth?.canTrade;
  const editable = gridEditable(path, isLoggedIn(a), canTrade);
  const layout = shownLayout(l as typeof layoutsState);
  // A layout edit with changes not saved holds the page (docs/product-rules.md#unsaved-changes).
  useLeaveBlock(hasUnsavedDraft(l), cancelEditing);
  const layoutName = (x: Pick<GridLayout, "name">): string => (x.name === "" ? t`Standard` : x.name);

  useEffect(() => {
    deskState.pair = pair;
  }, [pair]);

  useEffect(() => {
    watchConnection();
    const stops: (() => void)[] = [];
    let gone = false;
    const keep = (stop: () => void): void => {
      if (gone) stop();
      else stops.push(stop);
    };
    void loadAndPersistLayouts().then(keep);
    // Price alerts: loaded and saved while the desk is open, and checked against each alerted
    // pair's ticker even when no chart shows that pair.
    void hydrateAndPersistAlerts().then((stop) => keep(() => void stop()));
    keep(watchAlerts(market()));
    return () => {
      gone = true;
      for (const stop of stops) stop();
    };
  }, []);

  useOrderFillNotices();
  useExchangeNotices();

  useEffect(() => {
    const onKey = (e: KeyboardEvent): void => {
      const action = shortcutFor(e, document.querySelector('dialog:modal, [aria-modal="true"]') !== null);
      if (!action) return;
      e.preventDefault();
      switch (action) {
        case "focus-order-form":
          fillOrderForm({ focus: "price", origin: "keyboard" });
          break;
        case "buy":
          fillOrderForm({ side: "buy", focus: "amount", origin: "keyboard" });
          break;
        case "sell":
          fillOrderForm({ side: "sell", focus: "amount", origin: "keyboard" });
          break;
        case "cancel-all-market":
          setConfirmCancel(true);
          break;
        case "switch-pair":
          document.querySelector<HTMLInputElement>('[data-testid="markets-search"]')?.focus();
          break;
        case "toggle-edit":
          if (!editable) break;
          if (layoutsState.mode) saveEditing();
          else startEditing();
          break;
        case "toggle-notifications":
          setSidebar((v) => !v);
          break;
        case "help":
          setHelp(true);
          break;
        default: {
          const never: never = action;
          return never;
        }
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [editable]);

  async function cancelAllHere(): Promise<void> {
    setConfirmCancel(false);
    const ack = await market().cancelOrders({ symbol: tradingSymbol(pair) });
    const reason = ack.text;
    notify({
      level: ack.ok ? "success" : "error",
      kind: "orders",
      text: ack.ok ? t`Cancelled all open orders on ${pair}.` : t`Orders on ${pair} were not cancelled: ${reason}`,
    });
  }

  const draftName = layoutName(layout ?? { name: "" });
  // Pairs to pin a widget to: what the markets list knows (tickers poll), only while editing.
  const tickers = useSyncExternalStore(subscribeTickers, tickersSnapshot);
  const pairs = useMemo(() => [...tickers.tickers.keys()].sort(), [tickers]);
  const missing = OFFERED_LIST.filter((w) => !layout?.items.some((i) => i.key.startsWith(`widget/${w.type}/`)));

  return (
    <div className={css.desk} data-testid="desk" data-desk>
      <div className={css.bar}>
        <PairHeadline key={pair} pair={pair} />
        <span className={css.spacer} />
        <ConnectionLight />
        <button
          type="button"
          className={css.button}
          aria-expanded={sidebar}
          aria-haspopup="dialog"
          onClick={() => setSidebar((v) => !v)}
          data-testid="notifications-toggle"
        >
          {t`Notifications`}
          {n.unread > 0 && !sidebar && <span className={css.badge}>{n.unread}</span>}
        </button>
        <button type="button" className={css.button} onClick={() => setHelp(true)} aria-label={t`Keyboard shortcuts`}>
          ⌨ ?
        </button>
      </div>

      <div className={css.layoutBar} data-testid="layout-bar">
        <label className={css.group}>
          <span className={css.hint}>{t`Layout`}</span>
          <select
            className={css.select}
            value={l.currentId}
            disabled={l.mode !== null}
            onChange={(e) => selectLayout(e.target.value)}
            data-testid="layout-select"
          >
            {l.layouts.map((x) => (
              <option key={x.id} value={x.id}>
                {layoutName(x)}
              </option>
            ))}
          </select>
        </label>
        {!editable && (
          <span className={css.hint}>
            {isLoggedIn(a) ? t`Open the trade desk to arrange widgets.` : t`Sign in to arrange your own desk.`}
          </span>
        )}
        {editable && l.mode === null && (
          <span className={css.group}>
            <button type="button" className={css.button} onClick={startEditing} data-testid="layout-edit">
              {t`Edit layout`}
            </button>
            <button type="button" className={css.button} onClick={() => setNaming({ kind: "create", value: "" })}>
              {t`New layout`}
            </button>
            <button
              type="button"
              className={css.button}
              onClick={() => layout && setNaming({ kind: "rename", value: layoutName(layout) })}
            >
              {t`Rename`}
            </button>
            <button type="button" className={css.button} onClick={resetLayout}>
              {t`Reset`}
            </button>
            <button
              type="button"
              className={css.button}
              disabled={l.layouts.length <= 1}
              onClick={() => deleteLayout(l.currentId)}
            >
              {t`Delete`}
            </button>
          </span>
        )}
        {editable && l.mode !== null && (
          <span className={css.group}>
            <span className={css.hint} data-testid="layout-mode">
              {l.mode === "CREATING" ? t`Creating “${draftName}”` : t`Editing layout`}
            </span>
            <label className={css.group}>
              <span className={css.hint}>{t`Add`}</span>
              <select
                className={css.select}
                value=""
                onChange={(e) => {
                  if (e.target.value) addWidget(e.target.value);
                }}
                data-testid="layout-add"
              >
                <option value="">{t`Choose a widget…`}</option>
                {OFFERED_LIST.map((w) => (
                  <option key={w.type} value={w.type}>
                    {i18n._(w.title)}
                    {missing.includes(w) ? "" : " +"}
                  </option>
                ))}
              </select>
            </label>
            <button type="button" className={css.button} onClick={resetLayout}>
              {t`Reset`}
            </button>
            <button type="button" className={css.primary} onClick={saveEditing} data-testid="layout-save">
              {t`Save layout`}
            </button>
            <button type="button" className={css.button} onClick={cancelEditing}>
              {t`Cancel`}
            </button>
          </span>
        )}
      </div>

      <div className={css.body}>
        <div className={css.gridArea}>
          {phone && <PhoneDesk pair={pair} />}
          {layout && !phone && (
            <DeskGrid
              items={layout.items}
              defs={OFFERED}
              editable={editable && l.mode !== null}
              deskPair={pair}
              onMove={moveWidget}
              onResize={resizeWidget}
              onRemove={removeWidget}
              onPin={pinWidget}
              pairs={pairs}
              renderWidget={(item, p) => {
                const def = OFFERED.get(item.key.split("/")[1] ?? "");
                if (!def) return null;
                const Widget = def.component;
                return <Widget widgetKey={item.key} pair={p} symbol={tradingSymbol(p)} />;
              }}
            />
          )}
        </div>
      </div>

      <Toasts />
      {/* Over the grid, never beside it: opening it leaves the grid's size as it is. */}
      {sidebar && <NotificationsPanel onClose={() => setSidebar(false)} />}

      <Modal open={help} title={t`Keyboard shortcuts`} onClose={() => setHelp(false)} testId="shortcuts-dialog">
        <table className={css.keys}>
          <tbody>
            {SHORTCUTS.map((s) => (
              <tr key={s.action}>
                <td className={css.keyCell}>
                  <kbd className={css.kbd}>{s.label}</kbd>
                </td>
                <td>{i18n._(s.description)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <div className={css.dialogActions}>
          <button type="button" className={css.primary} onClick={() => setHelp(false)}>
            {t`Close`}
          </button>
        </div>
      </Modal>

      <Modal
        open={confirmCancel}
        title={t`Cancel all orders on ${pair}?`}
        onClose={() => setConfirmCancel(false)}
        testId="cancel-all-dialog"
      >
        <p>{t`Every open order on ${pair} will be cancelled. Orders on other markets stay.`}</p>
        <div className={css.dialogActions}>
          <button type="button" className={css.button} onClick={() => setConfirmCancel(false)}>
            {t`Keep orders`}
          </button>
          <button type="button" className={css.primary} onClick={() => void cancelAllHere()}>
            {t`Cancel all`}
          </button>
        </div>
      </Modal>

      <Modal
        open={naming !== null}
        title={naming?.kind === "create" ? t`New layout` : t`Rename layout`}
        onClose={() => setNaming(null)}
        testId="layout-name-dialog"
      >
        <form
          onSubmit={(e) => {
            e.preventDefault();
            const name = naming?.value.trim() ?? "";
            if (name === "" || !naming) return;
            if (naming.kind === "create") startCreating(name);
            else renameLayout(layoutsState.currentId, name);
            setNaming(null);
          }}
        >
          <label>
            <span className={css.hint}>{t`Name`}</span>
            <input
              className={css.input}
              value={naming?.value ?? ""}
              maxLength={60}
              required
              autoFocus
              onChange={(e) => setNaming((v) => (v ? { ...v, value: e.target.value } : v))}
            />
          </label>
          <div className={css.dialogActions}>
            <button type="button" className={css.button} onClick={() => setNaming(null)}>
              {t`Cancel`}
            </button>
            <button type="submit" className={css.primary}>
              {t`Save`}
            </button>
          </div>
        </form>
      </Modal>
    </div>
  );
}

/** The pair's name and live ticker (last, 24 h change, high, low, volume) from the worker. */
function PairHeadline({ pair }: { readonly pair: string }) {
  const { t } = useLingui();
  const [ticker, setTicker] = useState<TickerView["ticker"]>(null);
  const parts = splitPair(pair);
  useEffect(() => {
    const ac = new AbortController();
    // A ticker changes about once a second: a state update per view is cheap and keeps this simple.
    void market().ticker(deskSymbol({ pair }), (v: TickerView) => setTicker(v.ticker), ac.signal);
    return () => ac.abort();
  }, [pair]);
  const last = ticker?.lastPrice;
  const change = ticker?.dailyChangePerc ?? 0;
  const cell = (label: string, value: string, className?: string) => (
    <span className={css.stat}>
      <span className={css.statLabel}>{label}</span>
      <span className={`${css.statValue} ${className ?? ""}`}>{value}</span>
    </span>
  );
  return (
    <>
      <h1 className={css.pairName} data-testid="desk-pair">
        {parts ? parts.base : pair}
        <span className={css.quote}>/{parts ? parts.quote : ""}</span>
      </h1>
      {cell(t`Last price`, last === undefined ? "—" : toSignificant(last), change >= 0 ? css.up : css.down)}
      {cell(
        t`24h change`,
        ticker ? `${change > 0 ? "+" : ""}${formatPercent(change)}` : "—",
        change >= 0 ? css.up : css.down,
      )}
      <span className={css.moreStats}>
        {cell(t`24h high`, ticker ? toSignificant(ticker.high) : "—")}
        {cell(t`24h low`, ticker ? toSignificant(ticker.low) : "—")}
        {cell(t`24h volume`, ticker ? `${toSignificant(ticker.volume)} ${parts?.base ?? ""}` : "—")}
      </span>
    </>
  );
}
