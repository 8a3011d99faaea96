import { Trans, useLingui } from "@lingui/react/macro";
import { useId } from "react";
import type { Vasp } from "../../protocol";
import { BeneficiaryFields } from "../security/AddressBookDialogs";
import * as x from "./withdrawals.css";

export interface TravelProps {
  readonly owner: "self" | "third_party";
  readonly ownerName: string;
  readonly ownerCountry: string;
  readonly destination: "self_hosted" | "vasp";
  readonly attested: boolean;
  readonly vasp: string;
  readonly vasps: readonly Vasp[];
  readonly problem: string | null;
  readonly onOwner: (v: "self" | "third_party") => void;
  readonly onOwnerName: (v: string) => void;
  readonly onOwnerCountry: (v: string) => void;
  readonly onDestination: (v: "self_hosted" | "vasp") => void;
  readonly onAttested: (v: boolean) => void;
  readonly onVasp: (v: string) => void;
}

/**
 * The travel rule's details: who owns the destination (the holder or a named third party in a
 * country), and where it is held — a wallet of its owner's own, attested, or an account at one of
 * the providers the exchange knows.
 */
export function TravelRuleFields(p: TravelProps) {
  const { t, i18n } = useLingui();
  const names = regionNames(i18n.locale);
  const group = useId();
  return (
    <section className={x.fieldset} aria-labelledby={`${group}-title`} data-testid="withdraw-travel-rule">
      <h2 className={x.legend} id={`${group}-title`}>
        <Trans>Travel rule</Trans>
      </h2>
      <p className={x.hint}>
        <Trans>
          For withdrawals worth 1,000 USD or more, the law asks us who receives them and where the address is held.
        </Trans>
      </p>
      <BeneficiaryFields
        owner={p.owner}
        name={p.ownerName}
        country={p.ownerCountry}
        invalid={null}
        onOwner={p.onOwner}
        onName={p.onOwnerName}
        onCountry={p.onOwnerCountry}
      />
      <fieldset className={x.fieldset}>
        <legend className={x.legend}>
          <Trans>Where is the address held?</Trans>
        </legend>
        <label className={x.choice}>
          <input
            type="radio"
            name={`${group}-destination`}
            checked={p.destination === "self_hosted"}
            onChange={() => p.onDestination("self_hosted")}
          />
          <span>
            <Trans>In a wallet its owner holds the keys to</Trans>
          </span>
        </label>
        <label className={x.choice}>
          <input
            type="radio"
            name={`${group}-destination`}
            checked={p.destination === "vasp"}
            onChange={() => p.onDestination("vasp")}
          />
          <span>
            <Trans>At an exchange or custodian</Trans>
          </span>
        </label>
      </fieldset>
      {p.destination === "self_hosted" ? (
        <label className={x.choice}>
          <input type="checkbox" checked={p.attested} onChange={(e) => p.onAttested(e.currentTarget.checked)} />
          <span>
            <Trans>I confirm that the address is a self-hosted wallet and that its owner controls it.</Trans>
          </span>
        </label>
      ) : (
        <label className={x.field}>
          <span>
            <Trans>Exchange or custodian</Trans>
          </span>
          <select className={x.select} value={p.vasp} onChange={(e) => p.onVasp(e.currentTarget.value)}>
            <option value="">{t`Choose one`}</option>
            {p.vasps.map((v) => (
              <option key={v.id} value={v.id}>
                {v.name} ({names?.of(v.country) ?? v.country})
              </option>
            ))}
          </select>
        </label>
      )}
      {p.problem !== null && (
        <p className={x.problem} role="alert">
          {p.problem}
        </p>
      )}
    </section>
  );
}

function regionNames(locale: string): Intl.DisplayNames | null {
  try {
    return new Intl.DisplayNames([locale], { type: "region" });
  } catch {
    return null;
  }
}
