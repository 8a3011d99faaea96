import { Trans, useLingui } from "@lingui/react/macro";
import { useEffect, useState } from "react";
import { useSearch } from "wouter";
import type { NewsletterLinkResult } from "../protocol";
import { openNewsletterLink, type NotificationsError } from "../ui/notifications/api";
import { useNotificationWords } from "../ui/notifications/words";
import { openingHttp } from "../ui/session";
import * as css from "./pages.css";

type State =
  | { readonly kind: "opening" }
  | { readonly kind: "done"; readonly value: NewsletterLinkResult }
  | { readonly kind: "failed"; readonly error: NotificationsError };

/**
 * Opens a mailed newsletter link (`?token=…`) once; no sign-in needed. Once done, the address and
 * the newsletter's name the page tells (empty before).
 */
function useLink(kind: "confirm" | "unsubscribe"): { state: State; email: string; newsletter: string } {
  const token = new URLSearchParams(useSearch()).get("token") ?? "";
  const words = useNotificationWords();
  const [state, setState] = useState<State>({ kind: "opening" });
  useEffect(() => {
    let live = true;
    void openNewsletterLink(openingHttp(), kind, token).then((r) => {
      if (live) setState(r.ok ? { kind: "done", value: r.value } : { kind: "failed", error: r.error });
    });
    return () => {
      live = false;
    };
  }, [kind, token]);
  if (state.kind !== "done") return { state, email: "", newsletter: "" };
  const { email, campaignId } = state.value;
  return { state, email, newsletter: words.campaignName(campaignId, campaignId) };
}

function Failed({ error }: { readonly error: NotificationsError }) {
  const words = useNotificationWords();
  const { t } = useLingui();
  return (
    <p className={css.alert} role="alert" data-testid="newsletter-link-error">
      {words.error(error) ?? t`The exchange is busy. Wait a minute, then open the link again.`}
    </p>
  );
}

/** The double opt-in's confirmation link (`/newsletters/confirm?token=…`, public). */
export function NewsletterConfirmPage() {
  const { state, email, newsletter } = useLink("confirm");
  return (
    <section className={css.hero}>
      {state.kind === "opening" && (
        <h1 className={css.h1}>
          <Trans>Confirming your subscription…</Trans>
        </h1>
      )}
      {state.kind === "failed" &&
        (state.error.kind === "field" && state.error.refusal.reason === "used" ? (
          // A confirmation link opened a second time: the first opening confirmed the subscription.
          <>
            <h1 className={css.h1}>
              <Trans>This link was already used</Trans>
            </h1>
            <p className={css.lead} data-testid="newsletter-link-used">
              <Trans>If you opened it before, your subscription is confirmed: there is nothing more to do.</Trans>
            </p>
          </>
        ) : (
          <>
            <h1 className={css.h1}>
              <Trans>Your subscription is not confirmed</Trans>
            </h1>
            <Failed error={state.error} />
          </>
        ))}
      {state.kind === "done" && (
        <div data-testid="newsletter-confirmed">
          <h1 className={css.h1}>
            <Trans>Subscription confirmed</Trans>
          </h1>
          <p className={css.lead}>
            <Trans>
              {email} will receive {newsletter}. Every issue has a link to unsubscribe.
            </Trans>
          </p>
          <div className={css.actions}>
            <a className={css.ctaGhost} href="/">
              <Trans>Back to the home page</Trans>
            </a>
          </div>
        </div>
      )}
    </section>
  );
}

/** A newsletter mail's unsubscribe link (`/newsletters/unsubscribe?token=…`, public). */
export function NewsletterUnsubscribePage() {
  const { state, email, newsletter } = useLink("unsubscribe");
  return (
    <section className={css.hero}>
      {state.kind === "opening" && (
        <h1 className={css.h1}>
          <Trans>Unsubscribing…</Trans>
        </h1>
      )}
      {state.kind === "failed" && (
        <>
          <h1 className={css.h1}>
            <Trans>You are not unsubscribed yet</Trans>
          </h1>
          <Failed error={state.error} />
        </>
      )}
      {state.kind === "done" && (
        <div data-testid="newsletter-unsubscribed">
          <h1 className={css.h1}>
            <Trans>You are unsubscribed</Trans>
          </h1>
          <p className={css.lead}>
            <Trans>
              {email} will no longer receive {newsletter}.
            </Trans>
          </p>
        </div>
      )}
    </section>
  );
}
