import { Trans, useLingui } from "@lingui/react/macro";
import { useCallback, useEffect, useId, useState, type FormEvent } from "react";
import { useSnapshot } from "valtio";
import {
  decodeSubaccountRequest,
  MAX_SUBACCOUNTS,
  SUBACCOUNT_TYPES,
  type SubaccountBalance,
  type SubaccountRefusal,
  type SubaccountRow,
  type SubaccountType,
  type UserInfo,
} from "../protocol";
import { session, switchAccount } from "../ui/session";
import * as shell from "../ui/shell/shell.css";
import {
  contextToken,
  createSubaccount,
  groupBalances,
  listSubaccounts,
  setContextSwitchDisabled,
  type SubaccountError,
} from "../ui/subaccounts/api";
import { contextFor, saveContext } from "../ui/subaccounts/context";
import { TransferForm, type TransferAccount } from "../ui/wallets/TransferDialog";
import * as css from "./pages.css";
import * as sub from "./subaccounts.css";

function useWords() {
  const { t } = useLingui();
  const wallet = (w: string): string =>
    w === "exchange" ? t`Exchange` : w === "margin" ? t`Margin` : w === "funding" ? t`Funding` : w;
  const type = (k: string): string =>
    k === "trading" ? t`Trading` : k === "funding" ? t`Lending` : k === "treasury" ? t`Treasury` : k;
  const refusal = (r: SubaccountRefusal): string => {
    switch (`${r.field}:${r.reason}`) {
      case "username:invalid":
        return t`Use 3 to 32 letters, digits or underscores.`;
      case "username:taken":
        return t`That name is taken. Choose another one.`;
      case "type:invalid":
        return t`Choose what the sub-account is for.`;
      case "account:limit":
        return t`A main account may hold at most ${MAX_SUBACCOUNTS} sub-accounts.`;
      case "account:not-allowed":
        return t`This account may not do that: only a main account manages sub-accounts, and funds move only between a main account and its own sub-accounts.`;
      case "account:invalid":
        return t`That sub-account does not exist or is not yours.`;
      case "amount:precision":
        return t`Use at most 8 decimals.`;
      case "amount:insufficient":
        return t`The source wallet does not hold that much.`;
      case "amount:invalid":
        return t`Enter an amount above zero, such as 25 or 0.5.`;
      case "currency:invalid":
        return t`Choose a currency.`;
      case "wallet:invalid":
        return t`Choose a wallet.`;
      default:
        return t`The exchange refused the request. Check the form and try again.`;
    }
  };
  const error = (e: SubaccountError): string => {
    switch (e.kind) {
      case "field":
        return refusal(e.refusal);
      case "read-only":
        return t`You are acting in a read-only context: nothing can be changed here. Switch back to the main account to make changes.`;
      case "switch-disabled":
        return t`Switching into sub-accounts is turned off for this group.`;
      case "unreachable":
        return t`The exchange could not be reached. Check your connection, then try again.`;
      case "server":
        return t`The exchange had a problem answering. Try again in a moment.`;
      default: {
        const never: never = e;
        return never;
      }
    }
  };
  return { wallet, type, refusal, error };
}

function Alert({ error }: { readonly error: SubaccountError | null }) {
  const words = useWords();
  if (error === null) return null;
  return (
    <p className={css.alert} role="alert">
      {words.error(error)}
    </p>
  );
}

function useAmount(): (n: number) => string {
  const { i18n } = useLingui();
  return (n) => i18n.number(n, { maximumFractionDigits: 8 });
}

/** Switches this browser to acting as `target` (or back to the master): stores the context, then reloads. */
async function switchTo(
  target: { readonly id: number; readonly username: string; readonly readOnly: boolean } | null,
  masterId: number,
): Promise<SubaccountError | null> {
  const r = await contextToken(target?.id ?? masterId, target?.readOnly ?? false);
  if (!r.ok) return r.error;
  saveContext(window, target ? { ...target, masterId } : null);
  switchAccount(window, r.value);
  return null;
}

function CreateForm({ onCreated }: { readonly onCreated: () => void }) {
  const { t } = useLingui();
  const words = useWords();
  const [username, setUsername] = useState("");
  const [type, setType] = useState<SubaccountType>("trading");
  const [readOnly, setReadOnly] = useState(false);
  const [fieldError, setFieldError] = useState<SubaccountRefusal | null>(null);
  const [error, setError] = useState<SubaccountError | null>(null);
  const [busy, setBusy] = useState(false);
  const [created, setCreated] = useState<string | null>(null);
  const id = useId();

  const submit = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    setError(null);
    setCreated(null);
    // The same check the exchange makes again (src/protocol/subaccounts.ts).
    const input = decodeSubaccountRequest({ username, type, readOnly });
    if (!input.ok) {
      setFieldError(input.refusal);
      return;
    }
    setFieldError(null);
    setBusy(true);
    const r = await createSubaccount(input.value);
    setBusy(false);
    if (!r.ok) {
      if (r.error.kind === "field" && r.error.refusal.field === "username") setFieldError(r.error.refusal);
      else setError(r.error);
      return;
    }
    setCreated(r.value.username);
    setUsername("");
    setReadOnly(false);
    onCreated();
  };

  const nameError = fieldError?.field === "username" ? words.refusal(fieldError) : null;
  return (
    <section className={sub.card} aria-labelledby={`${id}-title`}>
      <h2 className={sub.h2} id={`${id}-title`}>
        <Trans>Create a sub-account</Trans>
      </h2>
      <form className={sub.row} onSubmit={(e) => void submit(e)} noValidate>
        <label className={css.field}>
          <span>
            <Trans>Name</Trans>
          </span>
          <input
            className={css.input}
            name="subaccount-name"
            value={username}
            autoComplete="off"
            spellCheck={false}
            aria-invalid={nameError !== null}
            aria-describedby={nameError ? `${id}-name-error` : undefined}
            onChange={(e) => setUsername(e.target.value)}
          />
          {nameError && (
            <span className={css.fieldError} id={`${id}-name-error`}>
              {nameError}
            </span>
          )}
        </label>
        <label className={css.field}>
          <span>
            <Trans>Used for</Trans>
          </span>
          <select className={sub.select} value={type} onChange={(e) => setType(e.target.value as SubaccountType)}>
            {SUBACCOUNT_TYPES.map((k) => (
              <option key={k} value={k}>
                {words.type(k)}
              </option>
            ))}
          </select>
        </label>
        <label className={sub.check}>
          <input type="checkbox" checked={readOnly} onChange={(e) => setReadOnly(e.target.checked)} />
          <span>
            <Trans>Read-only: I may only look at it</Trans>
          </span>
        </label>
        <button className={shell.button} type="submit" disabled={busy}>
          {busy ? t`Creating…` : t`Create sub-account`}
        </button>
      </form>
      <Alert error={error} />
      {created && (
        <p className={sub.success} role="status">
          <Trans>Sub-account {created} created.</Trans>
        </p>
      )}
    </section>
  );
}

/** The transfer form (the wallets page's too) in a card: from this account to another of the group. */
function TransferCard(props: {
  readonly title: string;
  readonly accounts: readonly TransferAccount[];
  readonly sourceBalances: readonly SubaccountBalance[];
  readonly onDone: () => void;
}) {
  const id = useId();
  return (
    <section className={sub.card} aria-labelledby={`${id}-title`}>
      <h2 className={sub.h2} id={`${id}-title`}>
        {props.title}
      </h2>
      <TransferForm wallets={props.sourceBalances} accounts={props.accounts} onMoved={props.onDone} />
    </section>
  );
}

/** One account's wallets, or the group's per currency (main account, sub-accounts, total). */
function BalancesTable(props: {
  readonly title: string;
  readonly balances: readonly SubaccountBalance[];
  readonly masterId: number | null;
}) {
  const { t } = useLingui();
  const amount = useAmount();
  const id = useId();
  const combined = props.masterId !== null;
  const rows = new Map<string, { own: number; subs: number }>();
  for (const b of props.balances) {
    const key = combined ? b.currency : `${b.type}:${b.currency}`;
    const r = rows.get(key) ?? { own: 0, subs: 0 };
    if (!combined || b.userId === props.masterId) r.own += b.balance;
    else r.subs += b.balance;
    rows.set(key, r);
  }
  const keys = [...rows.keys()].sort();
  const words = useWords();
  return (
    <section className={sub.card} aria-labelledby={`${id}-title`}>
      <h2 className={sub.h2} id={`${id}-title`}>
        {props.title}
      </h2>
      {keys.length === 0 ? (
        <p className={css.muted}>
          <Trans>No balances yet.</Trans>
        </p>
      ) : (
        // Focusable: a table wider than a phone scrolls, and the keyboard must reach it too.
        <div className={sub.scroll} tabIndex={0} role="group" aria-labelledby={`${id}-title`}>
          <table className={sub.table} data-testid={combined ? "combined-balances" : "own-balances"}>
            <thead>
              <tr>
                {!combined && <th className={sub.th}>{t`Wallet`}</th>}
                <th className={sub.th}>{t`Currency`}</th>
                {combined ? (
                  <>
                    <th className={`${sub.th} ${sub.num}`}>{t`Main account`}</th>
                    <th className={`${sub.th} ${sub.num}`}>{t`Sub-accounts`}</th>
                    <th className={`${sub.th} ${sub.num}`}>{t`Total`}</th>
                  </>
                ) : (
                  <th className={`${sub.th} ${sub.num}`}>{t`Balance`}</th>
                )}
              </tr>
            </thead>
            <tbody>
              {keys.map((k) => {
                const r = rows.get(k) ?? { own: 0, subs: 0 };
                const [w, c] = combined ? ["", k] : k.split(":");
                return (
                  <tr key={k}>
                    {!combined && <td className={sub.td}>{words.wallet(w ?? "")}</td>}
                    <td className={sub.td}>{c}</td>
                    <td className={`${sub.td} ${sub.num}`}>{amount(r.own)}</td>
                    {combined && (
                      <>
                        <td className={`${sub.td} ${sub.num}`}>{amount(r.subs)}</td>
                        <td className={`${sub.td} ${sub.num}`}>{amount(r.own + r.subs)}</td>
                      </>
                    )}
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function MasterView({ user }: { readonly user: UserInfo }) {
  const { t } = useLingui();
  const words = useWords();
  const amount = useAmount();
  const [rows, setRows] = useState<SubaccountRow[] | null>(null);
  const held = rows?.length ?? 0;
  const [balances, setBalances] = useState<SubaccountBalance[]>([]);
  const [error, setError] = useState<SubaccountError | null>(null);
  const [busy, setBusy] = useState(false);
  const [disabled, setDisabled] = useState(user.groupDisableContextSwitch);

  // Bumped to read the list and balances again (after a creation or a transfer).
  const [version, setVersion] = useState(0);
  const load = useCallback(() => setVersion((v) => v + 1), []);
  useEffect(() => {
    let live = true;
    void Promise.all([listSubaccounts(), groupBalances()]).then(([list, bal]) => {
      if (!live) return;
      if (!list.ok) setError(list.error);
      else setRows(list.value);
      if (bal.ok) setBalances(bal.value);
      else if (list.ok) setError(bal.error);
    });
    return () => {
      live = false;
    };
  }, [version]);

  const act = async (target: { id: number; username: string; readOnly: boolean }): Promise<void> => {
    setBusy(true);
    setError(await switchTo(target, user.id));
    setBusy(false);
  };
  const toggle = async (on: boolean): Promise<void> => {
    setBusy(true);
    const r = await setContextSwitchDisabled(on);
    setBusy(false);
    if (r.ok) setDisabled(r.value);
    else setError(r.error);
  };
  const sumOf = (id: number): string => {
    const usd = balances.filter((b) => b.userId === id && b.currency === "USD").reduce((s, b) => s + b.balance, 0);
    return amount(usd);
  };

  return (
    <>
      <CreateForm onCreated={load} />
      <section className={sub.card} aria-labelledby="subaccounts-list-title">
        <h2 className={sub.h2} id="subaccounts-list-title">
          <Trans>Your sub-accounts</Trans>
        </h2>
        <Alert error={error} />
        {rows === null ? (
          <p className={css.muted}>
            <Trans>Loading…</Trans>
          </p>
        ) : rows.length === 0 ? (
          <p className={css.muted}>
            <Trans>No sub-accounts yet. Create one above to keep strategies or funds apart.</Trans>
          </p>
        ) : (
          <>
            <p className={css.muted}>
              <Trans>Sub-accounts held: {held}</Trans>
            </p>
            <div className={sub.scroll} tabIndex={0} role="group" aria-labelledby="subaccounts-list-title">
              <table className={sub.table} data-testid="subaccounts-list">
                <thead>
                  <tr>
                    <th className={sub.th}>{t`Name`}</th>
                    <th className={sub.th}>{t`Used for`}</th>
                    <th className={sub.th}>{t`Access`}</th>
                    <th className={`${sub.th} ${sub.num}`}>{t`USD balance`}</th>
                    <th className={sub.th}>{t`Act as`}</th>
                  </tr>
                </thead>
                <tbody>
                  {rows.map((r) => {
                    const name = r.username;
                    return (
                      <tr key={r.id}>
                        <td className={sub.td}>{r.username}</td>
                        <td className={sub.td}>{words.type(r.type)}</td>
                        <td className={sub.td}>
                          <span className={r.readOnly ? `${sub.badge} ${sub.readOnly}` : sub.badge}>
                            {r.readOnly ? t`Read-only` : t`Full access`}
                          </span>
                        </td>
                        <td className={`${sub.td} ${sub.num}`}>{sumOf(r.id)}</td>
                        <td className={sub.td}>
                          <div className={sub.actions}>
                            {!r.readOnly && (
                              <button
                                className={shell.button}
                                type="button"
                                disabled={busy || disabled}
                                aria-label={t`Switch to ${name}`}
                                onClick={() => void act({ id: r.id, username: r.username, readOnly: false })}
                              >
                                <Trans>Switch</Trans>
                              </button>
                            )}
                            <button
                              className={shell.ghostButton}
                              type="button"
                              disabled={busy || disabled}
                              aria-label={t`View ${name} read-only`}
                              onClick={() => void act({ id: r.id, username: r.username, readOnly: true })}
                            >
                              <Trans>View read-only</Trans>
                            </button>
                          </div>
                        </td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </div>
          </>
        )}
        {user.groupAllowDisableContextSwitch && (
          <label className={sub.check}>
            <input type="checkbox" checked={disabled} disabled={busy} onChange={(e) => void toggle(e.target.checked)} />
            <span>
              <Trans>Turn off switching into sub-accounts for this group</Trans>
            </span>
          </label>
        )}
      </section>
      {rows !== null && rows.length > 0 && (
        <TransferCard
          title={t`Move funds to a sub-account`}
          accounts={rows.map((r) => ({ id: r.id, label: r.username }))}
          sourceBalances={balances.filter((b) => b.userId === user.id)}
          onDone={load}
        />
      )}
      <BalancesTable title={t`Combined balances`} balances={balances} masterId={user.id} />
    </>
  );
}

function SubaccountView({ user }: { readonly user: UserInfo }) {
  const { t } = useLingui();
  const ctx = contextFor(window, user.id);
  const masterId = user.masterAccountId ?? 0;
  const readOnly = ctx?.readOnly ?? false;
  const acting = user.username;
  const [balances, setBalances] = useState<SubaccountBalance[]>([]);
  const [error, setError] = useState<SubaccountError | null>(null);
  const [busy, setBusy] = useState(false);
  const [version, setVersion] = useState(0);
  const load = useCallback(() => setVersion((v) => v + 1), []);
  useEffect(() => {
    let live = true;
    void groupBalances().then((r) => {
      if (!live) return;
      if (r.ok) setBalances(r.value);
      else setError(r.error);
    });
    return () => {
      live = false;
    };
  }, [version]);
  const back = async (): Promise<void> => {
    setBusy(true);
    setError(await switchTo(null, masterId));
    setBusy(false);
  };
  return (
    <>
      <section className={sub.card} aria-labelledby="context-title">
        <h2 className={sub.h2} id="context-title">
          <Trans>You are acting as {acting}</Trans>
        </h2>
        <p className={readOnly ? css.alert : css.info}>
          {readOnly ? (
            <Trans>
              This is a sub-account of your main account, opened read-only: you can see its balances and orders, but
              nothing can be changed.
            </Trans>
          ) : (
            <Trans>
              This is a sub-account of your main account. Orders, transfers and settings you make now are this
              sub-account&apos;s.
            </Trans>
          )}
        </p>
        <Alert error={error} />
        <div className={sub.actions}>
          <button className={shell.button} type="button" disabled={busy} onClick={() => void back()}>
            <Trans>Switch back to the main account</Trans>
          </button>
          <a className={shell.ghostButton} href="/tradedesk">
            <Trans>Open the trading desk</Trans>
          </a>
        </div>
      </section>
      {/* Shown read-only too: the exchange, which holds the rule, answers with the refusal. */}
      <TransferCard
        title={t`Move funds to the main account`}
        accounts={[{ id: masterId, label: t`Main account` }]}
        sourceBalances={balances}
        onDone={load}
      />
      <BalancesTable title={t`Balances of this sub-account`} balances={balances} masterId={null} />
    </>
  );
}

export function SubaccountsPage() {
  const s = useSnapshot(session);
  const user = s.user;
  return (
    <div className={sub.page}>
      <h1 className={css.h1}>
        <Trans>Sub-accounts</Trans>
      </h1>
      <p className={css.lead}>
        <Trans>
          Keep strategies and funds apart: open sub-accounts, act as one of them, and move funds between them and your
          main account.
        </Trans>
      </p>
      {user === null ? (
        <p className={css.muted}>
          <Trans>Loading…</Trans>
        </p>
      ) : user.masterAccountId !== null ? (
        <SubaccountView user={user} />
      ) : (
        <MasterView user={user} />
      )}
    </div>
  );
}
