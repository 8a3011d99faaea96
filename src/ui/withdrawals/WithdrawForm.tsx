/**
 * The withdrawal form (docs/product-rules.md#withdrawals): the destination — a confirmed address of
 * the book, or typed and checked by the exchange once typing pauses — the amount with "Max", the
 * minimum, the fee, what arrives and what is left of the daily limit, the travel-rule details when
 * the amount's USD value needs them, a note and the second-factor code. The amount is checked by the
 * exchange's own rules before anything is sent; a refusal is shown beside the field it concerns and
 * nothing typed is lost; a retry of the same withdrawal keeps its request id.
 */
import { Trans, useLingui } from "@lingui/react/macro";
import { useEffect, useId, useMemo, useState, type FormEvent } from "react";
import {
  currencyTicker,
  readBeneficiary,
  WITHDRAWAL_NETWORKS,
  WITHDRAWAL_NOTE_MAX,
  type AddressBook,
  type AddressBookEntry,
  type AddressCheckResult,
  type TravelRule,
  type Vasp,
  type WithdrawalMethodInfo,
  type WithdrawInfo,
} from "../../protocol";
import { showLevelGateFor } from "../account/level-gate";
import type { MovementWallet } from "../movements/MovementParts";
import { useAmountText } from "../movements/MovementParts";
import { appScheduler } from "../scheduler";
import { useProblemText } from "../security/AddressBookDialogs";
import {
  amountProblem,
  fieldOfRefusal,
  maxUnits,
  receiveUnits,
  RequestIds,
  textOfUnits,
  travelRuleNeeded,
  unitsBelow,
  type AmountProblem,
  type RefusalField,
} from "./model";
import { SecondFactorField } from "./SecondFactorField";
import { TravelRuleFields } from "./TravelRuleFields";
import {
  checkAddressAsTyped,
  newRequestId,
  requestWithdrawal,
  travelRuleInfo,
  type WithdrawError,
} from "./withdraw-api";
import { useErrorText, useRefusalText } from "./words";
import * as x from "./withdrawals.css";

/** How long typing pauses before the address is checked by the exchange. */
const CHECK_DELAY_MS = 350;

/** What the page says of a call that failed around the form (or of a refusal it has no field for). */
export function CallError({ error }: { readonly error: WithdrawError }) {
  const text = useErrorText();
  const said = text(error);
  return said === null ? null : (
    <p className={x.alert} role="alert">
      {said}
    </p>
  );
}

/** Where the address comes from: a confirmed entry of the book, or typed. */
type Source = { readonly kind: "book"; readonly id: number } | { readonly kind: "typed" };

/** The exchange's answer for a typed address and destination tag. */
interface Checked {
  readonly text: string;
  readonly tag: string;
  readonly result: AddressCheckResult;
}

/** What went through: whether it waits for the mailed link. */
interface Sent {
  readonly mail: boolean;
  readonly amount: string;
}

interface FormProps {
  readonly method: WithdrawalMethodInfo;
  readonly wallet: MovementWallet;
  /** Live from the account socket; null until it has sent the wallets (the info call's figure then). */
  readonly available: number | null;
  readonly info: WithdrawInfo;
  readonly book: AddressBook | null;
  readonly onSent: () => void;
}

export function WithdrawForm({ method, wallet, available: live, info, book, onSent }: FormProps) {
  const { t, i18n } = useLingui();
  const id = useId();
  const fmt = useAmountText();
  const problemText = useProblemText();
  const refusalText = useRefusalText();
  const network = WITHDRAWAL_NETWORKS.find((n) => n.method === method.method);
  const hasPaymentId = network?.hasPaymentId ?? false;
  const settings = book?.currencies.find((c) => c.currency === method.currency) ?? null;
  const whitelist = settings?.whitelist ?? false;
  const entries = useMemo(
    () => (book?.entries ?? []).filter((e) => e.method === method.method && e.status === "confirmed"),
    [book, method.method],
  );
  const [source, setSource] = useState<Source>(() => {
    const first = entries[0];
    return first ? { kind: "book", id: first.id } : { kind: "typed" };
  });
  const entry: AddressBookEntry | null =
    source.kind === "book" ? (entries.find((e) => e.id === source.id) ?? null) : null;
  const [typed, setTyped] = useState("");
  const [typedTag, setTypedTag] = useState("");
  const [amount, setAmount] = useState("");
  const [note, setNote] = useState("");
  const [code, setCode] = useState("");
  const [owner, setOwner] = useState<"self" | "third_party">("self");
  const [ownerName, setOwnerName] = useState("");
  const [ownerCountry, setOwnerCountry] = useState("");
  const [destination, setDestination] = useState<"self_hosted" | "vasp">("self_hosted");
  const [attested, setAttested] = useState(false);
  const [vasp, setVasp] = useState("");
  const [vasps, setVasps] = useState<readonly Vasp[]>([]);
  const [touched, setTouched] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<WithdrawError | null>(null);
  const [sent, setSent] = useState<Sent | null>(null);
  const [checked, setChecked] = useState<Checked | null>(null);
  const [travelAsked, setTravelAsked] = useState(false);
  const [requestIds] = useState(() => new RequestIds(newRequestId));

  const available = live ?? info.available[wallet];
  const address = entry !== null ? entry.address : typed.trim();
  const paymentId = entry !== null ? entry.paymentId : typedTag.trim();
  const tag = entry?.paymentId ?? "";
  const ccy = currencyTicker(method.currency);
  const networkName = method.network;

  // The typed address, checked by the exchange once typing pauses (its validators and reasons).
  // An answer counts only for the text it was given: while the text changes, nothing is said.
  const typedText = typed.trim();
  const check = checked !== null && checked.text === typedText && checked.tag === typedTag ? checked.result : null;
  useEffect(() => {
    if (source.kind !== "typed" || typedText === "") return;
    let live = true;
    const cancel = appScheduler.after(CHECK_DELAY_MS, () => {
      void checkAddressAsTyped(method.currency, method.method, typedText, typedTag).then((r) => {
        // An unanswered check says nothing: the withdrawal itself is checked again when sent.
        if (live && r.ok) setChecked({ text: typedText, tag: typedTag, result: r.value });
      });
    });
    return () => {
      live = false;
      cancel();
    };
  }, [source.kind, typedText, typedTag, method.currency, method.method]);

  const needsTravel = travelRuleNeeded(amount, info.usdRate, info.travelRuleThresholdUsd) || travelAsked;
  const travelAddress = entry !== null ? entry.address : check?.valid === true ? check.address : "";

  // The travel rule's facts for the destination: its book entry's beneficiary prefills the owner.
  useEffect(() => {
    if (!needsTravel || travelAddress === "") return;
    let live = true;
    void travelRuleInfo(travelAddress, method.method).then((r) => {
      if (!live || !r.ok) return;
      setVasps(r.value.vasps);
      const b = r.value.entry?.beneficiary;
      if (b) {
        setOwner(b.type);
        if (b.type === "third_party") {
          setOwnerName(b.name);
          setOwnerCountry(b.country);
        }
      }
    });
    return () => {
      live = false;
    };
  }, [needsTravel, travelAddress, method.method]);

  const max = maxUnits(available, info.remaining);
  const localAmountProblem: AmountProblem | null = amountProblem(amount, method, available, info.remaining);
  const receive = receiveUnits(amount, method.fee);
  const serverField: RefusalField | null = error?.kind === "refused" ? fieldOfRefusal(error.refusal) : null;
  const serverText = (field: RefusalField): string | null =>
    error?.kind === "refused" && serverField === field ? refusalText(error.refusal) : null;

  const addressProblem: string | null = (() => {
    if (source.kind === "book") return entry === null && touched ? t`Choose an address.` : serverText("address");
    if (check !== null && !check.valid) return problemText(check.reason, networkName);
    if (touched && typedText === "") return t`Enter an address.`;
    return serverText("address") ?? serverText("payment-id");
  })();
  const addressOk = source.kind === "typed" && check?.valid === true ? check.address : null;
  const shownAmountProblem =
    amount.trim() === "" && !touched ? null : localAmountProblem === null ? serverText("amount") : null;
  const amountText = (p: AmountProblem): string => {
    const minimum = `${fmt(method.minimum)} ${ccy}`;
    switch (p) {
      case "invalid":
        return t`Enter an amount above zero, such as 25 or 0.5.`;
      case "precision":
        return t`Use at most 8 decimals.`;
      case "below-minimum":
        return t`The minimum withdrawal is ${minimum}.`;
      case "insufficient":
        return t`The wallet does not have that much available.`;
      case "daily-limit":
        return t`The amount is over what is left of your daily withdrawal limit.`;
      default: {
        const never: never = p;
        return never;
      }
    }
  };
  const amountMessage =
    (amount.trim() !== "" || touched) && localAmountProblem !== null
      ? amountText(localAmountProblem)
      : shownAmountProblem;

  const travel = ((): TravelRule | null | "incomplete" => {
    if (!needsTravel) return null;
    const beneficiary = readBeneficiary(
      owner === "self" ? { type: "self" } : { type: "third_party", name: ownerName, country: ownerCountry },
    );
    if (typeof beneficiary === "string") return "incomplete";
    if (destination === "self_hosted")
      return attested ? { beneficiary, destination: { type: "self_hosted", attested: true } } : "incomplete";
    return vasp === "" ? "incomplete" : { beneficiary, destination: { type: "vasp", vasp } };
  })();
  const travelProblem =
    touched && travel === "incomplete" ? t`Say who owns the address and where it is held.` : serverText("travel-rule");

  const needsCode = info.secondFactor !== null;
  const codeProblem = touched && needsCode && code.trim() === "" ? t`Enter the code.` : serverText("code");

  /** Any edit: the answer of the last attempt no longer describes the form. */
  const edit =
    <T,>(set: (v: T) => void) =>
    (v: T) => {
      set(v);
      setSent(null);
      if (error?.kind === "refused" && fieldOfRefusal(error.refusal) !== "code") setError(null);
    };

  const submit = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    setTouched(true);
    setSent(null);
    const addressReady = source.kind === "book" ? entry !== null : check?.valid === true && typedText !== "";
    if (
      busy ||
      !addressReady ||
      localAmountProblem !== null ||
      travel === "incomplete" ||
      (needsCode && code.trim() === "") ||
      info.secondFactor === null
    )
      return;
    setBusy(true);
    setError(null);
    const request = {
      wallet,
      method: method.method,
      amount: amount.trim(),
      address,
      paymentId,
      note: note.trim(),
      travelRule: travel,
    };
    // The code is left out of the key: a retry with a fresh code is still the same withdrawal.
    const requestId = requestIds.for(JSON.stringify(request));
    const r = await requestWithdrawal({ ...request, requestId, code: code.trim() });
    setBusy(false);
    setCode("");
    if (r.ok) {
      requestIds.done();
      setSent({ mail: info.mailConfirmation, amount: amount.trim() });
      setAmount("");
      setNote("");
      setTouched(false);
      setTravelAsked(false);
      onSent();
      return;
    }
    setError(r.error);
    if (r.error.kind === "refused") {
      if (r.error.refusal === "level") showLevelGateFor(r.error.message);
      if (r.error.refusal === "travelRuleRequired") setTravelAsked(true);
    }
  };

  const formLevel =
    error !== null && (error.kind !== "refused" || ["form", "wallet", "level"].includes(serverField ?? ""));
  const minimumText = `${fmt(method.minimum)} ${ccy}`;
  const feeText = `${fmt(method.fee)} ${ccy}`;
  const receiveText = receive === null ? "—" : `${fmt(receive)} ${ccy}`;
  const remainingText = info.remaining === null ? "—" : `${fmt(unitsBelow(Math.max(0, info.remaining)))} ${ccy}`;
  const limitUsd = i18n.number(info.dailyLimitUsd, { style: "currency", currency: "USD", maximumFractionDigits: 0 });
  const sentAmount = sent?.amount ?? "";

  return (
    <form className={x.form} onSubmit={(e) => void submit(e)} noValidate data-testid="withdraw-form">
      {settings?.disabled === true && (
        <p className={x.note} role="note">
          <Trans>
            Withdrawals of {ccy} are turned off for your account. Turn them on in your{" "}
            <a href="/security/addresses">withdrawal addresses</a>.
          </Trans>
        </p>
      )}
      <fieldset className={x.fieldset}>
        <legend className={x.legend}>
          <Trans>Destination</Trans>
        </legend>
        {whitelist && (
          <p className={x.hint}>
            <Trans>
              The whitelist is on for {ccy}: withdrawals go only to the addresses you confirmed. Manage them in your{" "}
              <a href="/security/addresses">withdrawal addresses</a>.
            </Trans>
          </p>
        )}
        {entries.length > 0 && (
          <label className={x.field}>
            <span>
              <Trans>From your address book</Trans>
            </span>
            <select
              className={x.select}
              value={source.kind === "book" ? String(source.id) : ""}
              onChange={(e) =>
                edit(setSource)(
                  e.currentTarget.value === ""
                    ? { kind: "typed" }
                    : { kind: "book", id: Number(e.currentTarget.value) },
                )
              }
            >
              {entries.map((en) => (
                <option key={en.id} value={en.id}>
                  {en.label} — {shortAddress(en.address)}
                </option>
              ))}
              {!whitelist && <option value="">{t`Another address`}</option>}
            </select>
          </label>
        )}
        {whitelist && entries.length === 0 && (
          <p className={x.problem} role="alert">
            <Trans>
              You have no confirmed {ccy} address yet, so nothing can be withdrawn while the whitelist is on.
            </Trans>
          </p>
        )}
        {source.kind === "typed" && !whitelist && (
          <>
            <label className={x.field}>
              <span>
                <Trans>Address</Trans>
              </span>
              <input
                className={x.input}
                value={typed}
                spellCheck={false}
                autoComplete="off"
                aria-invalid={addressProblem !== null}
                aria-describedby={`${id}-address`}
                onChange={(e) => edit(setTyped)(e.currentTarget.value)}
              />
            </label>
            <p id={`${id}-address`} className={addressProblem !== null ? x.problem : x.ok} aria-live="polite">
              {addressProblem ?? (addressOk !== null ? t`A valid ${networkName} address.` : "")}
            </p>
            {hasPaymentId && (
              <label className={x.field}>
                <span>{t`Destination tag (optional)`}</span>
                <input
                  className={x.input}
                  value={typedTag}
                  inputMode="numeric"
                  autoComplete="off"
                  onChange={(e) => edit(setTypedTag)(e.currentTarget.value)}
                />
              </label>
            )}
          </>
        )}
        {entry !== null && (
          <p className={x.mono} data-testid="withdraw-book-address">
            {entry.address}
            {tag !== "" && ` · ${t`Destination tag: ${tag}`}`}
          </p>
        )}
        {source.kind === "book" && addressProblem !== null && (
          <p className={x.problem} role="alert">
            {addressProblem}
          </p>
        )}
      </fieldset>

      <div className={x.field}>
        <label htmlFor={`${id}-amount`}>
          <Trans>Amount</Trans>
        </label>
        <div className={x.inputRow}>
          <input
            id={`${id}-amount`}
            className={`${x.input} ${x.grow}`}
            inputMode="decimal"
            autoComplete="off"
            value={amount}
            aria-invalid={amountMessage !== null}
            aria-describedby={`${id}-amount-error ${id}-facts`}
            onChange={(e) => edit(setAmount)(e.currentTarget.value)}
          />
          <button
            type="button"
            className={x.ghost}
            disabled={max <= 0n}
            aria-label={t`Withdraw the most allowed`}
            onClick={() => edit(setAmount)(textOfUnits(max))}
          >
            <Trans>Max</Trans>
          </button>
        </div>
        <p id={`${id}-amount-error`} className={x.problem} data-testid="withdraw-amount-error">
          {amountMessage ?? ""}
        </p>
      </div>
      <dl className={x.facts} id={`${id}-facts`}>
        <Fact term={t`Minimum`} value={minimumText} />
        <Fact term={t`Network fee`} value={feeText} />
        <Fact term={t`You receive`} value={receiveText} testId="withdraw-receive" />
        <Fact term={t`Left of today's limit`} value={remainingText} testId="withdraw-remaining" />
      </dl>
      <p className={x.hint}>
        <Trans>
          Your verification level may withdraw up to {limitUsd} in any 24 hours. The fee is taken from the amount.
        </Trans>
      </p>

      {needsTravel && (
        <TravelRuleFields
          owner={owner}
          ownerName={ownerName}
          ownerCountry={ownerCountry}
          destination={destination}
          attested={attested}
          vasp={vasp}
          vasps={vasps}
          problem={travelProblem}
          onOwner={edit(setOwner)}
          onOwnerName={edit(setOwnerName)}
          onOwnerCountry={edit(setOwnerCountry)}
          onDestination={edit(setDestination)}
          onAttested={edit(setAttested)}
          onVasp={edit(setVasp)}
        />
      )}

      <label className={x.field}>
        <span>
          <Trans>Note (optional)</Trans>
        </span>
        <input
          className={x.input}
          value={note}
          maxLength={WITHDRAWAL_NOTE_MAX}
          autoComplete="off"
          onChange={(e) => edit(setNote)(e.currentTarget.value)}
        />
      </label>

      {info.secondFactor === null ? (
        <p className={x.note} role="note">
          <Trans>
            Withdrawals need two-factor authentication. Set up an authenticator app on the{" "}
            <a href="/security">security page</a> first.
          </Trans>
        </p>
      ) : (
        <SecondFactorField
          factor={info.secondFactor}
          target={{ wallet, method: method.method, amount, address, paymentId }}
          code={code}
          problem={codeProblem}
          onCode={(v) => {
            setCode(v);
            if (serverField === "code") setError(null);
          }}
          onSmsError={setError}
        />
      )}

      {formLevel && error !== null && <CallError error={error} />}
      {busy && (
        <p className={x.hint} role="status">
          <Trans>Sending…</Trans>
        </p>
      )}
      {sent !== null && (
        <p className={x.success} role="status" data-testid="withdraw-sent">
          {sent.mail ? (
            <Trans>
              Check your e-mail to confirm the withdrawal of {sentAmount} {ccy}: open the link we sent within an hour,
              or it is cancelled.
            </Trans>
          ) : (
            <Trans>
              Your withdrawal of {sentAmount} {ccy} is queued.
            </Trans>
          )}
        </p>
      )}
      <div className={x.actions}>
        <button type="submit" className={x.button} disabled={busy || info.secondFactor === null}>
          <Trans>Withdraw</Trans>
        </button>
      </div>
    </form>
  );
}

/** A long address shortened in the middle for a select's option (the full one is shown below it). */
export function shortAddress(a: string): string {
  return a.length > 22 ? `${a.slice(0, 10)}…${a.slice(-8)}` : a;
}

export function Fact({
  term,
  value,
  testId,
}: {
  readonly term: string;
  readonly value: string;
  readonly testId?: string;
}) {
  return (
    <div className={x.fact}>
      <dt className={x.term}>{term}</dt>
      <dd className={x.value} data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}
