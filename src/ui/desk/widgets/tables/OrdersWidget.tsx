import { Trans, useLingui } from "@lingui/react/macro";
import { useEffect, useMemo, useState, useSyncExternalStore } from "react";
import type { AccountView, Order } from "../../../../protocol";
import type { WidgetProps } from "../../widget";
import { AccountGate } from "./AccountGate";
import { Filled, OrderStatus, OrderType, SideAmount } from "./cells";
import { filledFraction, ORDER_SORT_KEYS, TABLE_IDS } from "./columns";
import { EditOrderPanel } from "./EditOrderPanel";
import { FilterBar } from "./FilterBar";
import { ALL, filterOrders, pairFilterSymbol, type OrderFilters } from "./filters";
import { displayPair, formatAveragePrice, formatPrice } from "./format";
import { createHistoryPager, mergeHistory, type HistoryPager } from "./history-pager";
import { cancelAllOrders, cancelOrder, updateOrder } from "./order-actions";
import { useTablesServices } from "./services";
import { SortableTable, type Column } from "./SortableTable";
import * as css from "./tables.css";
import { useFilters, useTimeCell } from "./use-table-settings";

type OrdersTab = "open" | "history";

/** Open orders and order history of the signed-in account (widget type "orders"). */
export function OrdersWidget(props: WidgetProps) {
  return (
    <div className={css.widget} data-testid="orders-widget">
      <AccountGate>{(view) => <OrdersBody view={view} pair={props.pair} symbol={props.symbol} />}</AccountGate>
    </div>
  );
}

function OrdersBody(props: { readonly view: AccountView; readonly pair: string; readonly symbol: string }) {
  const { t, i18n } = useLingui();
  const services = useTablesServices();
  const [tab, setTab] = useState<OrdersTab>("open");
  const [confirm, setConfirm] = useState<Confirm | null>(null);
  const [bulkBusy, setBulkBusy] = useState(false);
  const filters = useFilters();
  const { orders } = props.view;
  const openCount = orders.length;
  const onPair = orders.filter((o) => o.symbol === props.symbol).length;
  const pairLabel = displayPair(props.symbol);
  const confirmCount = confirm?.count ?? 0;

  const cancelAll = async (c: Confirm): Promise<void> => {
    setBulkBusy(true);
    await cancelAllOrders(i18n, services, c.scope === "all" ? "all" : { symbol: props.symbol, label: pairLabel });
    setBulkBusy(false);
    setConfirm(null);
  };

  return (
    <>
      <div className={css.toolbar}>
        <div className={css.tabs} role="tablist" aria-label={t`Orders`}>
          <button
            type="button"
            role="tab"
            className={css.tab}
            aria-selected={tab === "open"}
            data-testid="tab-open-orders"
            onClick={() => setTab("open")}
          >
            <Trans>Open orders ({openCount})</Trans>
          </button>
          <button
            type="button"
            role="tab"
            className={css.tab}
            aria-selected={tab === "history"}
            data-testid="tab-order-history"
            onClick={() => setTab("history")}
          >
            <Trans>Order history</Trans>
          </button>
        </div>
        <FilterBar filters={filters} status={tab === "history"} />
        {tab === "open" && (
          <div className={css.endGroup}>
            <button
              type="button"
              className={css.button.danger}
              data-testid="cancel-pair"
              disabled={onPair === 0 || bulkBusy}
              onClick={() => setConfirm({ scope: "pair", count: onPair })}
            >
              <Trans>Cancel all on {pairLabel}</Trans>
            </button>
            <button
              type="button"
              className={css.button.danger}
              data-testid="cancel-all"
              disabled={openCount === 0 || bulkBusy}
              onClick={() => setConfirm({ scope: "all", count: openCount })}
            >
              <Trans>Cancel all</Trans>
            </button>
          </div>
        )}
      </div>
      {tab === "open" && confirm && (
        <div className={css.panel} role="alertdialog" aria-label={t`Confirm cancellation`} data-testid="confirm-cancel">
          <span>
            {confirm.scope === "pair"
              ? t`Cancel all ${confirmCount} open orders on ${pairLabel}?`
              : t`Cancel all ${confirmCount} open orders on every market?`}
          </span>
          <button
            type="button"
            className={css.button.danger}
            data-testid="confirm-cancel-yes"
            disabled={bulkBusy}
            onClick={() => void cancelAll(confirm)}
          >
            <Trans>Cancel orders</Trans>
          </button>
          <button type="button" className={css.button.plain} autoFocus onClick={() => setConfirm(null)}>
            <Trans>Keep orders</Trans>
          </button>
        </div>
      )}
      {tab === "open" ? (
        <OpenOrders view={props.view} filters={filters} symbol={props.symbol} />
      ) : (
        <OrderHistory view={props.view} filters={filters} symbol={props.symbol} />
      )}
    </>
  );
}

type Confirm = { readonly scope: "pair" | "all"; readonly count: number };

function OpenOrders(props: { readonly view: AccountView; readonly filters: OrderFilters; readonly symbol: string }) {
  const { t, i18n } = useLingui();
  const services = useTablesServices();
  const time = useTimeCell();
  const [editing, setEditing] = useState<Order | null>(null);
  const [busy, setBusy] = useState<ReadonlySet<number>>(new Set());
  const { orders } = props.view;
  // The status filter belongs to the history: every open order is ACTIVE or PARTIALLY FILLED.
  const rows = useMemo(
    () => filterOrders(orders, { ...props.filters, status: ALL }, props.symbol),
    [orders, props.filters, props.symbol],
  );
  // An order that closed while its editor was open has nothing left to change.
  const editedOpen = editing !== null && orders.some((o) => o.id === editing.id);

  const cancel = async (id: number): Promise<void> => {
    setBusy((b) => new Set(b).add(id));
    await cancelOrder(i18n, services, id);
    setBusy((b) => {
      const next = new Set(b);
      next.delete(id);
      return next;
    });
  };

  const columns: Column<Order>[] = [
    { id: "pair", label: t`Pair`, render: (o) => displayPair(o.symbol) },
    { id: "type", label: t`Type`, render: (o) => <OrderType order={o} /> },
    { id: "amount", label: t`Amount`, align: "end", render: (o) => <SideAmount value={o.amount} /> },
    { id: "price", label: t`Price`, align: "end", render: (o) => formatPrice(o.price) },
    { id: "filled", label: t`Filled`, align: "end", render: (o) => <Filled order={o} /> },
    { id: "status", label: t`Status`, render: (o) => <OrderStatus status={o.status} /> },
    { id: "created", label: t`Placed`, render: (o) => <span className={css.muted}>{time(o.mts_create)}</span> },
    {
      id: "actions",
      label: <span className={css.muted}>{t`Actions`}</span>,
      align: "end",
      pinEnd: true,
      render: (o) => (
        <ActionsCell order={o} busy={busy.has(o.id)} onEdit={setEditing} onCancel={(id) => void cancel(id)} />
      ),
    },
  ];

  return (
    <>
      {editing && editedOpen && (
        <EditOrderPanel
          key={editing.id}
          order={editing}
          onSubmit={(update) => updateOrder(i18n, services, update)}
          onClose={() => setEditing(null)}
        />
      )}
      <SortableTable
        tableId={TABLE_IDS.openOrders}
        columns={columns}
        rows={rows}
        sortKeys={ORDER_SORT_KEYS}
        rowKey={(o) => o.id}
        empty={orders.length > 0 ? <Trans>No open orders match the filters.</Trans> : <Trans>No open orders.</Trans>}
      />
    </>
  );
}

function ActionsCell(props: {
  readonly order: Order;
  readonly busy: boolean;
  readonly onEdit: (order: Order) => void;
  readonly onCancel: (id: number) => void;
}) {
  const { t } = useLingui();
  const { order } = props;
  const id = order.id;
  return (
    <>
      <button
        type="button"
        className={css.iconButton}
        aria-label={t`Edit order ${id}`}
        title={t`Edit`}
        data-testid={`edit-${id}`}
        onClick={() => props.onEdit(order)}
      >
        ✎
      </button>
      <button
        type="button"
        className={css.iconButton}
        aria-label={t`Cancel order ${id}`}
        title={t`Cancel`}
        data-testid={`cancel-${id}`}
        disabled={props.busy}
        onClick={() => props.onCancel(id)}
      >
        ✕
      </button>
    </>
  );
}

function OrderHistory(props: { readonly view: AccountView; readonly filters: OrderFilters; readonly symbol: string }) {
  const { t } = useLingui();
  const services = useTablesServices();
  const time = useTimeCell();
  const pagerSymbol = pairFilterSymbol(props.filters.pair, props.symbol);
  // One pager per pair selection; a late answer to a replaced pager has no listener left, so it is
  // simply dropped.
  const pager: HistoryPager = useMemo(
    () => createHistoryPager({ symbol: pagerSymbol, fetch: services.fetchHistory }),
    [pagerSymbol, services.fetchHistory],
  );
  const page = useSyncExternalStore(pager.subscribe, pager.getState);
  const { history } = props.view;
  const live = useMemo(
    () => (pagerSymbol === null ? Object.values(history).flat() : (history[pagerSymbol] ?? [])),
    [history, pagerSymbol],
  );
  const oldestLive = live.reduce<number | null>((m, o) => (m === null || o.mts_update < m ? o.mts_update : m), null);
  const rows = useMemo(
    () => filterOrders(mergeHistory(live, page.rows), props.filters, props.symbol),
    [live, page.rows, props.filters, props.symbol],
  );

  // The first page comes with the tab; older ones on request.
  useEffect(() => {
    if (pager.getState().rows.length === 0) void pager.loadMore(oldestLive);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per pager, not on every live change
  }, [pager]);

  const columns: Column<Order>[] = [
    { id: "pair", label: t`Pair`, render: (o) => displayPair(o.symbol) },
    { id: "type", label: t`Type`, render: (o) => <OrderType order={o} /> },
    {
      id: "original",
      label: t`Amount`,
      align: "end",
      render: (o) => <SideAmount value={o.original_amount} />,
    },
    { id: "price", label: t`Price`, align: "end", render: (o) => formatPrice(o.price) },
    {
      id: "average",
      label: t`Avg. price`,
      align: "end",
      render: (o) => formatAveragePrice(o.price_average, filledFraction(o)),
    },
    { id: "filled", label: t`Filled`, align: "end", render: (o) => <Filled order={o} /> },
    { id: "status", label: t`Status`, render: (o) => <OrderStatus status={o.status} /> },
    { id: "updated", label: t`Updated`, render: (o) => <span className={css.muted}>{time(o.mts_update)}</span> },
  ];

  const pageError = page.error;
  const footer = page.loading ? (
    <span className={css.muted}>
      <Trans>Loading older orders…</Trans>
    </span>
  ) : page.error !== null ? (
    <>
      <span className={css.error}>
        <Trans>Order history could not be loaded: {pageError}</Trans>
      </span>
      <button type="button" className={css.button.plain} onClick={() => void pager.loadMore(oldestLive)}>
        <Trans>Retry</Trans>
      </button>
    </>
  ) : page.exhausted ? null : (
    <button
      type="button"
      className={css.button.plain}
      data-testid="load-older"
      onClick={() => void pager.loadMore(oldestLive)}
    >
      <Trans>Load older orders</Trans>
    </button>
  );

  return (
    <SortableTable
      tableId={TABLE_IDS.orderHistory}
      columns={columns}
      rows={rows}
      sortKeys={ORDER_SORT_KEYS}
      rowKey={(o) => o.id}
      empty={page.loading ? <Trans>Loading…</Trans> : <Trans>No closed orders.</Trans>}
      footer={footer}
    />
  );
}
