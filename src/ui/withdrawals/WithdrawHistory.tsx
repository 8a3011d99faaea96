import { Trans, useLingui } from "@lingui/react/macro";
import { useCallback, useEffect, useState } from "react";
import {
  currencyTicker,
  WITHDRAWAL_NOTIFICATIONS,
  WITHDRAWAL_STATUS,
  withdrawalCancellable,
  type MovementRow,
} from "../../protocol";
import {
  MovementHistory,
  MovementTime,
  TxId,
  useAmountText,
  useNoticeKey,
  type MovementColumn,
} from "../movements/MovementParts";
import { appScheduler } from "../scheduler";
import { cancelWithdrawal, loadWithdrawals, type WithdrawError } from "./withdraw-api";
import { shortAddress } from "./WithdrawForm";
import { useErrorText } from "./words";
import * as x from "./withdrawals.css";

/** How often the list is read again while a withdrawal moves on (its notifications say so too; this is the fallback). */
const ACTIVE_REFRESH_MS = 3000;

/** The notifications of a withdrawal's status changes. */
export const WITHDRAWAL_NOTICE_TYPES: readonly string[] = Object.values(WITHDRAWAL_NOTIFICATIONS);

/**
 * The currency's withdrawals, newest first (time, amount, fee, address, status, transaction), with
 * Cancel while one waits for its mailed confirmation or its turn; read again on every status
 * change the account socket brings.
 */
export function WithdrawHistory({
  currency,
  generation,
  onChanged,
}: {
  readonly currency: string;
  /** Bumped when a withdrawal was asked for or cancelled here: the list is read again. */
  readonly generation: number;
  readonly onChanged: () => void;
}) {
  const { t } = useLingui();
  const fmt = useAmountText();
  const errorText = useErrorText();
  const [rows, setRows] = useState<readonly MovementRow[] | null>(null);
  const [failed, setFailed] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<WithdrawError | null>(null);
  const [cancelled, setCancelled] = useState(false);
  const notices = useNoticeKey(WITHDRAWAL_NOTICE_TYPES);
  const reload = useCallback(() => {
    void loadWithdrawals(currency).then((r) => {
      if (r === null) setFailed(true);
      else {
        setFailed(false);
        setRows(r);
      }
    });
  }, [currency]);
  useEffect(() => reload(), [reload, notices, generation]);
  const active =
    rows?.some((r) => r.status === WITHDRAWAL_STATUS.pending || r.status === WITHDRAWAL_STATUS.processing) ?? false;
  useEffect(() => (active ? appScheduler.every(ACTIVE_REFRESH_MS, reload) : undefined), [active, reload]);

  const cancel = async (row: MovementRow): Promise<void> => {
    setBusy(true);
    setError(null);
    setCancelled(false);
    const r = await cancelWithdrawal(row.id);
    setBusy(false);
    if (r.ok) setCancelled(true);
    else setError(r.error);
    // Either way the list is read again (a refusal means it moved on); the limit's use changed too.
    onChanged();
  };

  const status = (s: string | null): string => {
    switch (s) {
      case WITHDRAWAL_STATUS.unconfirmed:
        return t`Waiting for e-mail confirmation`;
      case WITHDRAWAL_STATUS.pending:
        return t`Pending`;
      case WITHDRAWAL_STATUS.processing:
        return t`Processing`;
      case WITHDRAWAL_STATUS.completed:
        return t`Completed`;
      case WITHDRAWAL_STATUS.canceled:
        return t`Cancelled`;
      default:
        return s ?? "—";
    }
  };
  const ccy = currencyTicker(currency);
  const columns: readonly MovementColumn[] = [
    { key: "time", head: <Trans>Time</Trans>, cell: (r) => <MovementTime mts={r.mtsStarted} /> },
    { key: "amount", head: <Trans>Amount</Trans>, num: true, cell: (r) => `${fmt(Math.abs(r.amount))} ${ccy}` },
    {
      key: "fee",
      head: <Trans>Fee</Trans>,
      num: true,
      cell: (r) => (r.fees === null ? "—" : `${fmt(Math.abs(r.fees))} ${ccy}`),
    },
    {
      key: "address",
      head: <Trans>Address</Trans>,
      cell: (r) => (
        <span className={x.mono} title={r.destinationAddress ?? undefined}>
          {r.destinationAddress === null ? "—" : shortAddress(r.destinationAddress)}
        </span>
      ),
    },
    { key: "status", head: <Trans>Status</Trans>, cell: (r) => status(r.status) },
    { key: "transaction", head: <Trans>Transaction</Trans>, cell: (r) => <TxId id={r.txId} /> },
    {
      key: "action",
      head: <Trans>Action</Trans>,
      cell: (r) =>
        r.status !== null &&
        withdrawalCancellable(r.status) && (
          <button type="button" className={x.danger} disabled={busy} onClick={() => void cancel(r)}>
            <Trans>Cancel</Trans>
          </button>
        ),
    },
  ];
  return (
    <MovementHistory
      headingId="withdraw-history"
      title={<Trans>Your {ccy} withdrawals</Trans>}
      regionLabel={t`Withdrawal history`}
      failed={failed}
      failedText={<Trans>Your withdrawals could not be loaded. They will be shown when the exchange answers.</Trans>}
      empty={<Trans>No withdrawals yet.</Trans>}
      testId="withdraw-history"
      rowTestId={(r) => `withdrawal-${r.id}`}
      rows={rows}
      columns={columns}
    >
      {error !== null && (
        <p className={x.alert} role="alert">
          {errorText(error)}
        </p>
      )}
      {cancelled && (
        <p className={x.success} role="status">
          <Trans>The withdrawal is cancelled and its amount is back in your wallet.</Trans>
        </p>
      )}
    </MovementHistory>
  );
}
