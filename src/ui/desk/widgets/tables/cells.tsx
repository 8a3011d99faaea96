import { Trans } from "@lingui/react/macro";
import type { Order } from "../../../../protocol";
import { visuallyHidden } from "../../../shell/shell.css";
import { useOrderWords } from "../../order-words";
import { filledFraction } from "./columns";
import { formatAmount, formatPercentValue } from "./format";
import * as css from "./tables.css";

/**
 * A signed amount coloured by side with the colour scheme's up (buy) and down (sell); the side is
 * also said in words (hover, screen readers), since colour alone does not tell it to everyone.
 */
export function SideAmount(props: { readonly value: number }) {
  const words = useOrderWords();
  const side = words.side(props.value);
  return (
    <span className={props.value > 0 ? css.up : css.down} title={side}>
      {formatAmount(props.value)}
      <span className={visuallyHidden}> {side}</span>
    </span>
  );
}

/** Profit up-coloured, loss down-coloured, zero plain. */
export function Signed(props: { readonly value: number | null; readonly text: string }) {
  const cls = props.value === null || props.value === 0 ? undefined : props.value > 0 ? css.up : css.down;
  return <span className={cls}>{props.text}</span>;
}

/** The order's type in words ("Limit", "OCO Stop"), its context (exchange / margin) on hover. */
export function OrderType(props: { readonly order: Order }) {
  const o = props.order;
  const words = useOrderWords();
  return (
    <>
      <span title={words.context(o.type)}>{words.type(o.type, { oco: o.isOco })}</span>
      {o.hidden && (
        <span className={css.badge}>
          <Trans>hidden</Trans>
        </span>
      )}
    </>
  );
}

export function Filled(props: { readonly order: Order }) {
  const f = filledFraction(props.order);
  return (
    <span className={css.fill}>
      {formatPercentValue(f)}
      <span className={css.fillBar} aria-hidden="true">
        <span className={css.fillBarInner} style={{ width: `${f * 100}%`, display: "block" }} />
      </span>
    </span>
  );
}

/** The order's status in words ("Partially filled"); the exchange's full text (fills, history) on hover. */
export function OrderStatus(props: { readonly status: string }) {
  const words = useOrderWords();
  return <span title={props.status}>{words.status(props.status)}</span>;
}
