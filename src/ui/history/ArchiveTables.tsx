/**
 * The archive's tables (src/pages/ArchivePage.tsx): closed orders, own trades, closed positions and
 * funding records, each row read through its record's codec upstream (src/ui/history/archive.ts),
 * with the words they show.
 */
import { useLingui } from "@lingui/react/macro";
import { parseSymbol, type AuthTrade, type Order, type Position } from "../../protocol";
import * as css from "../../pages/archive.css";
import * as table from "../../pages/reports.css";
import { displayPair } from "../desk/widgets/tables/format";
import type { ArchiveRows, ArchiveTab, FundingKind, FundingRecord } from "./archive";

/**
 * The status without its details: "EXECUTED @ 100(1): was …", a funding offer's "EXECUTED at
 * 0.02% (200.0)" → "EXECUTED"; a credit's "CLOSED (expired)" → "CLOSED".
 */
function statusKind(status: string): string {
  const cut = status.search(/ @| at | \(|:| was /);
  return (cut < 0 ? status : status.slice(0, cut)).trim();
}

export function useArchiveWords() {
  const { t } = useLingui();
  const tab = (k: ArchiveTab): string => {
    switch (k) {
      case "orders":
        return t`Orders`;
      case "trades":
        return t`Trades`;
      case "positions":
        return t`Positions`;
      case "funding":
        return t`Funding`;
      default: {
        const never: never = k;
        return never;
      }
    }
  };
  const status = (raw: string): string => {
    switch (statusKind(raw)) {
      case "EXECUTED":
        return t`Executed`;
      case "PARTIALLY FILLED":
        return t`Partially filled`;
      case "CANCELED":
        return t`Cancelled`;
      case "ACTIVE":
        return t`Active`;
      case "CLOSED":
        return t({ message: "Closed", context: "position status" });
      default:
        // Other statuses (INSUFFICIENT MARGIN, RSN_POS_REDUCE_FLIP, …) are the exchange's own words.
        return raw;
    }
  };
  const side = (amount: number): string => (amount < 0 ? t`Sell` : t`Buy`);
  const liquidity = (maker: boolean): string => (maker ? t`Maker` : t`Taker`);
  const direction = (amount: number): string => (amount < 0 ? t`Short` : t`Long`);
  const closing = (raw: string): string =>
    raw === "LIQUIDATED"
      ? t`Liquidated`
      : raw === "CLOSED"
        ? t({ message: "Closed", context: "position status" })
        : raw;
  const funding = (k: FundingKind): string => {
    switch (k) {
      case "offers":
        return t`Offers`;
      case "credits":
        return t`Credits`;
      case "loans":
        return t`Loans`;
      case "trades":
        return t`Funding trades`;
      default: {
        const never: never = k;
        return never;
      }
    }
  };
  return { tab, status, side, liquidity, direction, closing, funding };
}

export type ArchiveWords = ReturnType<typeof useArchiveWords>;

interface Formats {
  readonly date: (mts: number) => string;
  readonly number: (n: number | null) => string;
  readonly price: (n: number | null) => string;
  readonly words: ArchiveWords;
}

/** The table of a page of the archive, by its tab. */
export function ArchiveTable({ rows, ...formats }: Formats & { readonly rows: ArchiveRows }) {
  switch (rows.tab) {
    case "orders":
      return <OrdersTable rows={rows.rows} {...formats} />;
    case "trades":
      return <TradesTable rows={rows.rows} {...formats} />;
    case "positions":
      return <PositionsTable rows={rows.rows} {...formats} />;
    default:
      return <FundingTable rows={rows.rows} {...formats} />;
  }
}

interface TableProps<T> extends Formats {
  readonly rows: readonly T[];
}

function Side({ amount, text }: { readonly amount: number; readonly text: string }) {
  return <span className={`${css.side} ${amount < 0 ? table.debit : table.credit}`}>{text}</span>;
}

function When({ mts, text }: { readonly mts: number; readonly text: string }) {
  return <time dateTime={new Date(mts).toISOString()}>{text}</time>;
}

/** Closed orders: when each closed, its pair, type, side and size, prices and how it ended. */
function OrdersTable({ rows, date, number, price, words }: TableProps<Order>) {
  const { t } = useLingui();
  return (
    <table className={table.table} data-testid="archive-table">
      <thead className={table.thead}>
        <tr>
          <th className={table.th}>{t`Date`}</th>
          <th className={table.th}>{t`Pair`}</th>
          <th className={table.th}>{t`Type`}</th>
          <th className={table.thNum}>{t`Amount`}</th>
          <th className={table.thNum}>{t`Price`}</th>
          <th className={table.thNum}>{t`Avg. price`}</th>
          <th className={table.th}>{t`Status`}</th>
        </tr>
      </thead>
      <tbody className={table.tbody}>
        {rows.map((o) => (
          <tr key={o.id} className={table.tr} data-id={o.id}>
            <td className={table.date}>
              <When mts={o.mts_update} text={date(o.mts_update)} />
            </td>
            <td className={table.where}>{displayPair(o.symbol)}</td>
            <td className={table.where}>{o.type}</td>
            <td className={table.amount}>
              <Side amount={o.original_amount} text={words.side(o.original_amount)} />{" "}
              {number(Math.abs(o.original_amount))}
            </td>
            <td className={`${table.balance} ${css.labelled}`} data-label={t`Price`}>
              {price(o.price)}
            </td>
            <td className={`${table.balance} ${css.labelled}`} data-label={t`Avg. price`}>
              {price(o.price_average || null)}
            </td>
            <td className={table.description} title={o.status}>
              {words.status(o.status)}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Own trades: when, the pair, side and size, the price, the fee in its currency, maker or taker. */
function TradesTable({ rows, date, number, price, words }: TableProps<AuthTrade>) {
  const { t } = useLingui();
  return (
    <table className={table.table} data-testid="archive-table">
      <thead className={table.thead}>
        <tr>
          <th className={table.th}>{t`Date`}</th>
          <th className={table.th}>{t`Pair`}</th>
          <th className={table.thNum}>{t`Amount`}</th>
          <th className={table.thNum}>{t`Price`}</th>
          <th className={table.thNum}>{t`Fee`}</th>
          <th className={table.th}>{t`Liquidity`}</th>
        </tr>
      </thead>
      <tbody className={table.tbody}>
        {rows.map((tr) => (
          <tr key={tr.id} className={table.tr} data-id={tr.id}>
            <td className={table.date}>
              <When mts={tr.mts_create} text={date(tr.mts_create)} />
            </td>
            <td className={table.where}>{displayPair(tr.pair)}</td>
            <td className={table.amount}>
              <Side amount={tr.exec_amount} text={words.side(tr.exec_amount)} /> {number(Math.abs(tr.exec_amount))}
            </td>
            <td className={`${table.balance} ${css.labelled}`} data-label={t`Price`}>
              {price(tr.exec_price)}
            </td>
            <td className={`${table.balance} ${css.labelled}`} data-label={t`Fee`}>
              {tr.fee === null ? "—" : `${number(tr.fee)} ${tr.fee_currency ?? ""}`.trim()}
            </td>
            <td className={table.where}>{words.liquidity(tr.isMaker)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * Closed positions: opened and closed, the pair, long or short and the largest size held, the base
 * price, the P/L that settled (in the pair's quote currency) and how it ended.
 */
function PositionsTable({ rows, date, number, price, words }: TableProps<Position>) {
  const { t, i18n } = useLingui();
  return (
    <table className={table.table} data-testid="archive-table">
      <thead className={table.thead}>
        <tr>
          <th className={table.th}>{t({ message: "Closed", context: "position closed at" })}</th>
          <th className={table.th}>{t`Opened`}</th>
          <th className={table.th}>{t`Pair`}</th>
          <th className={table.thNum}>{t`Amount`}</th>
          <th className={table.thNum}>{t`Base price`}</th>
          <th className={table.thNum}>{t`P/L`}</th>
          <th className={table.th}>{t`Status`}</th>
        </tr>
      </thead>
      <tbody className={table.tbody}>
        {rows.map((p) => {
          const info = parseSymbol(p.pair);
          const quote = info?.kind === "trading" ? info.quote : "";
          const pl = p.pl ?? 0;
          return (
            <tr key={p.id ?? p.pair} className={table.tr} data-id={p.id ?? undefined}>
              <td className={table.date}>
                {p.mtsUpdate === null ? "—" : <When mts={p.mtsUpdate} text={date(p.mtsUpdate)} />}
              </td>
              <td className={`${table.where} ${css.labelled}`} data-label={t`Opened`}>
                {p.mtsCreate === null ? "—" : <When mts={p.mtsCreate} text={date(p.mtsCreate)} />}
              </td>
              <td className={table.where}>{displayPair(p.pair)}</td>
              <td className={table.amount}>
                <Side amount={p.amount} text={words.direction(p.amount)} /> {number(Math.abs(p.amount))}
              </td>
              <td className={`${table.balance} ${css.labelled}`} data-label={t`Base price`}>
                {price(p.basePrice)}
              </td>
              <td
                className={`${table.balance} ${css.labelled} ${pl < 0 ? table.debit : pl > 0 ? table.credit : ""}`}
                data-label={t`P/L`}
              >
                {`${i18n.number(pl, { maximumFractionDigits: 8, signDisplay: "exceptZero" })} ${quote}`.trim()}
              </td>
              <td className={table.description}>{words.closing(p.status)}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

/**
 * Funding records: when each closed (a trade: when it happened), the currency, the amount, the
 * daily rate, the period in days, and the status — or, for a funding trade, maker or taker.
 */
function FundingTable({ rows, date, number, words }: TableProps<FundingRecord>) {
  const { t, i18n } = useLingui();
  const rate = (r: number): string => i18n.number(r, { style: "percent", maximumFractionDigits: 6 });
  return (
    <table className={table.table} data-testid="archive-table">
      <thead className={table.thead}>
        <tr>
          <th className={table.th}>{t`Date`}</th>
          <th className={table.th}>{t`Currency`}</th>
          <th className={table.thNum}>{t`Amount`}</th>
          <th className={table.thNum}>{t`Daily rate`}</th>
          <th className={table.thNum}>{t`Period (days)`}</th>
          <th className={table.th}>{t`Status`}</th>
        </tr>
      </thead>
      <tbody className={table.tbody}>
        {rows.map((f) => (
          <tr key={f.id} className={table.tr} data-id={f.id}>
            <td className={table.date}>
              <When mts={f.time} text={date(f.time)} />
            </td>
            <td className={table.where}>{f.symbol.slice(1)}</td>
            <td className={`${table.amount} ${f.amount < 0 ? table.debit : table.credit}`}>{number(f.amount)}</td>
            <td className={`${table.balance} ${css.labelled}`} data-label={t`Daily rate`}>
              {rate(f.rate)}
            </td>
            <td className={`${table.balance} ${css.labelled}`} data-label={t`Period (days)`}>
              {i18n.number(f.period)}
            </td>
            <td className={table.description} title={f.status ?? undefined}>
              {f.maker !== null ? words.liquidity(f.maker) : words.status(f.status ?? "")}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
