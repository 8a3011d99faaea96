import { Trans, useLingui } from "@lingui/react/macro";
import { useState } from "react";
import { useSearch } from "wouter";
import { freezeCodeValid } from "../protocol";
import { freezeWithCode } from "../ui/account/account-api";
import * as shell from "../ui/shell/shell.css";
import * as css from "./pages.css";

type State = "ask" | "busy" | "frozen" | "invalid" | "failed";

/**
 * /freeze: what freezing does, and — opened from the link in one of our mails (`?code=`) — the
 * button that freezes the account without signing in. `?done=1` is where the account page's own
 * freeze lands.
 */
export function FreezePage() {
  const { t } = useLingui();
  const params = new URLSearchParams(useSearch());
  const code = params.get("code") ?? "";
  const [state, setState] = useState<State>(
    params.get("done") === "1" ? "frozen" : code !== "" && !freezeCodeValid(code) ? "invalid" : "ask",
  );
  const freeze = async () => {
    setState("busy");
    const r = await freezeWithCode(code);
    setState(r.ok ? "frozen" : r.error.kind === "invalid-code" ? "invalid" : "failed");
  };
  return (
    <section className={css.hero}>
      <h1 className={css.h1}>
        <Trans>Freeze your account</Trans>
      </h1>
      {state === "frozen" ? (
        <div className={css.info} role="status" data-testid="freeze-done">
          <p>
            <Trans>
              Your account is frozen. Every session has been signed out and your API keys no longer work. Contact
              support to lift the freeze once you have secured your e-mail.
            </Trans>
          </p>
        </div>
      ) : (
        <>
          <p className={css.lead}>
            <Trans>
              If you think someone else has access to your account, freeze it: trading, withdrawals and API keys stop at
              once until you contact support.
            </Trans>
          </p>
          {code === "" ? (
            <p>
              <Trans>
                Use the freeze link in any e-mail we sent you: it works without signing in. Signed in, you can also
                freeze from your account page.
              </Trans>
            </p>
          ) : state === "invalid" ? (
            <p className={css.alert} role="alert">
              {t`This freeze link is not valid. Use the link from one of our e-mails, or freeze from your account page.`}
            </p>
          ) : (
            <div className={css.actions}>
              <button type="button" className={shell.button} disabled={state === "busy"} onClick={() => void freeze()}>
                {state === "busy" ? t`Freezing…` : t`Freeze my account now`}
              </button>
              {state === "failed" && (
                <p className={css.alert} role="alert">
                  {t`The account could not be frozen just now. Try again in a moment.`}
                </p>
              )}
            </div>
          )}
        </>
      )}
    </section>
  );
}
