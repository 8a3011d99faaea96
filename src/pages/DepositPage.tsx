import { Trans, useLingui } from "@lingui/react/macro";
import { useCallback, useEffect, useState } from "react";
import { useLocation } from "wouter";
import {
  currencyTicker,
  DEPOSIT_CURRENCIES,
  DEPOSIT_NOTIFICATIONS,
  depositMethodsOf,
  WIRE_ACCOUNTS,
  type DepositMethod,
  type MovementRow,
} from "../protocol";
import { showLevelGateFor } from "../ui/account/level-gate";
import {
  isPending,
  loadDeposits,
  requestDestination,
  type Destination,
  type DestinationError,
} from "../ui/deposits/deposit-api";
import {
  MovementChoices,
  MovementHistory,
  MovementTime,
  NetworkChoice,
  TxId,
  useAmountText,
  useNoticeKey,
  WalletFigure,
  type MovementColumn,
  type MovementWallet,
} from "../ui/movements/MovementParts";
import { appScheduler } from "../ui/scheduler";
import { QrCode } from "../ui/security/QrCode";
import * as d from "./deposit.css";
import * as css from "./pages.css";
import * as w from "./wallets.css";

/** The notifications of a deposit's arrival and credit. */
const DEPOSIT_NOTICE_TYPES: readonly string[] = [DEPOSIT_NOTIFICATIONS.arrived, DEPOSIT_NOTIFICATIONS.completed];

/** How often the history is read again while a deposit waits for confirmations. */
const PENDING_REFRESH_MS = 1500;

/** The currency in /deposit/CCY when it is one that can be deposited. */
function currencyFromPath(path: string): string | null {
  const m = /^\/deposit\/([^/]+)/.exec(path);
  const code = m?.[1]?.toUpperCase() ?? "";
  return DEPOSIT_CURRENCIES.includes(code) ? code : null;
}

/**
 * /deposit[/CCY] (docs/product-rules.md#deposits): choose a currency, its network and the wallet;
 * the account's address with its QR code (or the pool address with the destination tag, or the
 * wire instructions with the reference), the minimum and the confirmations needed; and the
 * currency's deposits, read again while one is confirming.
 */
export function DepositPage() {
  const [path, navigate] = useLocation();
  const currency = currencyFromPath(path);
  const methods = currency ? depositMethodsOf(currency) : [];
  const [methodName, setMethodName] = useState<string | null>(null);
  const method = methods.find((m) => m.method === methodName) ?? methods[0] ?? null;
  const [wallet, setWallet] = useState<MovementWallet>("exchange");
  return (
    <div className={`${w.page} ${d.page}`}>
      <h1 className={css.h1}>
        <Trans>Deposit</Trans>
      </h1>
      <p className={css.lead}>
        <Trans>Send funds to your account: choose the currency and its network, then use the details below.</Trans>
      </p>
      <MovementChoices
        currencies={DEPOSIT_CURRENCIES}
        currency={currency}
        onCurrency={(c) => {
          setMethodName(null);
          navigate(c === null ? "/deposit" : `/deposit/${c}`);
        }}
        walletLabel={<Trans>Credit to wallet</Trans>}
        wallet={wallet}
        onWallet={setWallet}
      />
      {method && (
        <NetworkChoice
          name="deposit-network"
          methods={methods}
          value={method.method}
          onChange={(m) => setMethodName(m)}
        />
      )}
      {currency === null || method === null ? (
        <p className={css.muted}>
          <Trans>Choose the currency you want to deposit.</Trans>
        </p>
      ) : (
        <>
          <DestinationPanel key={`${method.method}:${wallet}`} method={method} wallet={wallet} />
          <WalletFigure currency={currency} wallet={wallet} figure="balance" testId="deposit-balance" />
          <History currency={currency} />
        </>
      )}
    </div>
  );
}

type PanelState =
  | { readonly kind: "loading" }
  | { readonly kind: "ready"; readonly destination: Destination; readonly renewing: boolean }
  | { readonly kind: "error"; readonly error: DestinationError };

function DestinationPanel({ method, wallet }: { readonly method: DepositMethod; readonly wallet: MovementWallet }) {
  const { t } = useLingui();
  const [state, setState] = useState<PanelState>({ kind: "loading" });
  const [copied, setCopied] = useState<string | null>(null);
  const [renewFailed, setRenewFailed] = useState<DestinationError | null>(null);
  const amount = useAmountText();
  const ccy = currencyTicker(method.currency);

  useEffect(() => {
    let live = true;
    void requestDestination(method.method, wallet, false).then((r) => {
      if (!live) return;
      if (r.ok) setState({ kind: "ready", destination: r.destination, renewing: false });
      else {
        if (r.error.kind === "level") showLevelGateFor(r.error.message);
        setState({ kind: "error", error: r.error });
      }
    });
    return () => {
      live = false;
    };
  }, [method.method, wallet]);

  const renew = (): void => {
    if (state.kind !== "ready") return;
    setState({ ...state, renewing: true });
    setRenewFailed(null);
    void requestDestination(method.method, wallet, true).then((r) => {
      if (r.ok) {
        setState({ kind: "ready", destination: r.destination, renewing: false });
        setCopied(null);
      } else {
        setState({ ...state, renewing: false });
        setRenewFailed(r.error);
      }
    });
  };

  const copy = (text: string, what: string): void => {
    void navigator.clipboard?.writeText(text).then(
      () => setCopied(what),
      () => setCopied(null),
    );
  };

  if (state.kind === "loading")
    return (
      <p className={css.muted} role="status">
        <Trans>Getting your deposit details…</Trans>
      </p>
    );
  if (state.kind === "error") return <DestinationErrorText error={state.error} />;
  const { destination } = state;
  const minimum = `${amount(method.minimum)} ${ccy}`;
  const confirmations = method.confirmations;
  const copiedText = copied === null ? "" : t`Copied to the clipboard.`;

  if (method.kind === "wire") {
    const bank = WIRE_ACCOUNTS[method.currency];
    return (
      <section className={d.panel} aria-label={t`Bank wire instructions`} data-testid="deposit-wire">
        <div className={d.details}>
          <h2 className={d.title}>
            <Trans>Bank wire instructions</Trans>
          </h2>
          {bank && (
            <dl className={d.facts}>
              <Fact term={t`Beneficiary`} value={bank.beneficiary} />
              <Fact term={t`Bank`} value={bank.bank} />
              <Fact term={t`Bank address`} value={bank.bankAddress} />
              <Fact term={t`SWIFT/BIC`} value={bank.swift} mono />
              <Fact term={method.currency === "EUR" ? t`IBAN` : t`Account number`} value={bank.account} mono />
              <Fact term={t`Payment reference`} value={destination.address} mono testId="deposit-reference" />
            </dl>
          )}
          <p className={d.warning} role="note">
            <Trans>
              Write the payment reference in the transfer&apos;s message exactly as shown: it is how the wire is matched
              to your account. A wire without it cannot be credited.
            </Trans>
          </p>
          <div className={d.row}>
            <button type="button" className={w.ghost} onClick={() => copy(destination.address, "reference")}>
              <Trans>Copy the reference</Trans>
            </button>
            <span role="status">{copiedText}</span>
          </div>
          <p className={w.hint}>
            <Trans>
              Minimum deposit: {minimum}. A smaller wire is not credited. The amount is credited once the bank settles
              the wire.
            </Trans>
          </p>
        </div>
      </section>
    );
  }

  const shown = method.kind === "pooled" ? (destination.pool ?? "") : destination.address;
  const network = method.network;
  return (
    <section className={d.panel} aria-label={t`Deposit address`} data-testid="deposit-destination">
      <div className={d.details}>
        <h2 className={d.title}>
          <Trans>
            Your {ccy} deposit address on {network}
          </Trans>
        </h2>
        <dl className={d.facts}>
          <div className={d.fact}>
            <dt className={d.term}>
              <Trans>Address</Trans>
            </dt>
            <dd className={d.address} data-testid="deposit-address">
              {shown}
            </dd>
          </div>
          {method.kind === "pooled" && (
            <div className={d.fact}>
              <dt className={d.term}>
                <Trans>Destination tag</Trans>
              </dt>
              <dd className={d.address} data-testid="deposit-tag">
                {destination.address}
              </dd>
            </div>
          )}
        </dl>
        {method.hasPaymentIdForDeposits && (
          <p className={d.warning} role="note">
            <Trans>
              The destination tag is required. Send {ccy} to this address with this tag, or the deposit cannot be
              credited to your account.
            </Trans>
          </p>
        )}
        <div className={d.row}>
          <button type="button" className={w.ghost} onClick={() => copy(shown, "address")}>
            <Trans>Copy the address</Trans>
          </button>
          {method.kind === "pooled" && (
            <button type="button" className={w.ghost} onClick={() => copy(destination.address, "tag")}>
              <Trans>Copy the tag</Trans>
            </button>
          )}
          <button type="button" className={w.ghost} onClick={renew} disabled={state.renewing}>
            {method.kind === "pooled" ? <Trans>New destination tag</Trans> : <Trans>New address</Trans>}
          </button>
          <span role="status">{copiedText}</span>
        </div>
        {renewFailed && <DestinationErrorText error={renewFailed} />}
        <ul className={w.hint}>
          <li>
            <Trans>
              Send only {ccy} on the {network} network to this address; anything else is lost.
            </Trans>
          </li>
          <li>
            <Trans>Minimum deposit: {minimum}. A smaller deposit is not credited.</Trans>
          </li>
          <li>
            <Trans>Network confirmations needed before it is credited: {confirmations}.</Trans>
          </li>
          {method.kind === "address" && (
            <li>
              <Trans>Your earlier addresses keep working after you ask for a new one.</Trans>
            </li>
          )}
        </ul>
      </div>
      <div className={d.qr} data-testid="deposit-qr">
        <QrCode text={shown} label={t`QR code of the deposit address`} />
      </div>
    </section>
  );
}

function Fact({
  term,
  value,
  mono,
  testId,
}: {
  readonly term: string;
  readonly value: string;
  readonly mono?: boolean;
  readonly testId?: string;
}) {
  return (
    <div className={d.fact}>
      <dt className={d.term}>{term}</dt>
      <dd className={mono ? d.address : d.value} data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}

function DestinationErrorText({ error }: { readonly error: DestinationError }) {
  const text = (() => {
    switch (error.kind) {
      case "level":
        return (
          <Trans>
            Deposits need a higher verification level. <a href="/account">Verify your account</a> to get your deposit
            details.
          </Trans>
        );
      case "region":
        return <Trans>Deposits are not available to residents of your country.</Trans>;
      case "read-only":
        return (
          <Trans>
            You are acting in a read-only context: nothing can be changed here. Switch back to the main account to make
            changes.
          </Trans>
        );
      case "too-many":
        return (
          <Trans>This account has all the addresses it may hold for this network. Use one you already have.</Trans>
        );
      case "unreachable":
        return <Trans>The exchange could not be reached. Try again in a moment.</Trans>;
      case "server":
        return <Trans>The exchange had a problem answering. Try again in a moment.</Trans>;
      default: {
        const never: never = error;
        return never;
      }
    }
  })();
  return (
    <p className={css.alert} role="alert" data-testid="deposit-error">
      {text}
    </p>
  );
}

function History({ currency }: { readonly currency: string }) {
  const { t } = useLingui();
  const amount = useAmountText();
  const [rows, setRows] = useState<readonly MovementRow[] | null>(null);
  const [failed, setFailed] = useState(false);
  const reload = useCallback(() => {
    void loadDeposits(currency).then((r) => {
      if (r === null) setFailed(true);
      else {
        setFailed(false);
        setRows(r);
      }
    });
  }, [currency]);
  // A deposit's arrival or credit reaches the account socket as a notification: read the list again.
  const depositNotices = useNoticeKey(DEPOSIT_NOTICE_TYPES);
  useEffect(() => reload(), [reload, depositNotices]);
  const pending = rows?.some(isPending) ?? false;
  useEffect(() => (pending ? appScheduler.every(PENDING_REFRESH_MS, reload) : undefined), [pending, reload]);
  const status = (r: MovementRow): string => {
    switch (r.status) {
      case "PENDING":
        return t`Pending`;
      case "CONFIRMING":
        return t`Confirming`;
      case "COMPLETED":
        return t`Credited`;
      case "BELOW MINIMUM":
        return t`Below the minimum: not credited`;
      default:
        return r.status ?? "—";
    }
  };
  const ccy = currencyTicker(currency);
  const columns: readonly MovementColumn[] = [
    { key: "time", head: <Trans>Time</Trans>, cell: (r) => <MovementTime mts={r.mtsStarted} /> },
    { key: "amount", head: <Trans>Amount</Trans>, num: true, cell: (r) => `${amount(r.amount)} ${ccy}` },
    { key: "status", head: <Trans>Status</Trans>, cell: status },
    {
      key: "confirmations",
      head: <Trans>Confirmations</Trans>,
      num: true,
      cell: (r) =>
        r.confirmations === null || r.confirmationsRequired === null || r.status === "BELOW MINIMUM"
          ? "—"
          : `${r.confirmations}/${r.confirmationsRequired}`,
    },
    { key: "transaction", head: <Trans>Transaction</Trans>, cell: (r) => <TxId id={r.txId} /> },
  ];
  return (
    <MovementHistory
      headingId="deposit-history"
      title={<Trans>Your {ccy} deposits</Trans>}
      regionLabel={t`Deposit history`}
      failed={failed}
      failedText={<Trans>Your deposits could not be loaded. They will be shown when the exchange answers.</Trans>}
      empty={<Trans>No deposits yet.</Trans>}
      testId="deposit-history"
      rowTestId={(r) => `deposit-${r.id}`}
      rows={rows}
      columns={columns}
    />
  );
}
