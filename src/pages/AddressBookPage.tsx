import { Trans } from "@lingui/react/macro";
import { AddressBook } from "../ui/security/AddressBook";
import * as css from "./pages.css";
import * as sec from "./security.css";

/**
 * Withdrawal addresses (/security/addresses): the address book and the per-currency whitelist
 * (docs/product-rules.md#withdrawal-addresses). The mailed confirmation link opens this page.
 */
export function AddressBookPage() {
  return (
    <section className={sec.page}>
      <h1 className={css.h1}>
        <Trans>Withdrawal addresses</Trans>
      </h1>
      <p className={css.lead}>
        <Trans>
          Where your withdrawals may go. With a currency&apos;s whitelist on, its withdrawals reach only the addresses
          you confirmed by e-mail.
        </Trans>
      </p>
      <AddressBook />
    </section>
  );
}
