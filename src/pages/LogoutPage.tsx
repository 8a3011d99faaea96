import { Trans, useLingui } from "@lingui/react/macro";
import { useEffect, useState, type FormEvent } from "react";
import { useSnapshot } from "valtio";
import { useLocation } from "wouter";
import { auth, isLoggedIn } from "../ui/auth";
import { STATIC_PAGES } from "./site-map";
import { signOut } from "../ui/session";
import * as css from "./pages.css";
import * as s from "./session.css";

const RATINGS = [1, 2, 3, 4, 5] as const;

/**
 * /logout (the special path of docs/product-rules.md#protected-area): optional feedback, then the
 * token is deleted and every tab's session ends, then the logged-out page. A visitor who is not
 * signed in goes straight there.
 */
export function LogoutPage() {
  const { t } = useLingui();
  const a = useSnapshot(auth);
  const [, navigate] = useLocation();
  const [rating, setRating] = useState<number | null>(null);
  const [description, setDescription] = useState("");
  const [busy, setBusy] = useState(false);
  const loggedIn = isLoggedIn(a);

  useEffect(() => {
    if (!loggedIn && !busy) navigate(STATIC_PAGES.loggedOut, { replace: true });
  }, [loggedIn, busy, navigate]);

  async function submit(e: FormEvent): Promise<void> {
    e.preventDefault();
    setBusy(true);
    await signOut({ rating, description });
    navigate(STATIC_PAGES.loggedOut, { replace: true });
  }

  const labels: Record<(typeof RATINGS)[number], string> = {
    1: t`1 — poor`,
    2: t`2 — fair`,
    3: t`3 — good`,
    4: t`4 — very good`,
    5: t`5 — excellent`,
  };

  return (
    <section className={css.hero}>
      <h1 className={css.h1}>
        <Trans>Sign out</Trans>
      </h1>
      <p className={css.lead}>
        <Trans>Before you go: how was your session? Your feedback is optional.</Trans>
      </p>
      <form className={css.form} onSubmit={(e) => void submit(e)} data-testid="logout-form">
        <fieldset className={s.rating}>
          <legend className={s.hint}>
            <Trans>Rating</Trans>
          </legend>
          {RATINGS.map((n) => (
            <label key={n} className={s.ratingOption} title={labels[n]}>
              <input
                className={s.ratingInput}
                type="radio"
                name="rating"
                value={n}
                checked={rating === n}
                aria-label={labels[n]}
                onChange={() => setRating(n)}
              />
              <span aria-hidden="true">{n}</span>
            </label>
          ))}
        </fieldset>
        <label className={css.field}>
          <span>
            <Trans>Anything we should do better? (optional)</Trans>
          </span>
          <textarea
            className={s.textarea}
            name="description"
            maxLength={2000}
            value={description}
            onChange={(e) => setDescription(e.target.value)}
          />
        </label>
        <div className={css.actions}>
          <button type="submit" className={css.cta} disabled={busy} data-testid="logout-submit">
            {busy ? t`Signing out…` : t`Sign out`}
          </button>
          <a className={css.ctaGhost} href="/">
            <Trans>Stay signed in</Trans>
          </a>
        </div>
      </form>
    </section>
  );
}
