/**
 * What the desk tells about the account as it changes: one notice per order that follows its fills
 * (order-fills.ts), and the exchange's own notifications (exchange-notices.ts). Both read the
 * account view the worker reconciles; both start from the view the desk opened with, so nothing
 * from before is told again.
 */
import { useLingui } from "@lingui/react/macro";
import { useCallback, useEffect, useRef } from "react";
import { useSnapshot } from "valtio";
import { toSignificant } from "../../protocol";
import { accountStore } from "../desk/account-store";
import { notices, notify } from "../desk/notices";
import { displayPair, formatAmount } from "../desk/widgets/tables/format";
import { appScheduler, type Cancel } from "../scheduler";
import { ExchangeNoticeTracker, exchangeNoticeKind, exchangeNoticeText, isOrderRequest } from "./exchange-notices";
import { FillTracker, type OrderFills } from "./order-fills";

/**
 * How long an answer to an order request waits for the desk's own notice of the same answer (the
 * form's "Order placed", the table's "cancellation submitted"): the worker hands the desk the answer
 * and the account view in separate messages, in either order, a few milliseconds apart.
 */
const OWN_ANSWER_GRACE_MS = 400;
/** A desk notice this close to the exchange's answer is taken as the desk's telling of it. */
const OWN_ANSWER_WINDOW_MS = 2000;

/** The text of an order's fills notice. */
function useFillText(): (f: OrderFills) => string {
  const { t } = useLingui();
  return useCallback(
    (f: OrderFills): string => {
      const pair = displayPair(f.pair);
      const filled = formatAmount(f.filled);
      const price = toSignificant(f.averagePrice);
      if (!f.settled && f.amount !== null) {
        const amount = formatAmount(f.amount);
        return f.side === "buy"
          ? t`Buying ${pair}: ${filled} of ${amount} filled, average ${price}`
          : t`Selling ${pair}: ${filled} of ${amount} filled, average ${price}`;
      }
      return f.side === "buy"
        ? t`Bought ${filled} ${pair}, average ${price}`
        : t`Sold ${filled} ${pair}, average ${price}`;
    },
    [t],
  );
}

/** One notice per order, updated as its fills arrive and once more when it settles. */
export function useOrderFillNotices(): void {
  const view = useSnapshot(accountStore).view;
  const tracker = useRef<FillTracker | null>(null);
  const text = useFillText();
  useEffect(() => {
    if (!view) {
      tracker.current = null;
      return;
    }
    tracker.current ??= new FillTracker();
    for (const f of tracker.current.update(view)) {
      notify({ level: "success", kind: "trades", text: text(f), key: `fills:${f.orderId}` });
    }
  }, [view, text]);
}

/** The exchange's notifications as notices, skipping answers the desk already told. */
export function useExchangeNotices(): void {
  const { i18n } = useLingui();
  const view = useSnapshot(accountStore).view;
  const tracker = useRef<ExchangeNoticeTracker | null>(null);
  /** Ids of the notices told here, so they are not taken for the desk's own. */
  const ours = useRef(new Set<number>());
  const waits = useRef(new Set<Cancel>());
  useEffect(
    () => () => {
      for (const cancel of waits.current) cancel();
      waits.current.clear();
    },
    [],
  );
  useEffect(() => {
    if (!view) {
      tracker.current = null;
      return;
    }
    tracker.current ??= new ExchangeNoticeTracker();
    for (const n of tracker.current.update(view.notifications)) {
      const tell = (): void => {
        const told = notify({ level: n.level, kind: exchangeNoticeKind(n), text: exchangeNoticeText(i18n, n) });
        if (told) ours.current.add(told.id);
      };
      if (!isOrderRequest(n.type)) {
        tell();
        continue;
      }
      const arrived = appScheduler.now();
      const cancel = appScheduler.after(OWN_ANSWER_GRACE_MS, () => {
        waits.current.delete(cancel);
        const toldByDesk = notices.history.some(
          (x) => x.kind === "orders" && !ours.current.has(x.id) && x.mts >= arrived - OWN_ANSWER_WINDOW_MS,
        );
        if (!toldByDesk) tell();
      });
      waits.current.add(cancel);
    }
  }, [view, i18n]);
}
