import { Trans } from "@lingui/react/macro";
import { useMemo, useState, type ReactNode } from "react";
import { useSnapshot } from "valtio";
import { settings, updateSetting } from "../../../settings/store";
import { DEFAULT_SORTING, type TableId } from "./columns";
import { ariaSort, nextSorting, readSorting, sortRows, withSorting, type SortKeys } from "./sorting";
import * as css from "./tables.css";

function classes(...names: readonly (string | false)[]): string {
  return names.filter((n) => n !== false).join(" ");
}

export interface Column<Row> {
  readonly id: string;
  readonly label: ReactNode;
  /** Numbers align to the end so digits line up. */
  readonly align?: "start" | "end";
  /** Keeps the column in view at the right edge when the table scrolls sideways (row actions). */
  readonly pinEnd?: boolean;
  readonly render: (row: Row) => ReactNode;
}

export interface SortableTableProps<Row> {
  readonly tableId: TableId;
  readonly columns: readonly Column<Row>[];
  readonly rows: readonly Row[];
  readonly sortKeys: SortKeys<Row>;
  readonly rowKey: (row: Row) => string | number;
  readonly empty: ReactNode;
  /** Shown under the rows once every loaded row is visible (e.g. "load older"). */
  readonly footer?: ReactNode;
}

/**
 * A sortable account table. Sorting lives in the `tables_sorting` setting (`column-asc|desc`); a
 * stored value of any other form is ignored. At most `orders_display_limit` rows show until
 * "show more" reveals the next batch. The rows are low-rate account records, so plain DOM rows are
 * enough; the limit keeps the table short.
 */
export function SortableTable<Row>(props: SortableTableProps<Row>) {
  const s = useSnapshot(settings);
  const columnIds = useMemo(() => Object.keys(props.sortKeys), [props.sortKeys]);
  const stored = readSorting(s.tables_sorting, props.tableId, columnIds);
  const sorting = stored ?? DEFAULT_SORTING[props.tableId];
  // Account tables are low-rate and a few hundred rows at most: sorting on render costs less than
  // keeping a memo in step with the setting.
  const sorted = sortRows(props.rows, props.sortKeys, sorting);
  const [extra, setExtra] = useState(0);
  const visible = s.orders_display_limit + extra;
  const shown = sorted.length > visible ? sorted.slice(0, visible) : sorted;
  const hidden = sorted.length - shown.length;

  const sortBy = (column: string): void => {
    const next = nextSorting(stored, column);
    updateSetting("tables_sorting", withSorting(settings.tables_sorting, props.tableId, next));
  };

  return (
    <div className={css.scroller}>
      <table className={css.table} data-testid={`table-${props.tableId}`}>
        <thead>
          <tr>
            {props.columns.map((c) => {
              const end = c.align === "end";
              const sortable = columnIds.includes(c.id);
              const order = ariaSort(sorting, c.id);
              return (
                <th
                  key={c.id}
                  scope="col"
                  className={classes(css.th, end && css.thEnd, c.pinEnd === true && css.pinEndHead)}
                  aria-sort={sortable ? order : undefined}
                  data-column={c.id}
                >
                  {sortable ? (
                    <button type="button" className={css.sortButton} onClick={() => sortBy(c.id)}>
                      {c.label}
                      {order !== "none" && (
                        <span className={css.sortMark} aria-hidden="true">
                          {order === "ascending" ? "▲" : "▼"}
                        </span>
                      )}
                    </button>
                  ) : (
                    <span className={css.headLabel}>{c.label}</span>
                  )}
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>
          {shown.map((row) => (
            <tr key={props.rowKey(row)} data-row={props.rowKey(row)}>
              {props.columns.map((c) => (
                <td
                  key={c.id}
                  className={classes(css.td, c.align === "end" && css.tdEnd, c.pinEnd === true && css.pinEnd)}
                >
                  {c.render(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      {sorted.length === 0 && <div className={css.empty}>{props.empty}</div>}
      {(sorted.length > shown.length || props.footer) && (
        <div className={css.footer}>
          {sorted.length > shown.length && (
            <button
              type="button"
              className={css.button.plain}
              data-testid="show-more"
              onClick={() => setExtra(extra + settings.orders_display_limit)}
            >
              <Trans>Show more ({hidden})</Trans>
            </button>
          )}
          {sorted.length <= shown.length && props.footer}
        </div>
      )}
    </div>
  );
}
