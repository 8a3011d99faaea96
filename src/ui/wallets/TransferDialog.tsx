/**
 * The one transfer form (docs/product-rules.md#transfers-between-wallets and #sub-accounts): the
 * account to credit — the account's own by default, or its master or one of its sub-accounts when
 * the group has them — the two wallets, the currency, the amount with "Max" (what the source
 * wallet has available). The rules, the states and the request id are `TransferModel`'s
 * (`model.ts`). The wallets page shows it in a dialog (`TransferDialog`), the sub-accounts page
 * in a card of its own.
 */
import { Trans, useLingui } from "@lingui/react/macro";
import { useEffect, useId, useState, useSyncExternalStore, type FormEvent } from "react";
import { useSnapshot } from "valtio";
import { isFeatureEnabled, TRANSFER_WALLETS, variantConfig, type TransferWallet } from "../../protocol";
import { Modal } from "../api-keys";
import { platform } from "../config";
import { log } from "../log";
import { authCall, session } from "../session";
import { listSubaccounts } from "../subaccounts/api";
import { AmountField } from "./AmountField";
import { allOf, newRequestId, TransferModel, type TransferEnv, type TransferForm as TransferFormValues } from "./model";
import * as css from "./transfer.css";
import { useTransferErrorWords, useWalletName } from "./words";

/** An account the form may credit: `id` null for the account's own wallets. */
export interface TransferAccount {
  readonly id: number | null;
  readonly label: string;
}

/** A wallet the money may come from: what it has available is the most a transfer takes. */
interface SourceWallet {
  readonly type: string;
  readonly currency: string;
  readonly available: number;
}

const OWN = "own";

/** USDt, and the form it takes in the derivatives wallet (the margin wallet) as collateral. */
const USDT = "UST";
const USDT_COLLATERAL = "USTF0";

/** Whether the platform variant trades derivatives (the default variant before the config is read: tests). */
function derivativesOffered(): boolean {
  try {
    return isFeatureEnabled(platform(), "derivatives");
  } catch {
    return isFeatureEnabled(variantConfig("default"), "derivatives");
  }
}

/** The success message: the wallets named when both are the account's own, where both balances show. */
function Moved({ done }: { readonly done: TransferFormValues }) {
  const walletName = useWalletName();
  const amount = done.amount.trim();
  const currency = done.currency;
  const fromName = walletName(done.from);
  const toName = walletName(done.to);
  return (
    <p className={css.success} role="status">
      {done.toAccount === undefined ? (
        <Trans>
          Moved {amount} {currency} from {fromName} to {toName}.
        </Trans>
      ) : (
        <Trans>Transfer done.</Trans>
      )}
    </p>
  );
}

/**
 * The transfer form. `accounts`: who may be credited, the first chosen at the start (the select
 * shows only when there is a choice or the one account is not the own). `wallets`: the source
 * account's wallets. `onMoved` runs after each transfer that went through; `onClose` adds Close.
 * `call` stands in for the session's transport in the component tests.
 */
export function TransferForm(props: {
  readonly wallets: readonly SourceWallet[];
  readonly accounts: readonly TransferAccount[];
  readonly onMoved?: () => void;
  readonly onClose?: () => void;
  readonly call?: TransferEnv["call"];
}) {
  const { t, i18n } = useLingui();
  const id = useId();
  const walletName = useWalletName();
  const errorText = useTransferErrorWords();
  const [model] = useState(() => new TransferModel({ call: props.call ?? authCall, newId: newRequestId }));
  const state = useSyncExternalStore(model.subscribe, model.state);
  const first = props.accounts[0]?.id ?? null;
  const [account, setAccount] = useState<number | null>(first);
  const [from, setFrom] = useState<TransferWallet>("exchange");
  // Between one's own wallets two different ones are needed; to another account the same one is usual.
  const [to, setTo] = useState<TransferWallet>(first === null ? "margin" : "exchange");
  const [currency, setCurrency] = useState("");
  const [amount, setAmount] = useState("");
  const [asCollateral, setAsCollateral] = useState(true);
  // The accounts may arrive after the form (the sub-accounts are read on opening): a choice no
  // longer offered falls back to the first.
  const target = props.accounts.some((a) => a.id === account) ? account : first;
  const sources = props.wallets.filter((x) => x.type === from && x.available > 0);
  const ccy = sources.some((x) => x.currency === currency) ? currency : (sources[0]?.currency ?? "");
  const available = sources.find((x) => x.currency === ccy)?.available ?? 0;
  // USDt into one's own margin wallet may go as derivatives collateral (the derivatives wallet):
  // the exchange converts it 1:1 (docs/product-rules.md#derivatives).
  const collateralOffered = target === null && to === "margin" && ccy === USDT && derivativesOffered();
  const currencyTo = collateralOffered && asCollateral ? USDT_COLLATERAL : undefined;
  const busy = state.status === "converting";
  const error = state.status === "failed" ? state.error : null;
  const amountError = error?.kind === "refused" && ["amount", "precision", "insufficient"].includes(error.refusal);
  // Any change to the form ends a failure's message (docs/product-rules.md#transfers-between-wallets).
  const edit =
    <T,>(set: (v: T) => void) =>
    (v: T) => {
      set(v);
      model.clear();
    };
  const submit = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    const form = { from, to, currency: ccy, amount, ...(currencyTo === undefined ? {} : { currencyTo }) };
    const r = await model.submit(target === null ? form : { ...form, toAccount: target }, available);
    if (r.status !== "succeeded") return;
    setAmount("");
    props.onMoved?.();
  };
  const done = state.status === "succeeded" ? state.done : null;
  const availableText = i18n.number(available, { maximumFractionDigits: 8 });
  const showAccounts = props.accounts.length > 1 || first !== null;
  const walletSelect = (value: TransferWallet, set: (v: TransferWallet) => void) => (
    <select className={css.select} value={value} onChange={(e) => edit(set)(e.currentTarget.value as TransferWallet)}>
      {TRANSFER_WALLETS.map((x) => (
        <option key={x} value={x}>
          {walletName(x)}
        </option>
      ))}
    </select>
  );
  return (
    <form className={css.form} onSubmit={(e) => void submit(e)} noValidate data-testid="transfer-form">
      <div className={css.grid}>
        {showAccounts && (
          <label className={css.field}>
            <span>
              <Trans>To account</Trans>
            </span>
            <select
              className={css.select}
              value={target ?? OWN}
              onChange={(e) => {
                const v = e.currentTarget.value;
                edit(setAccount)(v === OWN ? null : Number(v));
              }}
            >
              {props.accounts.map((a) => (
                <option key={a.id ?? OWN} value={a.id ?? OWN}>
                  {a.label}
                </option>
              ))}
            </select>
          </label>
        )}
        <label className={css.field}>
          <span>
            <Trans>From wallet</Trans>
          </span>
          {walletSelect(from, setFrom)}
        </label>
        <label className={css.field}>
          <span>
            <Trans>To wallet</Trans>
          </span>
          {walletSelect(to, setTo)}
        </label>
      </div>
      <label className={css.field}>
        <span>
          <Trans>Currency</Trans>
        </span>
        <select className={css.select} value={ccy} onChange={(e) => edit(setCurrency)(e.currentTarget.value)}>
          {sources.length === 0 && <option value="">{t`Nothing available in this wallet`}</option>}
          {sources.map((x) => (
            <option key={x.currency} value={x.currency}>
              {x.currency}
            </option>
          ))}
        </select>
      </label>
      {collateralOffered && (
        <label className={css.check}>
          <input
            type="checkbox"
            checked={asCollateral}
            onChange={(e) => edit(setAsCollateral)(e.currentTarget.checked)}
            data-testid="transfer-as-collateral"
          />
          <span>
            <Trans>To the derivatives wallet, as collateral ({USDT_COLLATERAL})</Trans>
          </span>
        </label>
      )}
      <AmountField
        id={id}
        name="transfer-amount"
        value={amount}
        onChange={edit(setAmount)}
        max={() => allOf(available, ccy)}
        available={available}
        availableText={availableText}
        currency={ccy}
        invalid={amountError}
      />
      {error && (
        <p className={css.alert} role="alert" id={`${id}-error`}>
          {errorText(error, ccy)}
        </p>
      )}
      {busy && (
        <p className={css.hint} role="status">
          <Trans>Transferring…</Trans>
        </p>
      )}
      {done && <Moved done={done} />}
      <div className={css.actions}>
        {props.onClose && (
          <button type="button" className={css.ghost} onClick={props.onClose}>
            <Trans>Close</Trans>
          </button>
        )}
        <button type="submit" className={css.button} disabled={busy} data-testid="transfer-submit">
          <Trans>Transfer</Trans>
        </button>
      </div>
    </form>
  );
}

/**
 * Who the dialog may credit: the own account, then — for a sub-account — its master, or — for a
 * master — its sub-accounts, read when the dialog opens (a sub-account made since sign-in
 * counts). Until they arrive, or when they cannot be read, the own account alone.
 */
function useTransferAccounts(): readonly TransferAccount[] {
  const { t } = useLingui();
  const s = useSnapshot(session);
  const user = s.user;
  const masterId = user?.masterAccountId ?? null;
  const [subs, setSubs] = useState<readonly TransferAccount[]>([]);
  useEffect(() => {
    if (masterId !== null) return;
    let live = true;
    void listSubaccounts().then((r) => {
      if (!live) return;
      if (r.ok) setSubs(r.value.map((x) => ({ id: x.id, label: x.username })));
      else log.warn("sub-accounts for the transfer dialog failed", r.error);
    });
    return () => {
      live = false;
    };
  }, [masterId]);
  const own: TransferAccount = { id: null, label: t`This account` };
  return masterId === null ? [own, ...subs] : [own, { id: masterId, label: t`Main account` }];
}

function DialogBody(props: { readonly wallets: readonly SourceWallet[]; readonly onClose: () => void }) {
  const accounts = useTransferAccounts();
  return <TransferForm wallets={props.wallets} accounts={accounts} onClose={props.onClose} />;
}

/** The wallets page's transfer dialog: the form, with the accounts of the group to credit. */
export function TransferDialog(props: {
  readonly open: boolean;
  readonly wallets: readonly SourceWallet[];
  readonly onClose: () => void;
}) {
  return (
    <Modal
      open={props.open}
      title={<Trans>Transfer between wallets</Trans>}
      onClose={props.onClose}
      testId="transfer-dialog"
    >
      <DialogBody wallets={props.wallets} onClose={props.onClose} />
    </Modal>
  );
}
