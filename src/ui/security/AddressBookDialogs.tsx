import { Trans, useLingui } from "@lingui/react/macro";
import { useEffect, useId, useMemo, useState, type FormEvent } from "react";
import {
  ADDRESS_BOOK_LIMITS,
  checkPaymentId,
  labelValid,
  readBeneficiary,
  reviewAddressRows,
  WITHDRAWAL_CURRENCIES,
  WITHDRAWAL_NETWORKS,
  type AddressBookEntry,
  type AddressRowProblem,
  type Beneficiary,
  type BeneficiaryProblem,
  type WithdrawalMethod,
} from "../../protocol";
import { apiKeysCss as ui, Modal } from "../api-keys";
import { openingHttp, signupContext } from "../session";
import { useApiErrorText } from "../shell/api-error-text";
import type { BookError, NewAddresses, Proof } from "./address-book-api";
import * as css from "./address-book.css";

/** What the page says of an address row's problem, naming the network. */
export function useProblemText(): (p: AddressRowProblem, network: string) => string {
  const { t } = useLingui();
  return (p, network) => {
    switch (p) {
      case "empty":
        return t`Enter an address.`;
      case "characters":
        return t`This is not a ${network} address: it has characters or a form ${network} addresses never have.`;
      case "checksum":
        return t`The address's checksum does not match: a character is probably mistyped. Copy and paste the address instead of typing it.`;
      case "length":
        return t`The address has the wrong length for ${network}.`;
      case "testnet":
        return t`This is a test network address. Coins sent there are not real ${network} coins and would be lost.`;
      case "other-network":
        return t`This address belongs to another network. Choose the network it is on, or use a ${network} address.`;
      case "unsupported":
        return t`This kind of ${network} address cannot receive withdrawals yet: coins sent there could be lost.`;
      case "payment-id-format":
        return t`A destination tag is a whole number without leading zeros.`;
      case "payment-id-range":
        return t`A destination tag is at most 4294967295.`;
      case "payment-id-unsupported":
        return t`${network} withdrawals carry no payment id.`;
      case "existing":
        return t`This address is in your address book already.`;
      default: {
        const never: never = p;
        return never;
      }
    }
  };
}

/** What the page says of a refused call. */
export function useBookErrorText(): (e: BookError) => string | null {
  const { t } = useLingui();
  const appText = useApiErrorText();
  return (e) => {
    switch (e.kind) {
      case "password":
        return t`The password is not right.`;
      case "code":
        return t`That code is not right. Enter the current 6-digit code from your authenticator app.`;
      case "row":
        return t`Check the addresses marked above.`;
      case "label":
        return t`Give the address a label of 1 to 64 characters on one line.`;
      case "beneficiary":
        return t`Say who owns the address: you, or the person or company with their country.`;
      case "full":
        return t`Your address book is full. Delete an address you no longer use first.`;
      case "link":
        return t`This confirmation link is not valid: it was used already, it has expired, or it belongs to another account.`;
      case "gone":
        return t`That address is no longer in your book. The list has been refreshed.`;
      case "proof-locked":
        return t`Too many wrong passwords or codes. Wait ten minutes, then try again.`;
      case "no-pending":
        return t`That change is no longer waiting: it was confirmed, cancelled or has expired.`;
      case "app":
        return appText(e.app);
      default: {
        const never: never = e;
        return never;
      }
    }
  };
}

export function ErrorLine({ error }: { readonly error: BookError | null }) {
  const text = useBookErrorText();
  const said = error === null ? null : text(error);
  return said === null ? null : (
    <p className={css.problem} role="alert">
      {said}
    </p>
  );
}

/** The password and, when two-factor is on, the current code: what loosening a rule asks for. */
function ProofFields({
  proof,
  hasOtp,
  onChange,
}: {
  readonly proof: Proof;
  readonly hasOtp: boolean;
  readonly onChange: (p: Proof) => void;
}) {
  return (
    <>
      <label className={ui.field}>
        <span>
          <Trans>Password</Trans>
        </span>
        <input
          className={ui.input}
          type="password"
          autoComplete="current-password"
          value={proof.password}
          onChange={(e) => onChange({ ...proof, password: e.target.value })}
        />
      </label>
      {hasOtp && (
        <label className={ui.field}>
          <span>
            <Trans>Authenticator code</Trans>
          </span>
          <input
            className={ui.input}
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            spellCheck={false}
            value={proof.code}
            onChange={(e) => onChange({ ...proof, code: e.target.value.replace(/\s+/g, "") })}
          />
        </label>
      )}
    </>
  );
}

const NO_PROOF: Proof = { password: "", code: "" };

export interface AddressDraft {
  readonly currency: string;
  readonly method: WithdrawalMethod;
  readonly label: string;
  readonly rows: readonly { readonly address: string; readonly paymentId: string }[];
}

const EMPTY_ROW = { address: "", paymentId: "" };

/**
 * The "add address" dialog: currency, network, label and one or more addresses, each checked as it
 * is typed by the validators the exchange applies (src/protocol addresses.ts), duplicates of the
 * book or of a row above flagged. Continue leads to the beneficiary dialog.
 */
interface AddAddressProps {
  readonly initial: AddressDraft | null;
  readonly entries: readonly AddressBookEntry[];
  /** A row the exchange refused, shown against that row. */
  readonly rowError: { readonly index: number; readonly problem: AddressRowProblem } | null;
  readonly onClose: () => void;
  readonly onNext: (d: AddressDraft) => void;
}

export function AddAddressDialog(props: AddAddressProps & { readonly open: boolean }) {
  const { t } = useLingui();
  // The form mounts with each opening (Modal renders its content only while open): fresh state.
  return (
    <Modal open={props.open} title={t`Add a withdrawal address`} onClose={props.onClose} testId="add-address-dialog">
      <AddAddressForm {...props} />
    </Modal>
  );
}

function AddAddressForm({ initial, entries, rowError, onClose, onNext }: AddAddressProps) {
  const { t } = useLingui();
  const problemText = useProblemText();
  const [currency, setCurrency] = useState(initial?.currency ?? WITHDRAWAL_CURRENCIES[0] ?? "BTC");
  const networks = WITHDRAWAL_NETWORKS.filter((n) => n.currency === currency);
  const [method, setMethod] = useState<WithdrawalMethod>(initial?.method ?? networks[0]?.method ?? "bitcoin");
  const [label, setLabel] = useState(initial?.label ?? "");
  const [rows, setRows] = useState(initial?.rows ?? [EMPTY_ROW]);
  const [touched, setTouched] = useState(initial !== null);
  const network = WITHDRAWAL_NETWORKS.find((n) => n.method === method) ?? WITHDRAWAL_NETWORKS[0];
  const id = useId();

  // Row by row against the book of this network, as the exchange reviews them (empty rows aside).
  const problems = useMemo(() => {
    const book = entries.filter((e) => e.method === method);
    const seen: { address: string; paymentId: string }[] = book.map((e) => ({
      address: e.address,
      paymentId: e.paymentId,
    }));
    return rows.map((r, i) => {
      if (r.address.trim() === "" && r.paymentId.trim() === "" && rows.length > 1) return null;
      const [reviewed] = reviewAddressRows(method, [r], seen);
      if (reviewed && reviewed.problem === null) seen.push(reviewed);
      if (rowError && rowError.index === i) return rowError.problem;
      return reviewed?.problem ?? null;
    });
  }, [rows, method, entries, rowError]);

  if (!network) return null;
  const networkName = network.name;
  const labelOk = labelValid(label);
  const filled = rows.filter((r) => r.address.trim() !== "" || r.paymentId.trim() !== "");
  const ready = labelOk && filled.length > 0 && problems.every((p) => p === null);

  const submit = (e: FormEvent): void => {
    e.preventDefault();
    setTouched(true);
    if (!ready) return;
    onNext({ currency, method, label: label.trim(), rows: filled });
  };
  const setRow = (i: number, change: Partial<{ address: string; paymentId: string }>): void =>
    setRows(rows.map((r, j) => (j === i ? { ...r, ...change } : r)));

  return (
    <form className={ui.form} onSubmit={submit} noValidate>
      <label className={ui.field}>
        <span>
          <Trans>Currency</Trans>
        </span>
        <select
          className={ui.input}
          value={currency}
          onChange={(e) => {
            const c = e.target.value;
            setCurrency(c);
            setMethod(WITHDRAWAL_NETWORKS.find((n) => n.currency === c)?.method ?? method);
          }}
        >
          {WITHDRAWAL_CURRENCIES.map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
        </select>
      </label>
      <label className={ui.field}>
        <span>
          <Trans>Network</Trans>
        </span>
        <select
          className={ui.input}
          value={method}
          onChange={(e) => setMethod((networks.find((n) => n.method === e.target.value) ?? network).method)}
        >
          {networks.map((n) => (
            <option key={n.method} value={n.method}>
              {n.name}
            </option>
          ))}
        </select>
      </label>
      {/* The hint stays outside the label: it describes the field (aria-describedby), not names it. */}
      <div className={ui.field}>
        <label className={ui.field}>
          <span>
            <Trans>Label</Trans>
          </span>
          <input
            className={ui.input}
            value={label}
            maxLength={ADDRESS_BOOK_LIMITS.label + 10}
            aria-invalid={touched && !labelOk}
            aria-describedby={`${id}-label`}
            onChange={(e) => setLabel(e.target.value)}
          />
        </label>
        <span id={`${id}-label`} className={touched && !labelOk ? css.problem : ui.hint}>
          <Trans>What you call this address, for example “My hardware wallet”.</Trans>
        </span>
      </div>
      <ol className={css.rowsList}>
        {rows.map((r, i) => {
          const p = problems[i] ?? null;
          const shown = p !== null && (touched || r.address.trim() !== "" || r.paymentId.trim() !== "");
          const pidProblem = network.hasPaymentId ? checkPaymentId(method, r.paymentId) : null;
          const n = i + 1;
          return (
            <li key={i} className={css.addressRow}>
              <label className={ui.field}>
                <span>{rows.length > 1 ? t`Address ${n}` : t`Address`}</span>
                <input
                  className={ui.input}
                  value={r.address}
                  spellCheck={false}
                  autoComplete="off"
                  aria-invalid={shown}
                  aria-describedby={`${id}-row-${i}`}
                  onChange={(e) => setRow(i, { address: e.target.value })}
                />
              </label>
              {network.hasPaymentId && (
                <label className={ui.field}>
                  <span>{t`Destination tag (optional)`}</span>
                  <input
                    className={ui.input}
                    value={r.paymentId}
                    inputMode="numeric"
                    aria-invalid={pidProblem !== null}
                    onChange={(e) => setRow(i, { paymentId: e.target.value })}
                  />
                </label>
              )}
              <p id={`${id}-row-${i}`} className={shown ? css.problem : css.ok} aria-live="polite">
                {shown && p !== null
                  ? problemText(p, network.name)
                  : r.address.trim() !== ""
                    ? t`A valid ${networkName} address.`
                    : ""}
              </p>
              {rows.length > 1 && (
                <div>
                  <button type="button" className={ui.ghost} onClick={() => setRows(rows.filter((_, j) => j !== i))}>
                    {t`Remove address ${n}`}
                  </button>
                </div>
              )}
            </li>
          );
        })}
      </ol>
      {rows.length < ADDRESS_BOOK_LIMITS.rows && (
        <div>
          <button type="button" className={ui.ghost} onClick={() => setRows([...rows, EMPTY_ROW])}>
            <Trans>Add another address</Trans>
          </button>
        </div>
      )}
      <div className={ui.row}>
        <button type="submit" className={ui.button}>
          <Trans>Continue</Trans>
        </button>
        <button type="button" className={ui.ghost} onClick={onClose}>
          <Trans>Cancel</Trans>
        </button>
      </div>
    </form>
  );
}

/** Countries for the third party's residence, named in the page's language. */
function useCountries(locale: string): readonly { code: string; name: string }[] {
  const [list, setList] = useState<readonly { code: string; name: string }[]>([]);
  useEffect(() => {
    let live = true;
    void signupContext(openingHttp()).then((c) => {
      if (!live) return;
      let names: Intl.DisplayNames | null = null;
      try {
        names = new Intl.DisplayNames([locale], { type: "region" });
      } catch {
        names = null;
      }
      setList(
        c.countries
          .map((x) => ({ code: x.code, name: names?.of(x.code) ?? x.name }))
          .sort((a, b) => a.name.localeCompare(b.name, locale)),
      );
    });
    return () => {
      live = false;
    };
  }, [locale]);
  return list;
}

/**
 * The "permitted beneficiary" dialog: who owns the addresses (the account holder, or a named third
 * party in a country: what the travel rule asks a sending exchange to know), then the owner's proof.
 */
interface BeneficiaryProps {
  readonly draft: AddressDraft | null;
  readonly hasOtp: boolean;
  readonly error: BookError | null;
  readonly busy: boolean;
  readonly onBack: () => void;
  readonly onClose: () => void;
  readonly onSubmit: (a: NewAddresses, proof: Proof) => void;
}

export function BeneficiaryDialog(props: BeneficiaryProps & { readonly open: boolean }) {
  const { t } = useLingui();
  return (
    <Modal open={props.open} title={t`Permitted beneficiary`} onClose={props.onClose} testId="beneficiary-dialog">
      <BeneficiaryForm {...props} />
    </Modal>
  );
}

function BeneficiaryForm({ draft, hasOtp, error, busy, onBack, onSubmit }: BeneficiaryProps) {
  const { t } = useLingui();
  const [owner, setOwner] = useState<"self" | "third_party">("self");
  const [name, setName] = useState("");
  const [country, setCountry] = useState("");
  const [proof, setProof] = useState(NO_PROOF);
  const [touched, setTouched] = useState(false);
  const read = readBeneficiary(owner === "self" ? { type: "self" } : { type: "third_party", name, country });
  const fieldProblem = typeof read === "string" ? read : null;
  const submit = (e: FormEvent): void => {
    e.preventDefault();
    setTouched(true);
    if (draft === null || typeof read === "string" || proof.password === "") return;
    const beneficiary: Beneficiary = read;
    onSubmit({ ...draft, beneficiary }, proof);
  };
  return (
    <form className={ui.form} onSubmit={submit} noValidate>
      <p className={ui.hint}>
        <Trans>Exchanges must know who receives a withdrawal. Tell us who owns the addresses you add.</Trans>
      </p>
      <BeneficiaryFields
        owner={owner}
        name={name}
        country={country}
        invalid={touched ? fieldProblem : null}
        onOwner={setOwner}
        onName={setName}
        onCountry={setCountry}
      />
      {owner === "third_party" && touched && fieldProblem !== null && (
        <p className={css.problem} role="alert">
          {fieldProblem === "name" ? t`Enter the owner's full name.` : t`Choose the owner's country.`}
        </p>
      )}
      <p className={ui.hint}>
        <Trans>
          To add an address, confirm it is you. We then e-mail you a link: the address receives nothing until you open
          it.
        </Trans>
      </p>
      <ProofFields proof={proof} hasOtp={hasOtp} onChange={setProof} />
      {touched && proof.password === "" && (
        <p className={css.problem} role="alert">
          {t`Enter your password.`}
        </p>
      )}
      <ErrorLine error={error} />
      <div className={ui.row}>
        <button type="submit" className={ui.button} disabled={busy}>
          <Trans>Add address</Trans>
        </button>
        <button type="button" className={ui.ghost} onClick={onBack} disabled={busy}>
          <Trans>Back</Trans>
        </button>
      </div>
    </form>
  );
}

/** Asks for the owner's proof before a change that loosens where money may go. */
interface ProofProps {
  readonly text: string;
  readonly action: string;
  readonly hasOtp: boolean;
  readonly error: BookError | null;
  readonly busy: boolean;
  readonly onClose: () => void;
  readonly onSubmit: (p: Proof) => void;
}

export function ProofDialog(props: ProofProps & { readonly open: boolean; readonly title: string }) {
  return (
    <Modal open={props.open} title={props.title} onClose={props.onClose} testId="proof-dialog">
      <ProofForm {...props} />
    </Modal>
  );
}

function ProofForm({ text, action, hasOtp, error, busy, onClose, onSubmit }: ProofProps) {
  const [proof, setProof] = useState(NO_PROOF);
  return (
    <form
      className={ui.form}
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit(proof);
      }}
    >
      <p className={ui.hint}>{text}</p>
      <ProofFields proof={proof} hasOtp={hasOtp} onChange={setProof} />
      <ErrorLine error={error} />
      <div className={ui.row}>
        <button type="submit" className={ui.button} disabled={busy || proof.password === ""}>
          {action}
        </button>
        <button type="button" className={ui.ghost} onClick={onClose} disabled={busy}>
          <Trans>Cancel</Trans>
        </button>
      </div>
    </form>
  );
}

/** Renames an entry (its label only; the address never changes: delete and add instead). */
interface RenameProps {
  readonly error: BookError | null;
  readonly busy: boolean;
  readonly onClose: () => void;
  readonly onSubmit: (label: string) => void;
}

export function RenameDialog(props: RenameProps & { readonly entry: AddressBookEntry | null }) {
  const { t } = useLingui();
  return (
    <Modal open={props.entry !== null} title={t`Rename address`} onClose={props.onClose} testId="rename-dialog">
      {props.entry && <RenameForm {...props} initial={props.entry.label} />}
    </Modal>
  );
}

function RenameForm({ initial, error, busy, onClose, onSubmit }: RenameProps & { readonly initial: string }) {
  const [label, setLabel] = useState(initial);
  const valid = labelValid(label);
  return (
    <form
      className={ui.form}
      onSubmit={(e) => {
        e.preventDefault();
        if (valid) onSubmit(label.trim());
      }}
    >
      <label className={ui.field}>
        <span>
          <Trans>Label</Trans>
        </span>
        <input
          className={ui.input}
          value={label}
          aria-invalid={!valid}
          maxLength={ADDRESS_BOOK_LIMITS.label + 10}
          onChange={(e) => setLabel(e.target.value)}
        />
      </label>
      <ErrorLine error={error} />
      <div className={ui.row}>
        <button type="submit" className={ui.button} disabled={busy || !valid}>
          <Trans>Save</Trans>
        </button>
        <button type="button" className={ui.ghost} onClick={onClose} disabled={busy}>
          <Trans>Cancel</Trans>
        </button>
      </div>
    </form>
  );
}

/**
 * Who owns an address: the holder, or a named third party in a country — what the travel rule asks
 * a sending exchange to know (the permitted-beneficiary dialog, the withdrawal form's travel rule).
 */
export function BeneficiaryFields({
  owner,
  name,
  country,
  invalid,
  onOwner,
  onName,
  onCountry,
}: {
  readonly owner: "self" | "third_party";
  readonly name: string;
  readonly country: string;
  /** The field to mark, when the form has been sent with it wrong. */
  readonly invalid: BeneficiaryProblem | null;
  readonly onOwner: (owner: "self" | "third_party") => void;
  readonly onName: (name: string) => void;
  readonly onCountry: (country: string) => void;
}) {
  const { t, i18n } = useLingui();
  const countries = useCountries(i18n.locale);
  const group = useId();
  return (
    <>
      <fieldset className={css.fieldset}>
        <legend className={css.legend}>
          <Trans>Who owns the address?</Trans>
        </legend>
        <label className={css.choice}>
          <input type="radio" name={group} checked={owner === "self"} onChange={() => onOwner("self")} />
          <span>
            <Trans>I do: it is my own wallet</Trans>
          </span>
        </label>
        <label className={css.choice}>
          <input type="radio" name={group} checked={owner === "third_party"} onChange={() => onOwner("third_party")} />
          <span>
            <Trans>Another person or a company</Trans>
          </span>
        </label>
      </fieldset>
      {owner === "third_party" && (
        <>
          <label className={ui.field}>
            <span>
              <Trans>Full name of the person or company</Trans>
            </span>
            <input
              className={ui.input}
              value={name}
              maxLength={ADDRESS_BOOK_LIMITS.beneficiaryName}
              aria-invalid={invalid === "name"}
              onChange={(e) => onName(e.target.value)}
            />
          </label>
          <label className={ui.field}>
            <span>
              <Trans>Their country</Trans>
            </span>
            <select
              className={ui.input}
              value={country}
              aria-invalid={invalid === "country"}
              onChange={(e) => onCountry(e.target.value)}
            >
              <option value="">{t`Choose a country`}</option>
              {countries.map((c) => (
                <option key={c.code} value={c.code}>
                  {c.name}
                </option>
              ))}
            </select>
          </label>
        </>
      )}
    </>
  );
}
