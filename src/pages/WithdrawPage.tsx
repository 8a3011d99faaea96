import { Trans } from "@lingui/react/macro";
import { useCallback, useEffect, useRef, useState } from "react";
import { useLocation, useSearch } from "wouter";
import {
  WITHDRAWAL_CURRENCIES,
  WITHDRAWAL_METHODS,
  type AddressBook,
  type VerificationLevel,
  type WithdrawalMethodInfo,
  type WithdrawInfo,
} from "../protocol";
import { levelGate } from "../ui/account/level-gate";
import {
  MovementChoices,
  NetworkChoice,
  useNoticeKey,
  useWallet,
  WalletFigure,
  type MovementWallet,
} from "../ui/movements/MovementParts";
import { listBook } from "../ui/security/address-book-api";
import { ConfirmPanel } from "../ui/withdrawals/ConfirmPanel";
import { CallError, WithdrawForm } from "../ui/withdrawals/WithdrawForm";
import { WITHDRAWAL_NOTICE_TYPES, WithdrawHistory } from "../ui/withdrawals/WithdrawHistory";
import { withdrawInfo, type WithdrawError } from "../ui/withdrawals/withdraw-api";
import * as css from "./pages.css";
import * as x from "./withdraw.css";

/** The currency in /withdraw/CCY when it is one that can be withdrawn. */
function currencyFromPath(path: string): string | null {
  const m = /^\/withdraw\/([^/]+)/.exec(path);
  const code = m?.[1]?.toUpperCase() ?? "";
  return WITHDRAWAL_CURRENCIES.includes(code) ? code : null;
}

/**
 * /withdraw[/CCY] (docs/product-rules.md#withdrawals): choose the currency, its network and the
 * wallet, then the form (src/ui/withdrawals) and the currency's withdrawals below it. Opened from
 * the mailed link (`?confirm=TOKEN`) it first shows what would be confirmed and waits for the
 * owner's press; below the verification level withdrawals need, the required-level dialog instead
 * of the form.
 */
export function WithdrawPage() {
  const [path, navigate] = useLocation();
  const token = new URLSearchParams(useSearch()).get("confirm");
  const currency = currencyFromPath(path);
  const methods = WITHDRAWAL_METHODS.filter((m) => m.currency === currency);
  const [methodName, setMethodName] = useState<string | null>(null);
  const method = methods.find((m) => m.method === methodName) ?? methods[0] ?? null;
  const [wallet, setWallet] = useState<MovementWallet>("exchange");
  const [confirmed, setConfirmed] = useState(false);
  return (
    <div className={x.page}>
      <h1 className={css.h1}>
        <Trans>Withdraw</Trans>
      </h1>
      <p className={css.lead}>
        <Trans>Send funds from your account to an address of yours or someone else&apos;s.</Trans>
      </p>
      {token !== null && (
        <ConfirmPanel
          token={token}
          onConfirmed={(c) => {
            setConfirmed(true);
            // The link is spent: the address bar drops it and the page shows the currency's list.
            navigate(`/withdraw/${c}`, { replace: true });
          }}
        />
      )}
      {confirmed && token === null && (
        <p className={x.success} role="status" data-testid="withdraw-confirmed">
          <Trans>Your withdrawal is confirmed and queued. It can be cancelled below until it is being sent.</Trans>
        </p>
      )}
      <MovementChoices
        currencies={WITHDRAWAL_CURRENCIES}
        currency={currency}
        onCurrency={(c) => {
          setMethodName(null);
          setConfirmed(false);
          navigate(c === null ? "/withdraw" : `/withdraw/${c}`);
        }}
        walletLabel={<Trans>From wallet</Trans>}
        wallet={wallet}
        onWallet={setWallet}
      />
      {method && (
        <NetworkChoice
          name="withdraw-network"
          methods={methods}
          value={method.method}
          onChange={(m) => setMethodName(m)}
        />
      )}
      {currency === null || method === null ? (
        <p className={x.muted}>
          <Trans>Choose the currency you want to withdraw.</Trans>
        </p>
      ) : (
        <>
          <WalletFigure currency={currency} wallet={wallet} figure="available" testId="withdraw-available" />
          <MethodSection key={method.method} method={method} wallet={wallet} />
        </>
      )}
    </div>
  );
}

type InfoState =
  | { readonly kind: "loading" }
  | { readonly kind: "ready"; readonly info: WithdrawInfo; readonly book: AddressBook | null }
  | { readonly kind: "error"; readonly error: WithdrawError };

/** One method: what the exchange says of it for this account, the form (or the level it needs), and the list. */
function MethodSection({ method, wallet }: { readonly method: WithdrawalMethodInfo; readonly wallet: MovementWallet }) {
  const [state, setState] = useState<InfoState>({ kind: "loading" });
  // Bumped by a withdrawal or a cancellation: the used part of the daily limit changed.
  const [generation, setGeneration] = useState(0);
  const notices = useNoticeKey(WITHDRAWAL_NOTICE_TYPES);
  const row = useWallet(method.currency, wallet);

  useEffect(() => {
    let live = true;
    void Promise.all([withdrawInfo(method.method), listBook()]).then(([info, book]) => {
      if (!live) return;
      if (info.ok) setState({ kind: "ready", info: info.value, book: book.ok ? book.book : null });
      else setState({ kind: "error", error: info.error });
    });
    return () => {
      live = false;
    };
  }, [method.method, generation, notices]);

  // Below the level withdrawals need, the required-level dialog says which and where to ask, once per method.
  const gated = state.kind === "ready" && state.info.level.current < state.info.level.needed;
  const gateShown = useRef(false);
  useEffect(() => {
    if (state.kind !== "ready" || !gated || gateShown.current) return;
    gateShown.current = true;
    levelGate.gate = {
      action: "withdraw",
      needed: state.info.level.needed as VerificationLevel,
      current: state.info.level.current,
    };
  }, [gated, state]);

  const changed = useCallback(() => setGeneration((g) => g + 1), []);

  return (
    <>
      {state.kind === "loading" && (
        <p className={x.muted} role="status">
          <Trans>Loading…</Trans>
        </p>
      )}
      {state.kind === "error" && <CallError error={state.error} />}
      {state.kind === "ready" &&
        (gated ? (
          <p className={css.alert} role="alert" data-testid="withdraw-level">
            <Trans>
              Withdrawals need a higher verification level. <a href="/account#verification">Verify your account</a> to
              withdraw.
            </Trans>
          </p>
        ) : (
          <WithdrawForm
            method={method}
            wallet={wallet}
            // Live from the account socket; until it has sent the wallets, the info call's figure.
            available={row === undefined ? null : (row?.available ?? 0)}
            info={state.info}
            book={state.book}
            onSent={changed}
          />
        ))}
      <WithdrawHistory currency={method.currency} generation={generation} onChanged={changed} />
    </>
  );
}
