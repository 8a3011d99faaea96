/**
 * The account's closed positions (docs/protocol.md#history-paging and #history-exports):
 * `r/positions[/SYM]/hist`, walked by the time each closed (then its id), and the streamed CSV
 * export `r/positions[/SYM]/export`. Paging and streaming are history-pages.ts's. A closed position
 * reports the largest size it reached and the P/L that settled into the margin wallet over its life
 * (positions.ts keeps both); a position closed before they were kept reports 0 for them.
 */
import {
  parseSymbol,
  POSITION_CSV_HEADER,
  positionCodec,
  unitsToDecimal,
  type RangeQuery,
} from "../../src/protocol/index.ts";
import { fromUnits, type Db } from "../store/db.ts";
import {
  csvExport,
  exportName,
  keysetPage,
  type Condition,
  type KeysetSource,
  type StreamedBody,
} from "./history-pages.ts";
import type { PositionRow } from "./positions.ts";

const CLOSED_POSITIONS: KeysetSource = { table: "positions", time: "mts_update", id: "id" };

/** The index the newest-first walk uses (Positions runs this when it opens). */
export function migratePositionHistory(db: Db): void {
  db.exec(
    "CREATE INDEX IF NOT EXISTS positions_user_hist ON positions (user_id, mts_update DESC, id DESC) WHERE open = 0",
  );
}

export function closedPositionPage(db: Db, userId: number, symbol: string | null, q: RangeQuery): PositionRow[] {
  const conditions: Condition[] = [["user_id = ?", userId], ["open = 0"]];
  if (symbol !== null) conditions.push(["symbol = ?", symbol]);
  return keysetPage<PositionRow>(db, CLOSED_POSITIONS, conditions, q);
}

/** The size a closed position reports: its largest, else (kept before that was) what it held. */
function sizeOf(r: PositionRow): number {
  return r.peak !== 0 ? r.peak : r.amount;
}

/** A closed position in Bitfinex's position record: no mark, so no liquidation price or leverage. */
export function closedPositionWire(r: PositionRow): unknown[] {
  const amount = fromUnits(sizeOf(r));
  const pl = fromUnits(r.pl_realized);
  const notional = Math.abs(amount) * r.base_price;
  return positionCodec.encode({
    pair: r.symbol,
    status: r.status,
    amount,
    basePrice: r.base_price,
    // A cost, so negative: what its loans charged.
    swap: 0 - fromUnits(r.swap),
    swapType: 0,
    pl,
    plPercent: notional > 0 ? Number(((pl / notional) * 100).toFixed(4)) : 0,
    liqPrice: null,
    leverage: null,
    id: r.id,
    mtsCreate: r.mts_create,
    mtsUpdate: r.mts_update,
    posType: 0,
    collateral: 0,
    minCollateral: 0,
    maxCollateral: null,
  });
}

/** The closed positions' CSV over `q`'s range (history-pages.ts streams it). */
export function positionsCsv(db: Db, userId: number, symbol: string | null, q: RangeQuery, now: number): StreamedBody {
  return csvExport<PositionRow>({
    filename: exportName("positions", symbol, now),
    header: POSITION_CSV_HEADER,
    q,
    page: (page) => closedPositionPage(db, userId, symbol, page),
    cursor: (r) => ({ end: r.mts_update, endId: r.id }),
    line: (r) => {
      const info = parseSymbol(r.symbol);
      const size = sizeOf(r);
      return [
        String(r.id),
        new Date(r.mts_create).toISOString(),
        new Date(r.mts_update).toISOString(),
        r.symbol,
        size < 0 ? "short" : "long",
        unitsToDecimal(size),
        String(r.base_price),
        unitsToDecimal(r.pl_realized),
        info?.kind === "trading" ? info.quote : "",
        r.status,
      ];
    },
  });
}
