import { Trans, useLingui } from "@lingui/react/macro";
import { useState, type FormEvent } from "react";
import { useLocation, useSearch } from "wouter";
import { storeToken } from "../ui/auth";
import { apiUrl, appConfig } from "../ui/config";
import { log } from "../ui/log";
import { safeBackTarget } from "../ui/routing/paths";
import * as css from "./pages.css";

type LoginError = "unreachable" | "credentials" | "rate-limited" | "server";

/** The token is the first element of the response array (SPEC section 7), or a `token` field. */
function tokenFrom(body: unknown): string | null {
  if (Array.isArray(body) && typeof body[0] === "string" && body[0] !== "") return body[0];
  if (typeof body === "object" && body !== null) {
    const token = (body as Record<string, unknown>)["token"];
    if (typeof token === "string" && token !== "") return token;
  }
  return null;
}

export function LoginPage() {
  const { t } = useLingui();
  const search = useSearch();
  const [, navigate] = useLocation();
  const forced = new URLSearchParams(search).get("forced") === "1";
  const [login, setLogin] = useState("");
  const [password, setPassword] = useState("");
  const [touched, setTouched] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<LoginError | null>(null);

  const loginMissing = touched && login.trim() === "";
  const passwordMissing = touched && password === "";

  async function submit(e: FormEvent): Promise<void> {
    e.preventDefault();
    setTouched(true);
    if (login.trim() === "" || password === "") return;
    setBusy(true);
    setError(null);
    try {
      const res = await fetch(apiUrl(appConfig().endpoints, "/v2/login"), {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ login: login.trim(), password, captchaToken: "", captchaProvider: "", appid: "web" }),
      });
      if (res.status === 429) return setError("rate-limited");
      if (res.status >= 500) return setError("server");
      const body: unknown = await res.json().catch(() => null);
      const token = res.ok ? tokenFrom(body) : null;
      if (!token) return setError("credentials");
      storeToken(window, token);
      navigate(safeBackTarget(search), { replace: true });
    } catch (err) {
      log.warn("login request failed", err);
      setError("unreachable");
    } finally {
      setBusy(false);
    }
  }

  const messages: Record<LoginError, string> = {
    unreachable: t`The exchange could not be reached. Check your connection, then try again.`,
    credentials: t`The e-mail, username or password is not right.`,
    "rate-limited": t`Too many attempts. Wait a minute, then try again.`,
    server: t`The exchange had a problem answering. Try again in a moment.`,
  };

  return (
    <section className={css.hero}>
      <h1 className={css.h1}>
        <Trans>Sign in</Trans>
      </h1>
      {forced && (
        <p className={css.info} role="status" data-testid="forced-login">
          <Trans>Please sign in to continue to that page.</Trans>
        </p>
      )}
      <form className={css.form} noValidate onSubmit={(e) => void submit(e)}>
        <label className={css.field}>
          <span>
            <Trans>E-mail or username</Trans>
          </span>
          <input
            className={css.input}
            name="login"
            autoComplete="username"
            value={login}
            aria-invalid={loginMissing}
            onChange={(e) => setLogin(e.target.value)}
          />
          {loginMissing && (
            <span className={css.fieldError}>
              <Trans>Enter your e-mail or username.</Trans>
            </span>
          )}
        </label>
        <label className={css.field}>
          <span>
            <Trans>Password</Trans>
          </span>
          <input
            className={css.input}
            name="password"
            type="password"
            autoComplete="current-password"
            value={password}
            aria-invalid={passwordMissing}
            onChange={(e) => setPassword(e.target.value)}
          />
          {passwordMissing && (
            <span className={css.fieldError}>
              <Trans>Enter your password.</Trans>
            </span>
          )}
        </label>
        {error && (
          <p className={css.alert} role="alert" data-testid="login-error">
            {messages[error]}
          </p>
        )}
        <div className={css.actions}>
          <button type="submit" className={css.cta} disabled={busy}>
            {busy ? t`Signing in…` : t`Sign in`}
          </button>
        </div>
      </form>
    </section>
  );
}
