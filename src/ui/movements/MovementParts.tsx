/**
 * What the deposit and withdrawal pages share (docs/product-rules.md#deposits, #withdrawals): the
 * currency and wallet choices, the network choice, the wallet's figure live from the account
 * socket, the key that changes when the socket brings a movement's notification, and the movements
 * table with its time and transaction cells. Each page words its own columns and statuses.
 */
import { Trans, useLingui } from "@lingui/react/macro";
import { useId, useMemo, type ReactNode } from "react";
import { useSnapshot } from "valtio";
import { currencyTicker, type MovementRow, type Wallet } from "../../protocol";
import { accountStore } from "../desk/account-store";
import { useWalletName } from "../wallets/words";
import * as m from "./movements.css";

/** The wallets money arrives in and leaves from. */
export const MOVEMENT_WALLETS = ["exchange", "margin", "funding"] as const;
export type MovementWallet = (typeof MOVEMENT_WALLETS)[number];

/** An amount in the reader's notation, up to 8 decimals; a bigint is a count of units of 1e-8. */
export function useAmountText(): (n: number | bigint) => string {
  const { i18n } = useLingui();
  return (n) => i18n.number(typeof n === "bigint" ? Number(n) / 1e8 : n, { maximumFractionDigits: 8 });
}

/** The account's wallet of the currency, live from the account socket: undefined until the socket sent the wallets. */
export function useWallet(currency: string, wallet: string): Wallet | null | undefined {
  const account = useSnapshot(accountStore);
  if (account.view === null) return undefined;
  return account.view.wallets.find((r) => r.type === wallet && r.currency === currency) ?? null;
}

/**
 * A key that changes whenever the account socket brings a notification of one of `types`: the
 * newest one's time, type and text (the kept list is capped, so a count alone could stand still).
 */
export function useNoticeKey(types: readonly string[]): string {
  const account = useSnapshot(accountStore);
  const notifications = account.view?.notifications;
  return useMemo(() => {
    const newest = (notifications ?? []).find((n) => types.includes(n.type));
    return newest ? `${newest.mts}:${newest.type}:${newest.message}` : "";
  }, [notifications, types]);
}

/** The currency (or none yet) and the wallet, side by side. */
export function MovementChoices({
  currencies,
  currency,
  onCurrency,
  walletLabel,
  wallet,
  onWallet,
}: {
  readonly currencies: readonly string[];
  readonly currency: string | null;
  readonly onCurrency: (currency: string | null) => void;
  readonly walletLabel: ReactNode;
  readonly wallet: MovementWallet;
  readonly onWallet: (wallet: MovementWallet) => void;
}) {
  const { t } = useLingui();
  const walletName = useWalletName();
  const currencyId = useId();
  const walletId = useId();
  return (
    <div className={m.choices}>
      <div className={m.field}>
        <label htmlFor={currencyId}>
          <Trans>Currency</Trans>
        </label>
        <select
          id={currencyId}
          className={`${m.select} ${m.wide}`}
          value={currency ?? ""}
          onChange={(e) => onCurrency(e.currentTarget.value === "" ? null : e.currentTarget.value)}
        >
          <option value="">{t`Choose a currency`}</option>
          {currencies.map((c) => (
            <option key={c} value={c}>
              {currencyTicker(c)}
            </option>
          ))}
        </select>
      </div>
      <div className={m.field}>
        <label htmlFor={walletId}>{walletLabel}</label>
        <select
          id={walletId}
          className={`${m.select} ${m.wide}`}
          value={wallet}
          onChange={(e) => onWallet(e.currentTarget.value as MovementWallet)}
        >
          {MOVEMENT_WALLETS.map((x) => (
            <option key={x} value={x}>
              {walletName(x)}
            </option>
          ))}
        </select>
      </div>
    </div>
  );
}

/** A currency's networks as radio buttons, when it has more than one. */
export function NetworkChoice({
  name,
  methods,
  value,
  onChange,
}: {
  readonly name: string;
  readonly methods: readonly { readonly method: string; readonly network: string }[];
  readonly value: string;
  readonly onChange: (method: string) => void;
}) {
  return methods.length < 2 ? null : (
    <fieldset className={m.networks}>
      <legend className={m.legend}>
        <Trans>Network</Trans>
      </legend>
      <div className={m.radios}>
        {methods.map((x) => (
          <label key={x.method} className={m.radio}>
            <input
              type="radio"
              name={name}
              value={x.method}
              checked={x.method === value}
              onChange={() => onChange(x.method)}
            />
            {x.network}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/** The wallet's balance (what a deposit adds to) or its available amount (what a withdrawal may take), live. */
export function WalletFigure({
  currency,
  wallet,
  figure,
  testId,
}: {
  readonly currency: string;
  readonly wallet: MovementWallet;
  readonly figure: "balance" | "available";
  readonly testId: string;
}) {
  const row = useWallet(currency, wallet);
  const amount = useAmountText();
  const name = useWalletName()(wallet);
  const ccy = currencyTicker(currency);
  const balance = row === undefined ? "…" : amount((figure === "balance" ? row?.balance : row?.available) ?? 0);
  return (
    <p className={m.muted} data-testid={testId}>
      {figure === "balance" ? (
        <Trans>
          Balance in your {name} wallet:{" "}
          <strong>
            {balance} {ccy}
          </strong>
        </Trans>
      ) : (
        <Trans>
          Available in your {name} wallet:{" "}
          <strong>
            {balance} {ccy}
          </strong>
        </Trans>
      )}
    </p>
  );
}

/** One column of a movements table: its header and its cell. */
export interface MovementColumn {
  readonly key: string;
  readonly head: ReactNode;
  /** Numbers, right-aligned. */
  readonly num?: boolean;
  readonly cell: (row: MovementRow) => ReactNode;
}

/** When a movement started, in the reader's notation. */
export function MovementTime({ mts }: { readonly mts: number | null }) {
  const { i18n } = useLingui();
  return <>{mts === null ? "—" : i18n.date(mts, { dateStyle: "short", timeStyle: "medium" })}</>;
}

/** A transaction id shortened in the middle, whole in its tooltip. */
export function TxId({ id }: { readonly id: string | null }) {
  return (
    <span className={m.mono} title={id ?? undefined}>
      {id === null ? "—" : `${id.slice(0, 10)}…${id.slice(-6)}`}
    </span>
  );
}

/**
 * A currency's movements under their heading: a notice when they could not be read, what the page
 * adds above the table (`children`), and the table scrolling sideways inside its region.
 */
export function MovementHistory({
  headingId,
  title,
  regionLabel,
  failed,
  failedText,
  empty,
  testId,
  rowTestId,
  rows,
  columns,
  children,
}: {
  readonly headingId: string;
  readonly title: ReactNode;
  readonly regionLabel: string;
  readonly failed: boolean;
  readonly failedText: ReactNode;
  readonly empty: ReactNode;
  readonly testId: string;
  readonly rowTestId: (row: MovementRow) => string;
  readonly rows: readonly MovementRow[] | null;
  readonly columns: readonly MovementColumn[];
  readonly children?: ReactNode;
}) {
  return (
    <section className={m.section} aria-labelledby={headingId}>
      <h2 className={m.h2} id={headingId}>
        {title}
      </h2>
      {failed && (
        <p className={m.alert} role="alert">
          {failedText}
        </p>
      )}
      {children}
      <div className={m.scroll} tabIndex={0} role="region" aria-label={regionLabel}>
        <table className={m.table} data-testid={testId}>
          <thead>
            <tr>
              {columns.map((c) => (
                <th key={c.key} className={c.num ? `${m.th} ${m.num}` : m.th} scope="col">
                  {c.head}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows !== null && rows.length === 0 && (
              <tr>
                <td className={m.td} colSpan={columns.length}>
                  {empty}
                </td>
              </tr>
            )}
            {rows?.map((r) => (
              <tr key={r.id} data-testid={rowTestId(r)}>
                {columns.map((c) => (
                  <td key={c.key} className={c.num ? `${m.td} ${m.num}` : m.td} data-column={c.key}>
                    {c.cell(r)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
