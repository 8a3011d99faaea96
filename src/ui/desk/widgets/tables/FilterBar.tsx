import { useLingui } from "@lingui/react/macro";
import { settings, updateSetting } from "../../../settings/store";
import { useOrderWords } from "../../order-words";
import { ALL, CURRENT_PAIR, STATUS_FILTERS, withOrderFilter, type OrderFilters } from "./filters";
import { displayPair } from "./format";
import * as css from "./tables.css";

/**
 * Pair, side, context and (for order history) status filters. Pair/status/context are written to
 * `order_filters`, the side to `orders_filter`, so every account table on the desk filters alike.
 */
export function FilterBar(props: {
  readonly filters: OrderFilters;
  readonly status?: boolean;
  /** The exchange / margin selector; off for positions, which are all margin. */
  readonly context?: boolean;
}) {
  const { t } = useLingui();
  const words = useOrderWords();
  const f = props.filters;
  const setFilter = (key: "pair" | "status" | "type", value: string): void => {
    updateSetting("order_filters", withOrderFilter(settings.order_filters, key, value));
  };
  return (
    <>
      <select
        className={css.select}
        aria-label={t`Pair filter`}
        data-testid="filter-pair"
        value={f.pair}
        onChange={(e) => setFilter("pair", e.currentTarget.value)}
      >
        <option value={CURRENT_PAIR}>{t`This market`}</option>
        <option value={ALL}>{t`All markets`}</option>
        {f.pair !== CURRENT_PAIR && f.pair !== ALL && <option value={f.pair}>{displayPair(f.pair)}</option>}
      </select>
      <select
        className={css.select}
        aria-label={t`Side filter`}
        data-testid="filter-side"
        value={f.side}
        onChange={(e) => updateSetting("orders_filter", e.currentTarget.value)}
      >
        <option value="all">{t`Both sides`}</option>
        <option value="buy">{words.side("buy")}</option>
        <option value="sell">{words.side("sell")}</option>
      </select>
      {props.context !== false && (
        <select
          className={css.select}
          aria-label={t`Context filter`}
          data-testid="filter-context"
          value={f.context}
          onChange={(e) => setFilter("type", e.currentTarget.value)}
        >
          <option value={ALL}>{t`Exchange + margin`}</option>
          <option value="exchange">{t`Exchange`}</option>
          <option value="margin">{t`Margin`}</option>
        </select>
      )}
      {props.status === true && (
        <select
          className={css.select}
          aria-label={t`Status filter`}
          data-testid="filter-status"
          value={f.status}
          onChange={(e) => setFilter("status", e.currentTarget.value)}
        >
          <option value={ALL}>{t`Any status`}</option>
          {STATUS_FILTERS.filter((v) => v !== ALL).map((v) => (
            <option key={v} value={v}>
              {words.status(v)}
            </option>
          ))}
        </select>
      )}
    </>
  );
}
