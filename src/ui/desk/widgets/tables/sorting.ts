/**
 * Table sorting, framework-free: per-table column keys, the comparator, and the `tables_sorting`
 * setting's value form (`column-asc` / `column-desc`, docs/product-rules.md#settings-values). A
 * stored value that is not of that form, or names a column the table does not have, is ignored and
 * the table's default applies.
 */
import { parseTableSorting, type TableSorting } from "../../../../protocol";

/** A sortable value: numbers compare numerically, strings by locale, null always last. */
export type SortValue = number | string | null;

export type SortKeys<Row> = Readonly<Record<string, (row: Row) => SortValue>>;

export function compareValues(a: SortValue, b: SortValue): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? 1 : -1;
  if (typeof a === "number" && typeof b === "number") return a === b ? 0 : a < b ? -1 : 1;
  return String(a).localeCompare(String(b));
}

/**
 * Sorts a copy of `rows`. Ties keep their incoming order (Array.prototype.sort is stable), so a
 * newest-first feed stays newest-first within equal keys. Nulls stay last in both directions.
 */
export function sortRows<Row>(rows: readonly Row[], keys: SortKeys<Row>, sorting: TableSorting | null): Row[] {
  const out = rows.slice();
  if (!sorting) return out;
  const key = keys[sorting.column];
  if (!key) return out;
  const sign = sorting.direction === "asc" ? 1 : -1;
  out.sort((ra, rb) => {
    const a = key(ra);
    const b = key(rb);
    if (a === null || b === null) return compareValues(a, b);
    return sign * compareValues(a, b);
  });
  return out;
}

/** The table's sorting from the setting, or null when absent, malformed or for an unknown column. */
export function readSorting(
  stored: Readonly<Record<string, string>> | undefined,
  tableId: string,
  columns: readonly string[],
): TableSorting | null {
  const parsed = parseTableSorting(stored?.[tableId]);
  return parsed && columns.includes(parsed.column) ? parsed : null;
}

/** A header click: a new column starts ascending; the same column toggles asc ↔ desc. */
export function nextSorting(current: TableSorting | null, column: string): TableSorting {
  if (current?.column === column) return { column, direction: current.direction === "asc" ? "desc" : "asc" };
  return { column, direction: "asc" };
}

export function formatSorting(sorting: TableSorting): string {
  return `${sorting.column}-${sorting.direction}`;
}

/**
 * The `tables_sorting` record with this table's entry replaced. Other tables' valid entries are
 * kept; malformed ones are dropped, because the setting refuses a record holding any of them and the
 * click would otherwise be lost.
 */
export function withSorting(
  stored: Readonly<Record<string, string>> | undefined,
  tableId: string,
  sorting: TableSorting,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [id, value] of Object.entries(stored ?? {})) if (parseTableSorting(value)) out[id] = value;
  out[tableId] = formatSorting(sorting);
  return out;
}

export function ariaSort(sorting: TableSorting | null, column: string): "ascending" | "descending" | "none" {
  if (sorting?.column !== column) return "none";
  return sorting.direction === "asc" ? "ascending" : "descending";
}
