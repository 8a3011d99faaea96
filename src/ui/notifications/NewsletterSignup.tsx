import { Trans, useLingui } from "@lingui/react/macro";
import { useEffect, useId, useState, type FormEvent } from "react";
import { isCampaignId, newsletterEmail, NEWSLETTER_CAMPAIGNS, type CampaignId } from "../../protocol";
import { openingHttp } from "../session";
import { guestSubscribe, publicCampaigns, type NotificationsError } from "./api";
import * as css from "./notifications.css";
import { useNotificationWords } from "./words";

/**
 * A visitor's newsletter sign-up (the public home page): a campaign and an address, checked by the
 * sign-up's e-mail rule as the exchange checks it. The exchange answers alike whatever the address's
 * state; the mail it sends holds the confirmation link (double opt-in).
 */
export function NewsletterSignup() {
  const { t } = useLingui();
  const words = useNotificationWords();
  const id = useId();
  // The exchange's list; until it answers (or if it cannot), the campaigns this build knows.
  const [campaigns, setCampaigns] = useState<{ id: string; name: string }[]>(() =>
    NEWSLETTER_CAMPAIGNS.map((c) => ({ id: c.id, name: c.name })),
  );
  const [campaign, setCampaign] = useState<CampaignId>(NEWSLETTER_CAMPAIGNS[0].id);
  const [email, setEmail] = useState("");
  const [touched, setTouched] = useState(false);
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState(false);
  const [error, setError] = useState<NotificationsError | null>(null);

  useEffect(() => {
    let live = true;
    void publicCampaigns(openingHttp()).then((r) => {
      if (live && r.ok && r.value.length > 0) setCampaigns(r.value.map((c) => ({ id: c.id, name: c.name })));
    });
    return () => {
      live = false;
    };
  }, []);

  const invalid = touched && newsletterEmail(email) === null;

  const submit = (e: FormEvent): void => {
    e.preventDefault();
    setTouched(true);
    if (newsletterEmail(email) === null) return;
    setBusy(true);
    setError(null);
    void guestSubscribe(openingHttp(), campaign, email).then((r) => {
      setBusy(false);
      if (r.ok) setSent(true);
      else setError(r.error);
    });
  };
  const errorText = error ? words.error(error) : null;

  return (
    <section className={css.signup} aria-labelledby={`${id}-title`} data-testid="newsletter-signup">
      <h2 id={`${id}-title`} className={css.h2}>
        <Trans>Get our newsletters</Trans>
      </h2>
      {sent ? (
        <p className={css.success} role="status" data-testid="newsletter-sent">
          <Trans>Almost done: we sent you an e-mail. Open the link in it to confirm your subscription.</Trans>
        </p>
      ) : (
        <form className={css.formRow} onSubmit={submit} noValidate>
          <label className={css.label}>
            <span>
              <Trans>Newsletter</Trans>
            </span>
            <select
              className={css.select}
              value={campaign}
              onChange={(e) => {
                if (isCampaignId(e.target.value)) setCampaign(e.target.value);
              }}
            >
              {campaigns.map((c) => (
                <option key={c.id} value={c.id}>
                  {words.campaignName(c.id, c.name)}
                </option>
              ))}
            </select>
          </label>
          <label className={css.label}>
            <span>
              <Trans>E-mail address</Trans>
            </span>
            <input
              className={css.select}
              type="email"
              autoComplete="email"
              value={email}
              aria-invalid={invalid}
              aria-describedby={invalid ? `${id}-error` : undefined}
              onChange={(e) => setEmail(e.target.value)}
              onBlur={() => setTouched(email !== "")}
            />
          </label>
          <button type="submit" className={css.primary} disabled={busy}>
            <Trans>Subscribe</Trans>
          </button>
        </form>
      )}
      {invalid && (
        <p id={`${id}-error`} className={css.error} role="alert">
          {t`Enter an e-mail address such as name@example.com.`}
        </p>
      )}
      {errorText !== null && !invalid && (
        <p className={css.error} role="alert">
          {errorText}
        </p>
      )}
      <p className={css.muted}>
        <Trans>We send nothing until you confirm, and every issue has a link to unsubscribe.</Trans>
      </p>
    </section>
  );
}
