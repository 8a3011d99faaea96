import { msg } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import {
  useCallback,
  useEffect,
  useId,
  useRef,
  useState,
  type FormEvent,
  type KeyboardEvent,
  type ReactNode,
} from "react";
import { useSnapshot } from "valtio";
import { subscribeKey } from "valtio/utils";
import {
  isDerivativePair,
  LEVERAGE_MAX,
  LEVERAGE_MIN,
  splitPair,
  WALLET_TYPE,
  type OrderAck,
  type OrderRequest,
} from "../../../../protocol";
import { showLevelGateFor } from "../../../account/level-gate";
import { auth } from "../../../auth";
import { apiUrl, appConfig } from "../../../config";
import { log } from "../../../log";
import { market } from "../../../market/market";
import { LOGIN_PATH } from "../../../routing/paths";
import { appScheduler } from "../../../scheduler";
import { authCall } from "../../../session";
import { settings, updateSetting } from "../../../settings/store";
import { accountStore } from "../../account-store";
import { orderDraft, type OrderSide } from "../../desk-state";
import { deskOffers } from "../../features";
import { notify } from "../../notices";
import type { WidgetDef, WidgetProps } from "../../widget";
import { ConfirmDialog, type Acknowledgements, type SummaryRow } from "./ConfirmDialog";
import { derivTermsGate, isSpainRefusal, type DerivTermsGate } from "./deriv-terms";
import { DerivTermsDialog } from "./DerivTermsDialog";
import { CONTEXT_LABELS, issueMessage, KIND_LABELS } from "./messages";
import * as css from "./order-form.css";
import {
  amountForPercent,
  amountForTotal,
  availableBalance,
  buildOrderRequest,
  feeEstimate,
  formatQuote,
  isStopKind,
  kindFields,
  NO_QUOTE,
  normalizeDecimal,
  ORDER_KINDS,
  parseLocalDateTime,
  formatTif,
  quoteFromTicker,
  totalForAmount,
  type MarketQuote,
  type OrderFormValues,
  type OrderKind,
  type TradeContext,
} from "./order-model";
import { DEFAULT_LIMITS, limitsFor, loadPairLimits, type PairLimits } from "./pair-limits";
import { firstInvalid, validateOrder, type FormField } from "./validate";

/** What the form needs from the outside; the widget uses the app's, tests inject their own. */
export interface OrderFormDeps {
  readonly submit: (order: OrderRequest) => Promise<OrderAck>;
  /** Streams the pair's best bid, ask and last price until `signal` aborts. */
  readonly watchQuote: (symbol: string, onQuote: (quote: MarketQuote) => void, signal: AbortSignal) => void;
  readonly loadLimits: () => Promise<ReadonlyMap<string, PairLimits>>;
  readonly now: () => number;
  /** The address the sign-in link brings the user back to. */
  readonly currentPath: () => string;
  /** The derivatives terms gate before a first derivatives order; none: no terms step. */
  readonly derivTerms?: DerivTermsGate;
}

export const appOrderFormDeps: OrderFormDeps = {
  submit: (order) => market().submitOrder(order),
  watchQuote: (symbol, onQuote, signal) => {
    market()
      .ticker(symbol, (view) => onQuote(quoteFromTicker(view.ticker)), signal)
      .catch((err: unknown) => log.warn("order form: ticker subscription failed", symbol, err));
  },
  loadLimits: () => loadPairLimits(apiUrl(appConfig().endpoints, "/v2/conf/pub:info:pair"), (url) => fetch(url)),
  now: () => appScheduler.now(),
  currentPath: () => `${location.pathname}${location.search}${location.hash}`,
  derivTerms: derivTermsGate(
    (path, body) => authCall(path, body),
    () => auth.authToken,
  ),
};

/**
 * The quote changes with every trade; the form shows it and checks stops against it, which a
 * refresh a second is plenty for (no per-tick React state).
 */
const QUOTE_REFRESH_MS = 1000;

const PERCENTS = [25, 50, 75, 100] as const;

/** aria-keyshortcuts values (key names, not text). */
const ALT_B = "Alt+B";
const ALT_S = "Alt+S";

/**
 * The shared draft mirrors what the user typed, so a later book click that repeats an earlier
 * price, or a focus-only request, is read against the form as it stands.
 */
function mirrorDraft(p: { readonly side?: OrderSide; readonly price?: string; readonly amount?: string }): void {
  if (p.side !== undefined) orderDraft.side = p.side;
  if (p.price !== undefined) orderDraft.price = p.price;
  if (p.amount !== undefined) orderDraft.amount = p.amount;
}

interface Draft {
  readonly side: OrderSide;
  readonly kind: OrderKind;
  readonly price: string;
  readonly priceAux: string;
  readonly trailing: string;
  readonly ocoStop: string;
  readonly amount: string;
  readonly total: string;
  /** Which of amount and total the user typed last; the other follows it. */
  readonly anchor: "amount" | "total";
  readonly hidden: boolean;
  readonly postOnly: boolean;
  readonly reduceOnly: boolean;
  readonly oco: boolean;
  readonly tifOn: boolean;
  readonly tif: string;
  readonly leverage: string;
}

function initialDraft(): Draft {
  return {
    side: orderDraft.side,
    kind: "LIMIT",
    // Prices and amounts start empty: a figure left in the shared draft may belong to another pair.
    price: "",
    priceAux: "",
    trailing: "",
    ocoStop: "",
    amount: "",
    total: "",
    anchor: "amount",
    hidden: false,
    postOnly: false,
    reduceOnly: false,
    oco: false,
    tifOn: false,
    tif: "",
    leverage: String(settings.order_form_derivative_leverage),
  };
}

interface PendingConfirm {
  readonly request: OrderRequest;
  readonly side: OrderSide;
  readonly rows: readonly SummaryRow[];
  readonly title: string;
  readonly warn: Acknowledgements;
  readonly describe: string;
}

type Result = { readonly level: "success" | "error"; readonly text: string };

/** The order-form widget (WidgetProps from the desk grid), wired to the app's worker bridge. */
export function OrderForm(props: WidgetProps) {
  // A new pair starts a new form: a price typed for one market must never be sent to another.
  return <OrderFormPanel key={props.symbol} {...props} deps={appOrderFormDeps} />;
}

export const orderFormWidget: WidgetDef = {
  type: "order-form",
  title: msg`Order form`,
  component: OrderForm,
  // 24 px rows: 24 rows hold a limit order with OCO and TIF open without scrolling.
  defaultSize: { w: 6, h: 24 },
  minSize: { w: 4, h: 14 },
};

export interface OrderFormPanelProps extends WidgetProps {
  readonly deps: OrderFormDeps;
}

/** The order form itself, with its outside dependencies given (see OrderFormDeps). */
export function OrderFormPanel({ pair, symbol, deps }: OrderFormPanelProps) {
  const { t, i18n } = useLingui();
  const uid = useId();
  const ids = (field: string): string => `${uid}-${field}`;
  const s = useSnapshot(settings);
  const account = useSnapshot(accountStore);
  const parts = splitPair(pair) ?? { base: pair, quote: "" };
  const { base, quote: quoteCcy } = parts;
  const derivative = isDerivativePair(pair);
  // A variant without margin trades spot only, whatever the stored setting says.
  const marginOffered = deskOffers("margin");
  const context: TradeContext = derivative
    ? "derivative"
    : s.trade_type === "margin" && !marginOffered
      ? "exchange"
      : s.trade_type;

  const [draft, setDraft] = useState<Draft>(initialDraft);
  const [touched, setTouched] = useState<ReadonlySet<FormField>>(() => new Set());
  const [attempted, setAttempted] = useState(false);
  const [fromBook, setFromBook] = useState(false);
  const [quote, setQuote] = useState<MarketQuote>(NO_QUOTE);
  const [limitTable, setLimitTable] = useState<ReadonlyMap<string, PairLimits> | null>(null);
  const [confirm, setConfirm] = useState<PendingConfirm | null>(null);
  /** An order waiting for the derivatives terms (and the welcome) before its confirmation. */
  const [terms, setTerms] = useState<PendingConfirm | null>(null);
  const checkingTerms = useRef(false);
  const [pending, setPending] = useState(false);
  const [result, setResult] = useState<Result | null>(null);
  const [focusRequest, setFocusRequest] = useState<{ field: FormField; n: number } | null>(null);

  /** Focuses a field by its id (fields come and go with the order type, so no refs are kept). */
  const focusField = useCallback(
    (field: FormField): void => {
      const el = document.getElementById(`${uid}-${field}`);
      if (el instanceof HTMLInputElement) {
        el.focus();
        el.select();
      }
    },
    [uid],
  );

  // The quote: the first one at once, later ones coalesced to one React update a second however
  // fast the ticker runs.
  useEffect(() => {
    const controller = new AbortController();
    const timers = appScheduler.child();
    let latest: MarketQuote = NO_QUOTE;
    let first = true;
    let scheduled = false;
    deps.watchQuote(
      symbol,
      (q) => {
        latest = q;
        if (first) {
          first = false;
          setQuote(q);
          return;
        }
        if (scheduled) return;
        scheduled = true;
        timers.after(QUOTE_REFRESH_MS, () => {
          scheduled = false;
          setQuote(latest);
        });
      },
      controller.signal,
    );
    return () => {
      controller.abort();
      timers.dispose();
      setQuote(NO_QUOTE);
    };
  }, [deps, symbol]);

  useEffect(() => {
    let live = true;
    deps
      .loadLimits()
      .then((table) => live && setLimitTable(table))
      .catch((err: unknown) => log.warn("order form: pair limits unavailable", err));
    return () => {
      live = false;
    };
  }, [deps]);

  // Book and tape clicks (and shortcuts) write the shared draft and bump its seq. The draft starts
  // in step with the (empty) form, so a focus-only request does not bring back an older figure.
  useEffect(() => {
    mirrorDraft({ price: "", amount: "" });
    return subscribeKey(orderDraft, "seq", () => {
      const d = orderDraft;
      setDraft((prev) => {
        let next: Draft = { ...prev, side: d.side };
        if (d.price !== "" && d.price !== prev.price) {
          next = { ...next, price: d.price, kind: kindFields(prev.kind).price ? prev.kind : "LIMIT" };
        }
        if (d.amount !== "" && d.amount !== prev.amount) next = { ...next, amount: d.amount, anchor: "amount" };
        return next;
      });
      // A shortcut switching side or focusing a field is not an interactive-book order.
      if (d.origin === "book") setFromBook(true);
      setResult(null);
      if (d.focus) setFocusRequest((r) => ({ field: d.focus as FormField, n: (r?.n ?? 0) + 1 }));
    });
  }, []);

  useEffect(() => {
    if (!focusRequest) return;
    focusField(focusRequest.field);
  }, [focusRequest, focusField]);

  // --- derived values ---------------------------------------------------------------------------

  const base0: OrderFormValues = {
    side: draft.side,
    kind: draft.kind,
    context,
    price: draft.price,
    priceAux: draft.priceAux,
    trailing: draft.trailing,
    ocoStop: draft.ocoStop,
    amount: draft.amount,
    hidden: draft.hidden,
    postOnly: draft.postOnly,
    reduceOnly: draft.reduceOnly,
    oco: draft.oco,
    tifOn: draft.tifOn,
    tif: draft.tif,
    leverage: draft.leverage,
  };
  const amount = draft.anchor === "amount" ? draft.amount : amountForTotal(draft.total, base0, quote);
  const values: OrderFormValues = { ...base0, amount };
  const total = draft.anchor === "total" ? draft.total : totalForAmount(values, quote);
  const fields = kindFields(draft.kind);
  const leverage = Number(draft.leverage);
  // The collateral an order takes: its value over the leverage.
  const marginNeeded =
    derivative && total !== "" && Number.isFinite(leverage) && leverage >= LEVERAGE_MIN
      ? Number(total) / leverage
      : null;
  const balance = availableBalance(account.view, context, draft.side, symbol, base, quoteCcy, leverage);
  // Derivatives draw on the derivatives wallet (the margin wallet in the collateral currency).
  const collateral = derivative
    ? (account.view?.wallets.find((w) => w.type === WALLET_TYPE.MARGIN && w.currency === quoteCcy)?.available ?? null)
    : null;
  const limits = limitTable ? limitsFor(limitTable, pair) : DEFAULT_LIMITS;
  const env = { quote, balance, minAmount: limits.minAmount, maxAmount: limits.maxAmount };
  const validation = validateOrder(values, { ...env, now: deps.now() });
  const live = account.link === "live";

  // --- edits ------------------------------------------------------------------------------------

  const patch = (p: Partial<Draft>): void => {
    setDraft((d) => ({ ...d, ...p }));
    setResult(null);
    mirrorDraft(p);
  };
  const touch = (field: FormField): void => setTouched((prev) => (prev.has(field) ? prev : new Set(prev).add(field)));

  const setSide = (side: OrderSide): void => patch({ side });

  const onPercent = (pct: number): void => {
    const a = amountForPercent(values, pct, balance, quote);
    if (a === null) return;
    patch({ amount: a, anchor: "amount" });
    touch("amount");
  };

  const onLeverage = (text: string): void => {
    patch({ leverage: text });
    touch("leverage");
    const n = Number(text);
    if (/^\d+$/.test(text.trim()) && n >= LEVERAGE_MIN && n <= LEVERAGE_MAX)
      updateSetting("order_form_derivative_leverage", n);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLFormElement>): void => {
    // Alt+B / Alt+S switch the side from anywhere in the form (by key position, so any layout works).
    if (!e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.code === "KeyB") setSide("buy");
    else if (e.code === "KeyS") setSide("sell");
    else return;
    e.preventDefault();
  };

  // --- submit -----------------------------------------------------------------------------------

  const describeOrder = (v: OrderFormValues): string => {
    const kindLabel = i18n._(KIND_LABELS[v.kind]);
    const amountText = normalizeDecimal(v.amount);
    return v.side === "buy"
      ? t`Buy ${amountText} ${base} (${kindLabel})`
      : t`Sell ${amountText} ${base} (${kindLabel})`;
  };

  const summaryRows = (v: OrderFormValues, request: OrderRequest): SummaryRow[] => {
    const rows: SummaryRow[] = [];
    const dec = (x: string | undefined): string => (x === undefined ? "" : x.replace(/^-/, ""));
    rows.push({
      key: "side",
      label: t`Side`,
      value: <span className={css.sideText[v.side]}>{v.side === "buy" ? t`Buy` : t`Sell`}</span>,
    });
    rows.push({
      key: "type",
      label: t`Type`,
      value: `${i18n._(CONTEXT_LABELS[v.context])} · ${i18n._(KIND_LABELS[v.kind])}`,
    });
    rows.push({ key: "amount", label: t`Amount`, value: `${dec(request.amount)} ${base}` });
    if (quote.last !== null) rows.push({ key: "last", label: t`Last price`, value: `${quote.last} ${quoteCcy}` });
    if (v.kind === "MARKET") rows.push({ key: "price", label: t`Price`, value: t`Market` });
    if (request.price !== undefined) {
      const label = v.kind === "STOP" || v.kind === "STOP LIMIT" ? t`Stop price` : t`Price`;
      rows.push({ key: "price", label, value: `${request.price} ${quoteCcy}` });
    }
    if (request.priceAuxLimit !== undefined)
      rows.push({ key: "limit", label: t`Limit price`, value: `${request.priceAuxLimit} ${quoteCcy}` });
    if (request.priceTrailing !== undefined)
      rows.push({ key: "trailing", label: t`Trailing distance`, value: `${request.priceTrailing} ${quoteCcy}` });
    if (request.priceOcoStop !== undefined)
      rows.push({ key: "oco", label: t`OCO stop price`, value: `${request.priceOcoStop} ${quoteCcy}` });
    const totalValue = totalForAmount(v, quote);
    const approximate = v.kind === "MARKET" || v.kind === "TRAILING STOP";
    rows.push({
      key: "total",
      label: t`Total`,
      value: totalValue === "" ? "—" : `${approximate ? "≈ " : ""}${totalValue} ${quoteCcy}`,
    });
    const fee = feeEstimate(v, quote);
    const feeRate = `${(fee.rate * 100).toFixed(1)}%`;
    rows.push({
      key: "fee",
      label: t`Fee (estimate)`,
      value:
        fee.amount === null
          ? feeRate
          : `≈ ${formatQuote(fee.amount)} ${fee.in === "base" ? base : quoteCcy} (${feeRate})`,
    });
    const flagNames: string[] = [];
    if (fields.hidden && v.hidden) flagNames.push(t`Hidden`);
    if (fields.postOnly && v.postOnly) flagNames.push(t`Post-only`);
    if (v.context !== "exchange" && v.reduceOnly) flagNames.push(t`Reduce-only`);
    if (fields.oco && v.oco) flagNames.push(t`OCO`);
    if (flagNames.length > 0) rows.push({ key: "flags", label: t`Options`, value: flagNames.join(", ") });
    if (request.tif !== undefined) rows.push({ key: "tif", label: t`Cancel at`, value: `${request.tif} UTC` });
    if (request.lev !== undefined) rows.push({ key: "lev", label: t`Leverage`, value: `${request.lev}×` });
    return rows;
  };

  const onSubmit = (e: FormEvent<HTMLFormElement>): void => {
    e.preventDefault();
    if (pending || confirm || terms || checkingTerms.current) return;
    setAttempted(true);
    if (!live) return;
    // Checked again at the moment of submitting: a time-in-force can have passed since the render.
    const checked = validateOrder(values, { ...env, now: deps.now() });
    if (!checked.ok) {
      const first = firstInvalid(checked);
      if (first) focusField(first);
      return;
    }
    const request = buildOrderRequest(values, symbol);
    const next: PendingConfirm = {
      request,
      side: values.side,
      rows: summaryRows(values, request),
      title: values.side === "buy" ? t`Confirm buy order` : t`Confirm sell order`,
      warn: {
        stop: (isStopKind(values.kind) || (fields.oco && values.oco)) && !settings.ack_stop_order_warning,
        book: fromBook && !settings.ack_interactive_book_order_warning,
      },
      describe: describeOrder(values),
    };
    const gate = deps.derivTerms;
    if (context !== "derivative" || !gate) {
      setConfirm(next);
      return;
    }
    // A first derivatives order shows the terms and the welcome before its confirmation.
    checkingTerms.current = true;
    void gate
      .accepted()
      .then((ok) => (ok ? setConfirm(next) : setTerms(next)))
      .finally(() => {
        checkingTerms.current = false;
      });
  };

  const ackText = (ack: OrderAck, describe: string): string => {
    if (ack.ok) {
      const ids = ack.orderIds.join(", ");
      return ids === "" ? t`Order placed: ${describe}` : t`Order placed: ${describe} (ID ${ids})`;
    }
    switch (ack.localError) {
      case "not-authenticated":
        return t`Not signed in: sign in again to place orders.`;
      case "timeout":
        return t`The exchange did not answer in time. The order may still have been placed: check your open orders.`;
      case "socket-closed":
        return t`The connection closed before the exchange answered. Check your open orders before trying again.`;
      case null: {
        // The exchange knows the account's country; its refusal is told in the user's words.
        if (isSpainRefusal(ack.text)) return t`Derivatives trading is not available to residents of Spain.`;
        const reason = ack.text;
        return t`The exchange refused the order: ${reason}`;
      }
      default: {
        const never: never = ack.localError;
        return never;
      }
    }
  };

  const onConfirm = (dontShow: Acknowledgements): void => {
    const pendingOrder = confirm;
    if (!pendingOrder) return;
    if (dontShow.stop) updateSetting("ack_stop_order_warning", true);
    if (dontShow.book) updateSetting("ack_interactive_book_order_warning", true);
    setConfirm(null);
    setPending(true);
    setResult(null);
    void (async () => {
      let ack: OrderAck;
      try {
        ack = await deps.submit(pendingOrder.request);
      } catch (err) {
        log.error("order submit failed", err);
        ack = { ok: false, status: "LOCAL", text: String(err), orderIds: [], localError: "socket-closed" };
      }
      const text = ackText(ack, pendingOrder.describe);
      // A refusal for want of verification also opens the dialog that says which level and where.
      if (!ack.ok && ack.localError === null) showLevelGateFor(ack.text);
      setPending(false);
      setResult({ level: ack.ok ? "success" : "error", text });
      notify({ level: ack.ok ? "success" : "error", kind: "orders", text });
      if (ack.ok) {
        setFromBook(false);
        setAttempted(false);
        setTouched(new Set());
        // A placed order clears its amount (and the total that follows it), so a second click does not
        // send it again; `order_form_keep_amount` keeps it (docs/product-rules.md#other-keys). A refusal
        // never gets here: what was typed stays to be corrected.
        if (!settings.order_form_keep_amount) {
          setDraft((d) => ({ ...d, amount: "", total: "", anchor: "amount" }));
          mirrorDraft({ amount: "" });
        }
      }
    })();
  };

  // The setters are named as dependencies for the React Compiler, which does not prove them stable here.
  const cancelConfirm = useCallback(() => setConfirm(null), [setConfirm]);
  const cancelTerms = useCallback(() => setTerms(null), [setTerms]);

  // --- render -----------------------------------------------------------------------------------

  const show = (field: FormField): { error?: string; warning?: string } => {
    const error = validation.errors[field];
    const warning = validation.warnings[field];
    const visible = attempted || touched.has(field);
    return {
      ...(error && visible ? { error: i18n._(issueMessage(error)) } : {}),
      ...(warning ? { warning: i18n._(issueMessage(warning)) } : {}),
    };
  };

  const last = quote.last;
  const lastText = last === null ? "—" : String(last);
  const tifMs = draft.tifOn ? parseLocalDateTime(draft.tif) : null;
  const sideLabel = draft.side === "buy" ? t`Buy ${base}` : t`Sell ${base}`;
  const priceLabel = draft.kind === "STOP" || draft.kind === "STOP LIMIT" ? t`Stop price` : t`Price`;
  const approximateTotal = draft.kind === "MARKET" || draft.kind === "TRAILING STOP";
  const availableText = balance === null ? "—" : `${formatQuote(balance.amount)} ${balance.currency}`;

  return (
    <form
      className={css.root}
      onSubmit={onSubmit}
      onKeyDown={onKeyDown}
      noValidate
      aria-label={t`Order form, ${pair}`}
      data-testid="order-form"
    >
      {derivative ? (
        <div>
          <NumberField
            inline
            aside={<span className={css.contextBadge}>{i18n._(CONTEXT_LABELS.derivative)}</span>}
            id={ids("leverage")}
            label={t`Leverage`}
            unit="×"
            value={draft.leverage}
            onChange={onLeverage}
            onBlur={() => touch("leverage")}
            testId="leverage"
            inputMode="numeric"
            {...show("leverage")}
          />
          <div className={css.summaryLine}>
            <span className={css.message.note}>
              <Trans>Collateral</Trans>
            </span>
            <span className={css.mono} data-testid="collateral">
              {collateral === null ? "—" : `${formatQuote(collateral)} ${quoteCcy}`}
            </span>
          </div>
          {marginNeeded !== null && (
            <div className={css.summaryLine}>
              <span className={css.message.note}>
                <Trans>Margin</Trans>
              </span>
              <span className={css.mono} data-testid="margin-needed">
                {`${formatQuote(marginNeeded)} ${quoteCcy}`}
              </span>
            </div>
          )}
          {live && !(collateral !== null && collateral > 0) && (
            <p className={css.message.warning} data-testid="no-collateral">
              <Trans>Move USDt to your derivatives wallet to trade.</Trans>
            </p>
          )}
        </div>
      ) : marginOffered ? (
        <Segmented
          compact
          label={t`Trading context`}
          options={[
            { value: "exchange", label: i18n._(CONTEXT_LABELS.exchange), testId: "context-exchange" },
            { value: "margin", label: i18n._(CONTEXT_LABELS.margin), testId: "context-margin" },
          ]}
          value={context}
          onChange={(v) => updateSetting("trade_type", v)}
        />
      ) : null}

      <Segmented
        label={t`Side`}
        options={[
          { value: "buy", label: t`Buy`, testId: "side-buy", variant: "buy", keyShortcut: ALT_B },
          { value: "sell", label: t`Sell`, testId: "side-sell", variant: "sell", keyShortcut: ALT_S },
        ]}
        value={draft.side}
        onChange={(v) => setSide(v)}
      />

      <div className={css.field}>
        <label className={css.label} htmlFor={ids("kind")}>
          <Trans>Order type</Trans>
        </label>
        <select
          id={ids("kind")}
          className={css.select}
          value={draft.kind}
          data-testid="order-kind"
          onChange={(e) => patch({ kind: e.target.value as OrderKind })}
        >
          {ORDER_KINDS.map((k) => (
            <option key={k} value={k}>
              {i18n._(KIND_LABELS[k])}
            </option>
          ))}
        </select>
      </div>

      {fields.price && (
        <NumberField
          id={ids("price")}
          label={priceLabel}
          aside={
            <button
              type="button"
              className={css.linkButton}
              disabled={last === null}
              data-testid="use-last"
              title={t`Use the last price`}
              onClick={() => {
                if (last === null) return;
                patch({ price: String(last) });
                touch("price");
                setFromBook(false);
              }}
            >
              <Trans>Last {lastText}</Trans>
            </button>
          }
          unit={quoteCcy}
          value={draft.price}
          onChange={(v) => {
            patch({ price: v });
            touch("price");
            setFromBook(false);
          }}
          onBlur={() => touch("price")}
          testId="price"
          {...show("price")}
        />
      )}
      {fields.priceAux && (
        <NumberField
          id={ids("priceAux")}
          label={t`Limit price`}
          unit={quoteCcy}
          value={draft.priceAux}
          onChange={(v) => {
            patch({ priceAux: v });
            touch("priceAux");
          }}
          onBlur={() => touch("priceAux")}
          testId="price-aux"
          {...show("priceAux")}
        />
      )}
      {fields.trailing && (
        <NumberField
          id={ids("trailing")}
          label={t`Trailing distance`}
          aside={
            <span className={css.message.note}>
              <Trans>Last {lastText}</Trans>
            </span>
          }
          unit={quoteCcy}
          value={draft.trailing}
          onChange={(v) => {
            patch({ trailing: v });
            touch("trailing");
          }}
          onBlur={() => touch("trailing")}
          testId="trailing"
          {...show("trailing")}
        />
      )}
      {!fields.price && !fields.trailing && (
        <div className={css.summaryLine}>
          <span className={css.message.note}>
            <Trans>Last price</Trans>
          </span>
          <span className={css.mono} data-testid="last-price">
            {lastText}
          </span>
        </div>
      )}

      <NumberField
        id={ids("amount")}
        label={t`Amount`}
        aside={
          <span className={css.message.note} data-testid="available">
            <Trans>Available {availableText}</Trans>
          </span>
        }
        unit={base}
        value={amount}
        onChange={(v) => {
          patch({ amount: v, anchor: "amount" });
          touch("amount");
        }}
        onBlur={() => touch("amount")}
        testId="amount"
        {...show("amount")}
      />
      <div className={css.percents} role="group" aria-label={t`Share of the available balance`}>
        {PERCENTS.map((p) => (
          <button
            key={p}
            type="button"
            className={css.percent}
            data-testid={`percent-${p}`}
            disabled={amountForPercent(values, p, balance, quote) === null}
            onClick={() => onPercent(p)}
          >
            {p}%
          </button>
        ))}
      </div>
      <NumberField
        id={ids("total")}
        label={approximateTotal ? t`Total (estimate)` : t`Total`}
        unit={quoteCcy}
        value={total}
        onChange={(v) => {
          const computed = amountForTotal(v, values, quote);
          setDraft((d) => ({ ...d, total: v, anchor: "total" }));
          mirrorDraft({ amount: computed });
          setResult(null);
          touch("amount");
        }}
        testId="total"
      />

      <div className={css.options}>
        {fields.hidden && (
          <Check testId="flag-hidden" checked={draft.hidden} onChange={(v) => patch({ hidden: v })}>
            <Trans>Hidden</Trans>
          </Check>
        )}
        {fields.postOnly && (
          <Check testId="flag-post-only" checked={draft.postOnly} onChange={(v) => patch({ postOnly: v })}>
            <Trans>Post-only</Trans>
          </Check>
        )}
        {context !== "exchange" && (
          <Check testId="flag-reduce-only" checked={draft.reduceOnly} onChange={(v) => patch({ reduceOnly: v })}>
            <Trans>Reduce-only</Trans>
          </Check>
        )}
        {fields.oco && (
          <Check testId="flag-oco" checked={draft.oco} onChange={(v) => patch({ oco: v })}>
            <Trans>OCO</Trans>
          </Check>
        )}
        {fields.tif && (
          <Check testId="flag-tif" checked={draft.tifOn} onChange={(v) => patch({ tifOn: v })}>
            <Trans>Cancel at (TIF)</Trans>
          </Check>
        )}
      </div>
      {fields.oco && draft.oco && (
        <NumberField
          id={ids("ocoStop")}
          label={t`OCO stop price`}
          unit={quoteCcy}
          value={draft.ocoStop}
          onChange={(v) => {
            patch({ ocoStop: v });
            touch("ocoStop");
          }}
          onBlur={() => touch("ocoStop")}
          testId="oco-stop"
          {...show("ocoStop")}
        />
      )}
      {fields.tif && draft.tifOn && (
        <TextField
          id={ids("tif")}
          label={t`Cancel the order at (your local time)`}
          type="datetime-local"
          value={draft.tif}
          onChange={(v) => {
            patch({ tif: v });
            touch("tif");
          }}
          onBlur={() => touch("tif")}
          testId="tif"
          note={tifMs === null ? undefined : `${formatTif(tifMs)} UTC`}
          {...show("tif")}
        />
      )}

      {live ? (
        <button
          type="submit"
          className={css.submitButton[draft.side]}
          disabled={pending}
          aria-busy={pending}
          data-testid="submit-order"
        >
          {pending ? t`Placing order…` : sideLabel}
        </button>
      ) : (
        <SignIn authenticating={account.link === "authenticating"} back={deps.currentPath()} />
      )}
      {attempted && live && !validation.ok && (
        <p className={css.message.error} role="alert" data-testid="form-invalid">
          <Trans>Check the highlighted fields.</Trans>
        </p>
      )}
      {result && (
        <p
          className={css.result[result.level]}
          role={result.level === "error" ? "alert" : "status"}
          data-testid="order-result"
        >
          {result.text}
        </p>
      )}
      {terms && deps.derivTerms && (
        <DerivTermsDialog
          onAccept={() => deps.derivTerms?.accept(deps.now()) ?? Promise.resolve(false)}
          onDone={() => {
            setConfirm(terms);
            setTerms(null);
          }}
          onCancel={cancelTerms}
        />
      )}
      {confirm && (
        <ConfirmDialog
          title={confirm.title}
          side={confirm.side}
          rows={confirm.rows}
          warn={confirm.warn}
          onConfirm={onConfirm}
          onCancel={cancelConfirm}
        />
      )}
    </form>
  );
}

function SignIn({ authenticating, back }: { readonly authenticating: boolean; readonly back: string }) {
  if (authenticating)
    return (
      <div className={css.signIn} role="status" data-testid="order-sign-in">
        <Trans>Connecting to your account…</Trans>
      </div>
    );
  const href = `${LOGIN_PATH}?${new URLSearchParams({ back }).toString()}`;
  return (
    <div className={css.signIn} data-testid="order-sign-in">
      <span>
        <Trans>Sign in to place orders.</Trans>
      </span>
      <a className={css.signInLink} href={href} data-testid="sign-in-link">
        <Trans>Sign in</Trans>
      </a>
    </div>
  );
}

interface FieldProps {
  readonly id: string;
  readonly label: string;
  readonly aside?: ReactNode;
  readonly value: string;
  readonly onChange: (value: string) => void;
  readonly onBlur?: () => void;
  readonly testId: string;
  readonly error?: string;
  readonly warning?: string;
  readonly note?: string | undefined;
}

function Messages({ id, error, warning, note }: Pick<FieldProps, "id" | "error" | "warning" | "note">) {
  return (
    <>
      {error && (
        <p id={`${id}-error`} className={css.message.error} data-testid="field-error">
          {error}
        </p>
      )}
      {warning && (
        <p id={`${id}-warning`} className={css.message.warning} data-testid="field-warning">
          {warning}
        </p>
      )}
      {note && (
        <p id={`${id}-note`} className={css.message.note}>
          {note}
        </p>
      )}
    </>
  );
}

function describedBy(p: Pick<FieldProps, "id" | "error" | "warning" | "note">): string | undefined {
  const list = [p.error && `${p.id}-error`, p.warning && `${p.id}-warning`, p.note && `${p.id}-note`].filter(Boolean);
  return list.length > 0 ? list.join(" ") : undefined;
}

function NumberField(
  props: FieldProps & {
    readonly unit: string;
    readonly inputMode?: "decimal" | "numeric";
    /** Label and a short input on one row (the leverage). */
    readonly inline?: boolean;
  },
) {
  const control = (
    <div className={props.inline ? css.inlineInput : css.inputWrap}>
      <input
        id={props.id}
        className={css.input}
        // The unit sits inside the input's right edge: leave it room however long the currency code is.
        style={{ paddingRight: `${props.unit.length * 7 + 18}px` }}
        type="text"
        inputMode={props.inputMode ?? "decimal"}
        autoComplete="off"
        spellCheck={false}
        value={props.value}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={describedBy(props)}
        data-testid={props.testId}
        onChange={(e) => props.onChange(e.target.value)}
        onBlur={props.onBlur}
      />
      <span className={css.unit} aria-hidden="true">
        {props.unit}
      </span>
    </div>
  );
  return (
    <div className={css.field}>
      {props.inline ? (
        <div className={css.inlineField}>
          {props.aside}
          <label htmlFor={props.id}>{props.label}</label>
          {control}
        </div>
      ) : (
        <>
          <div className={css.label}>
            <label htmlFor={props.id}>{props.label}</label>
            {props.aside}
          </div>
          {control}
        </>
      )}
      <Messages {...props} />
    </div>
  );
}

function TextField(props: FieldProps & { readonly type: "datetime-local" }) {
  return (
    <div className={css.field}>
      <label className={css.label} htmlFor={props.id}>
        {props.label}
      </label>
      <input
        id={props.id}
        className={css.plainInput}
        type={props.type}
        step={1}
        value={props.value}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={describedBy(props)}
        data-testid={props.testId}
        onChange={(e) => props.onChange(e.target.value)}
        onBlur={props.onBlur}
      />
      <Messages {...props} />
    </div>
  );
}

function Check(props: {
  readonly checked: boolean;
  readonly onChange: (checked: boolean) => void;
  readonly testId: string;
  readonly children: ReactNode;
}) {
  return (
    <label className={css.check}>
      <input
        type="checkbox"
        checked={props.checked}
        data-testid={props.testId}
        onChange={(e) => props.onChange(e.target.checked)}
      />
      {props.children}
    </label>
  );
}

interface SegmentOption<V extends string> {
  readonly value: V;
  readonly label: string;
  readonly testId: string;
  readonly variant?: "buy" | "sell";
  readonly keyShortcut?: string;
}

/** A radio group drawn as a segmented control: arrow keys move and select, as WAI-ARIA's radio group. */
function Segmented<V extends string>(props: {
  readonly label: string;
  readonly options: readonly SegmentOption<V>[];
  readonly value: V;
  readonly onChange: (value: V) => void;
  /** Smaller: for the trading context, which changes far less often than the side. */
  readonly compact?: boolean;
}) {
  const refs = useRef<(HTMLButtonElement | null)[]>([]);
  const onKey = (e: KeyboardEvent<HTMLDivElement>): void => {
    const step =
      e.key === "ArrowRight" || e.key === "ArrowDown" ? 1 : e.key === "ArrowLeft" || e.key === "ArrowUp" ? -1 : 0;
    if (step === 0) return;
    e.preventDefault();
    const at = props.options.findIndex((o) => o.value === props.value);
    const next = (at + step + props.options.length) % props.options.length;
    const option = props.options[next];
    if (!option) return;
    props.onChange(option.value);
    refs.current[next]?.focus();
  };
  return (
    <div
      className={props.compact ? css.segmentedCompact : css.segmented}
      role="radiogroup"
      aria-label={props.label}
      onKeyDown={onKey}
    >
      {props.options.map((o, i) => {
        const checked = o.value === props.value;
        return (
          <button
            key={o.value}
            ref={(el) => {
              refs.current[i] = el;
            }}
            type="button"
            role="radio"
            aria-checked={checked}
            tabIndex={checked ? 0 : -1}
            className={css.segment[o.variant ?? "plain"]}
            data-testid={o.testId}
            aria-keyshortcuts={o.keyShortcut}
            onClick={() => props.onChange(o.value)}
          >
            {o.label}
          </button>
        );
      })}
    </div>
  );
}
