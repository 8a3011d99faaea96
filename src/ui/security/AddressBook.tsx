import { Trans, useLingui } from "@lingui/react/macro";
import { useCallback, useEffect, useRef, useState } from "react";
import {
  WITHDRAWAL_NETWORKS,
  type AddressBook as Book,
  type AddressBookEntry,
  type AddressRowProblem,
  type CurrencyWithdrawals,
} from "../../protocol";
import { apiKeysCss as ui } from "../api-keys";
import {
  addAddresses,
  applyLink,
  cancelWaiting,
  confirmLink,
  deleteEntry,
  listBook,
  renameEntry,
  setWhitelist,
  setWithdrawals,
  type BookError,
  type BookResult,
  type NewAddresses,
  type Proof,
  type WaitingChange,
} from "./address-book-api";
import {
  AddAddressDialog,
  BeneficiaryDialog,
  ErrorLine,
  ProofDialog,
  RenameDialog,
  type AddressDraft,
} from "./AddressBookDialogs";
import { overview } from "./api";
import * as css from "./address-book.css";

/** A change that loosens where money may go, waiting for the owner's proof. */
type Loosening =
  | { readonly kind: "whitelist-off"; readonly currency: string }
  | { readonly kind: "enable"; readonly currency: string | null };

function currencyName(currency: string): string {
  return WITHDRAWAL_NETWORKS.find((n) => n.currency === currency)?.currencyName ?? currency;
}

function EntryRow({
  entry,
  busy,
  onRename,
  onDelete,
}: {
  readonly entry: AddressBookEntry;
  readonly busy: boolean;
  readonly onRename: () => void;
  readonly onDelete: () => void;
}) {
  const { t, i18n } = useLingui();
  const tag = entry.paymentId;
  const label = entry.label;
  const b = entry.beneficiary;
  const who = b.type === "self" ? "" : b.name;
  const where = b.type === "self" ? "" : regionName(i18n.locale, b.country);
  const owner = b.type === "self" ? t`Owner: you` : t`Owner: ${who} (${where})`;
  return (
    <li className={css.entry} data-testid="address-entry">
      <div className={css.entryHead}>
        <span className={css.entryLabel}>{entry.label}</span>
        {entry.status === "confirmed" ? (
          <span className={css.confirmed}>
            <Trans>Confirmed</Trans>
          </span>
        ) : entry.status === "pending" ? (
          <span className={css.pending}>
            <Trans>Waiting for e-mail confirmation</Trans>
          </span>
        ) : (
          <span className={css.expired}>
            <Trans>Link expired: delete and add again</Trans>
          </span>
        )}
      </div>
      <p className={css.address}>{entry.address}</p>
      {tag !== "" && <p className={ui.muted}>{t`Destination tag: ${tag}`}</p>}
      <p className={ui.muted}>{owner}</p>
      <div className={ui.row}>
        <button type="button" className={ui.ghost} disabled={busy} onClick={onRename}>
          <Trans>Rename</Trans>
        </button>
        <button
          type="button"
          className={ui.danger}
          disabled={busy}
          onClick={onDelete}
          aria-label={t`Delete the address ${label}`}
        >
          <Trans>Delete</Trans>
        </button>
      </div>
    </li>
  );
}

function regionName(locale: string, code: string): string {
  try {
    return new Intl.DisplayNames([locale], { type: "region" }).of(code) ?? code;
  } catch {
    return code;
  }
}

function CurrencySection({
  settings,
  entries,
  busy,
  onWhitelist,
  onWithdrawals,
  onCancelWaiting,
  onRename,
  onDelete,
}: {
  readonly settings: CurrencyWithdrawals;
  readonly entries: readonly AddressBookEntry[];
  readonly busy: boolean;
  readonly onWhitelist: (on: boolean) => void;
  readonly onWithdrawals: (enabled: boolean) => void;
  readonly onCancelWaiting: (kind: WaitingChange) => void;
  readonly onRename: (e: AddressBookEntry) => void;
  readonly onDelete: (e: AddressBookEntry) => void;
}) {
  const { t } = useLingui();
  const c = settings.currency;
  const name = currencyName(c);
  const headId = `currency-${c}`;
  return (
    <section className={css.currency} aria-labelledby={headId} data-testid={`currency-${c}`}>
      <div className={css.currencyHead}>
        <h2 className={css.h2} id={headId}>
          {name === c ? c : `${name} (${c})`}
        </h2>
        {settings.disabled && (
          <span className={css.off}>
            <Trans>Withdrawals off</Trans>
          </span>
        )}
      </div>
      <div className={css.controls}>
        <label className={css.switchLabel}>
          <input
            type="checkbox"
            role="switch"
            className={css.switchInput}
            checked={settings.whitelist}
            disabled={busy}
            onChange={(e) => onWhitelist(e.target.checked)}
          />
          <span>{t`Withdraw ${c} only to confirmed addresses`}</span>
        </label>
        <button type="button" className={ui.ghost} disabled={busy} onClick={() => onWithdrawals(settings.disabled)}>
          {settings.disabled ? t`Turn ${c} withdrawals on` : t`Turn ${c} withdrawals off`}
        </button>
      </div>
      {settings.pendingWhitelistOff !== null && (
        <div className={css.waiting} data-testid={`waiting-whitelist-${c}`}>
          <span>{t`Waiting for your confirmation by e-mail: the ${c} whitelist turns off.`}</span>
          <button type="button" className={ui.ghost} disabled={busy} onClick={() => onCancelWaiting("whitelist_off")}>
            <Trans>Cancel change</Trans>
          </button>
        </div>
      )}
      {settings.pendingEnable !== null && (
        <div className={css.waiting} data-testid={`waiting-enable-${c}`}>
          <span>{t`Waiting for your confirmation by e-mail: ${c} withdrawals turn on.`}</span>
          <button type="button" className={ui.ghost} disabled={busy} onClick={() => onCancelWaiting("enable")}>
            <Trans>Cancel change</Trans>
          </button>
        </div>
      )}
      {entries.length === 0 ? (
        <p className={ui.muted}>
          {settings.whitelist
            ? t`No addresses yet: while the whitelist is on, no ${c} withdrawal can leave.`
            : t`No addresses yet. Withdrawals may go to any valid address.`}
        </p>
      ) : (
        <ul className={css.entries} aria-label={t`${c} addresses`}>
          {entries.map((e) => (
            <EntryRow key={e.id} entry={e} busy={busy} onRename={() => onRename(e)} onDelete={() => onDelete(e)} />
          ))}
        </ul>
      )}
    </section>
  );
}

/**
 * The link the mailed mail opened this page with, read once: `?confirm=` confirms new addresses,
 * `?apply=` applies a loosening that waited for the owner's mailbox.
 */
function linkToken(): { readonly kind: "confirm" | "apply"; readonly token: string } | null {
  const q = new URLSearchParams(window.location.search);
  const confirm = q.get("confirm");
  if (confirm !== null) return { kind: "confirm", token: confirm };
  const apply = q.get("apply");
  return apply !== null ? { kind: "apply", token: apply } : null;
}

/**
 * The withdrawal address book (docs/product-rules.md#withdrawal-addresses): per currency its
 * whitelist switch, its withdrawals on or off, and its addresses with their confirmation state;
 * adding (the "add address" and "permitted beneficiary" dialogs), renaming, deleting; the
 * loosenings waiting for the owner's mail, with their cancel buttons; and the mailed links'
 * confirmation when the page is opened with `?confirm=` (new addresses) or `?apply=` (a loosening).
 */
export function AddressBook() {
  const { t } = useLingui();
  const [book, setBook] = useState<Book | null>(null);
  const [error, setError] = useState<BookError | null>(null);
  const [hasOtp, setHasOtp] = useState(false);
  const [busy, setBusy] = useState(false);
  const [confirmed, setConfirmed] = useState<"confirm" | "apply" | null>(null);
  const [requested, setRequested] = useState(false);
  const [step, setStep] = useState<"address" | "beneficiary" | null>(null);
  const [draft, setDraft] = useState<AddressDraft | null>(null);
  const [addError, setAddError] = useState<BookError | null>(null);
  const [rowError, setRowError] = useState<{ index: number; problem: AddressRowProblem } | null>(null);
  const [loosening, setLoosening] = useState<Loosening | null>(null);
  const [proofError, setProofError] = useState<BookError | null>(null);
  const [renaming, setRenaming] = useState<AddressBookEntry | null>(null);
  const [renameError, setRenameError] = useState<BookError | null>(null);
  const [added, setAdded] = useState(false);
  const linkHandled = useRef(false);

  /** Runs a call with the in-progress flag; the book it answered replaces the shown one. */
  const run = useCallback(async (call: () => Promise<BookResult>): Promise<BookError | null> => {
    setBusy(true);
    try {
      const r = await call();
      if (r.ok) setBook(r.book);
      return r.ok ? null : r.error;
    } finally {
      setBusy(false);
    }
  }, []);

  useEffect(() => {
    let live = true;
    void overview().then((r) => {
      if (live && r.ok) setHasOtp(r.value.factors.includes("otp"));
    });
    const link = linkToken();
    if (link !== null && !linkHandled.current) {
      linkHandled.current = true;
      // The link is spent either way; the address bar should not offer it again.
      window.history.replaceState(window.history.state, "", window.location.pathname);
      void run(() => (link.kind === "confirm" ? confirmLink(link.token) : applyLink(link.token))).then((e) => {
        if (!live) return;
        if (e === null) setConfirmed(link.kind);
        else setError(e);
        if (e !== null) void run(listBook);
      });
    } else {
      void run(listBook).then((e) => {
        if (live && e !== null) setError(e);
      });
    }
    return () => {
      live = false;
    };
  }, [run]);

  const act = async (call: () => Promise<BookResult>): Promise<void> => {
    setError(null);
    setRequested(false);
    const e = await run(call);
    if (e !== null) {
      setError(e);
      if (e.kind === "gone") void run(listBook);
    }
  };

  const submitAdd = async (a: NewAddresses, proof: Proof): Promise<void> => {
    setAddError(null);
    const e = await run(() => addAddresses(a, proof));
    if (e === null) {
      setStep(null);
      setDraft(null);
      setAdded(true);
    } else if (e.kind === "row") {
      // Back to the addresses, the refused one marked.
      setRowError({ index: e.index, problem: e.problem });
      setStep("address");
    } else setAddError(e);
  };

  const submitProof = async (proof: Proof): Promise<void> => {
    if (!loosening) return;
    setProofError(null);
    const l = loosening;
    const e = await run(() =>
      l.kind === "whitelist-off" ? setWhitelist(l.currency, false, proof) : setWithdrawals(l.currency, true, proof),
    );
    if (e === null) {
      setLoosening(null);
      setRequested(true);
    } else setProofError(e);
  };

  const allOff = book?.currencies.every((c) => c.disabled) ?? false;
  const looseningCurrency = loosening?.currency ?? "";

  return (
    <div>
      {confirmed === "confirm" && (
        <p className={ui.hint} role="status" data-testid="address-confirmed">
          <Trans>The address is confirmed: withdrawals may go to it now.</Trans>
        </p>
      )}
      {confirmed === "apply" && (
        <p className={ui.hint} role="status" data-testid="change-applied">
          <Trans>The change is made.</Trans>
        </p>
      )}
      {requested && (
        <p className={ui.hint} role="status">
          <Trans>We sent you an e-mail. The change takes effect when you open its confirmation link.</Trans>
        </p>
      )}
      {added && (
        <p className={ui.hint} role="status">
          <Trans>
            We sent you an e-mail. Open its link within an hour to confirm the address: until then it receives nothing.
          </Trans>
        </p>
      )}
      <ErrorLine error={error} />
      <div className={css.toolbar}>
        <button
          type="button"
          className={ui.button}
          disabled={busy || book === null}
          onClick={() => {
            setDraft(null);
            setRowError(null);
            setAddError(null);
            setStep("address");
          }}
        >
          <Trans>Add address</Trans>
        </button>
        <button
          type="button"
          className={ui.ghost}
          disabled={busy || book === null}
          onClick={() =>
            allOff
              ? setLoosening({ kind: "enable", currency: null })
              : void act(() => setWithdrawals(null, false, null))
          }
        >
          {allOff ? t`Turn all withdrawals on` : t`Turn all withdrawals off`}
        </button>
      </div>
      {book === null
        ? error === null && (
            <p className={ui.muted} role="status">
              <Trans>Loading…</Trans>
            </p>
          )
        : book.currencies.map((c) => (
            <CurrencySection
              key={c.currency}
              settings={c}
              entries={book.entries.filter((e) => e.currency === c.currency)}
              busy={busy}
              onWhitelist={(on) => {
                setProofError(null);
                if (on) void act(() => setWhitelist(c.currency, true, null));
                else setLoosening({ kind: "whitelist-off", currency: c.currency });
              }}
              onWithdrawals={(enable) => {
                setProofError(null);
                if (enable) setLoosening({ kind: "enable", currency: c.currency });
                else void act(() => setWithdrawals(c.currency, false, null));
              }}
              onCancelWaiting={(kind) => void act(() => cancelWaiting(c.currency, kind))}
              onRename={(e) => {
                setRenameError(null);
                setRenaming(e);
              }}
              onDelete={(e) => void act(() => deleteEntry(e.id))}
            />
          ))}
      <AddAddressDialog
        open={step === "address"}
        initial={draft}
        entries={book?.entries ?? []}
        rowError={rowError}
        onClose={() => setStep(null)}
        onNext={(d) => {
          setDraft(d);
          setRowError(null);
          setAddError(null);
          setStep("beneficiary");
        }}
      />
      <BeneficiaryDialog
        open={step === "beneficiary"}
        draft={draft}
        hasOtp={hasOtp}
        error={addError}
        busy={busy}
        onBack={() => setStep("address")}
        onClose={() => setStep(null)}
        onSubmit={(a, proof) => void submitAdd(a, proof)}
      />
      <ProofDialog
        open={loosening !== null}
        title={loosening?.kind === "whitelist-off" ? t`Turn the whitelist off` : t`Turn withdrawals on`}
        text={
          loosening?.kind === "whitelist-off"
            ? t`Withdrawals of ${looseningCurrency} may then go to any address. Confirm it is you; the change waits until you open the link we e-mail you.`
            : t`Withdrawals will be possible again. Confirm it is you; the change waits until you open the link we e-mail you.`
        }
        action={loosening?.kind === "whitelist-off" ? t`Turn off` : t`Turn on`}
        hasOtp={hasOtp}
        error={proofError}
        busy={busy}
        onClose={() => setLoosening(null)}
        onSubmit={(p) => void submitProof(p)}
      />
      <RenameDialog
        entry={renaming}
        error={renameError}
        busy={busy}
        onClose={() => setRenaming(null)}
        onSubmit={(label) => {
          const e = renaming;
          if (!e) return;
          void run(() => renameEntry(e.id, label)).then((err) => {
            if (err === null) setRenaming(null);
            else setRenameError(err);
          });
        }}
      />
    </div>
  );
}
