import { Trans } from "@lingui/react/macro";
import type { Order } from "../../../../protocol";
import { filledFraction } from "./columns";
import { formatAmount, formatPercentValue } from "./format";
import * as css from "./tables.css";

/** A signed amount coloured by side with the colour scheme's up (buy) and down (sell). */
export function SideAmount(props: { readonly value: number }) {
  return <span className={props.value > 0 ? css.up : css.down}>{formatAmount(props.value)}</span>;
}

/** Profit up-coloured, loss down-coloured, zero plain. */
export function Signed(props: { readonly value: number | null; readonly text: string }) {
  const cls = props.value === null || props.value === 0 ? undefined : props.value > 0 ? css.up : css.down;
  return <span className={cls}>{props.text}</span>;
}

export function OrderType(props: { readonly order: Order }) {
  const o = props.order;
  return (
    <>
      {o.type_value}
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
