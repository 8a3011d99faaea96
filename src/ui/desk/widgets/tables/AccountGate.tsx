import { Trans } from "@lingui/react/macro";
import type { ReactNode } from "react";
import { useSnapshot } from "valtio";
import type { AccountView } from "../../../../protocol";
import { LOGIN_PATH } from "../../../routing/paths";
import { accountStore } from "../../account-store";
import * as css from "./tables.css";

/** The login address that brings the user back to this page (path, query and hash). */
export function signInHref(location: Pick<Location, "pathname" | "search" | "hash">): string {
  const back = `${location.pathname}${location.search}${location.hash}`;
  return `${LOGIN_PATH}?${new URLSearchParams({ back }).toString()}`;
}

/**
 * Renders `children` with the account view once the account socket is live; before that, a call to
 * sign in (signed out, failed) or a loading line (authenticating, or live before the first snapshot).
 */
export function AccountGate(props: { readonly children: (view: AccountView) => ReactNode }) {
  const account = useSnapshot(accountStore);
  if (account.link !== "live") {
    if (account.link === "authenticating")
      return (
        <div className={css.prompt} data-testid="account-loading">
          <Trans>Connecting to your account…</Trans>
        </div>
      );
    return (
      <div className={css.prompt} data-testid="sign-in-prompt">
        <span>
          <Trans>Sign in to see your orders, trades and balances.</Trans>
        </span>
        <a className={css.signIn} href={signInHref(window.location)}>
          <Trans>Sign in</Trans>
        </a>
      </div>
    );
  }
  // The view is kept behind ref(), so the snapshot hands back the worker's frozen object itself.
  const view = account.view;
  if (!view)
    return (
      <div className={css.prompt} data-testid="account-loading">
        <Trans>Loading your account…</Trans>
      </div>
    );
  return <>{props.children(view)}</>;
}
