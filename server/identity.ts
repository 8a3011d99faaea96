/**
 * Login with a proof-of-work captcha (ALTCHA, captcha.ts) after repeated failures, TOTP two-factor
 * (`/v2/login/verify`), logout feedback, and the user settings store — the public-host account calls
 * of docs/product-rules.md#calls.
 */
import { randomBytes, randomInt } from "node:crypto";
import type { Challenge } from "altcha-lib";
import { boundedSettings, ERROR_CODES, FEEDBACK_SOURCE_DEFAULT } from "../src/protocol/index.ts";
import { ApiKeys } from "./api-keys.ts";
import { sendMail } from "./mail.ts";
import { fail, ok, type Reply } from "./reply.ts";
import { AltchaCaptcha, CAPTCHA_PROVIDER } from "./captcha.ts";
import type { AccountGateway } from "./exchange/account-gateway.ts";
import { checkPassword, takeCurrentCode } from "./owner-proof.ts";
import { PgpKeys } from "./pgp.ts";
import { Security, type Client } from "./security.ts";
import { Sms } from "./sms.ts";
import { safeEqual, type UserRow } from "./store/accounts.ts";
import { newTotpSecret, otpauthUrl, totpStep } from "./store/totp.ts";

/** The public host's account calls answer a refusal with HTTP 400. */
const err = (code: number, msg: string, status = 400): Reply => fail(code, msg, status);

const FAILURES_BEFORE_CAPTCHA = 3;
/**
 * Failed logins from one address, whatever the login, before every login from it needs the
 * captcha: one password tried on many accounts is caught too. Higher than the per-account count,
 * as several people may share an address.
 */
const ADDRESS_FAILURES_BEFORE_CAPTCHA = 10;
const FAILURE_WINDOW_MS = 10 * 60_000;
const TEMP_TOKEN_MS = 5 * 60_000;
/** Wrong one-time codes a temporary login token takes before it is dropped (`/v2/login/verify`). */
export const MAX_OTP_TRIES = 5;
/**
 * Wrong one-time codes an account takes within FAILURE_WINDOW_MS, over all its temporary tokens,
 * before `/v2/login/verify` refuses every code for it (a right one too) until the oldest leaves
 * the window: logging in again for a fresh temporary token does not buy more guesses.
 */
export const MAX_OTP_FAILURES = 10;
/** How long a two-factor challenge (its new secret and mailed code) waits for the register call. */
const TWO_FA_PENDING_MS = 10 * 60_000;

export class Identity {
  readonly #failures = new Map<string, number[]>();
  readonly #temp = new Map<string, { userId: number; expires: number; tries: number }>();
  readonly #pending2fa = new Map<number, { secret: string; mailCode: string | null; expires: number; tries: number }>();

  readonly #keys: ApiKeys;
  /** Sessions, login history and hardware keys (the security page, security.ts). */
  readonly security: Security;
  /** SMS as a second factor (sms.ts) and the account's OpenPGP key (pgp.ts), on the security page. */
  readonly sms: Sms;
  readonly pgp: PgpKeys;
  /** One per Identity: the two API hosts share it, so a solution is spent on both at once. */
  readonly #captcha: AltchaCaptcha;

  constructor(
    readonly gate: AccountGateway,
    readonly now: () => number,
  ) {
    this.#keys = new ApiKeys(gate.accounts, now, (to, subject, body) => this.#mail(to, subject, body));
    this.#captcha = new AltchaCaptcha(now);
    this.security = new Security(gate.accounts, now, (to, subject, body) => this.#mail(to, subject, body));
    this.sms = new Sms(gate.accounts, now, (to, subject, body) => this.#mail(to, subject, body));
    this.pgp = new PgpKeys(gate.accounts, now, (to, subject, body, options) =>
      sendMail(this.#db(), to, subject, body, this.now(), options),
    );
  }

  #db() {
    return this.gate.accounts.db;
  }

  #mail(to: string, subject: string, body: string): void {
    sendMail(this.#db(), to, subject, body, this.now());
  }

  outbox(): unknown[] {
    return this.#db()
      .prepare(
        "SELECT id, recipient, subject, body, mts, encrypted FROM outbox WHERE pending = 0 ORDER BY id DESC LIMIT 100",
      )
      .all();
  }

  /**
   * The failure counters a login attempt counts against: its account — a username and an e-mail
   * address of the same account are one counter, so switching between them does not double the
   * tries; a login that names no account by its normalized text — and its address.
   */
  #failureKeys(login: string, address: string | null): { account: string; address: string | null } {
    const trimmed = login.trim();
    const user = trimmed === "" ? undefined : this.gate.accounts.byLogin(trimmed);
    return {
      account: user ? `account:${user.id}` : `login:${trimmed.toLowerCase()}`,
      address: address ? `address:${address}` : null,
    };
  }

  /** Failures within the window under a key (older ones dropped, empty counters removed). */
  #recentFailures(key: string): number[] {
    const since = this.now() - FAILURE_WINDOW_MS;
    const list = (this.#failures.get(key) ?? []).filter((t) => t > since);
    if (list.length > 0) this.#failures.set(key, list);
    else this.#failures.delete(key);
    return list;
  }

  #captchaRequired(login: string, address: string | null): boolean {
    const k = this.#failureKeys(login, address);
    return (
      this.#recentFailures(k.account).length >= FAILURES_BEFORE_CAPTCHA ||
      (k.address !== null && this.#recentFailures(k.address).length >= ADDRESS_FAILURES_BEFORE_CAPTCHA)
    );
  }

  #recordFailure(login: string, address: string | null): void {
    const k = this.#failureKeys(login, address);
    for (const key of [k.account, k.address]) {
      if (key !== null) this.#failures.set(key, [...this.#recentFailures(key), this.now()]);
    }
  }

  /**
   * Null when the caller proved to be the account's owner for a security change, else why not: with
   * a second factor, its current code (`currentToken`, good once, counted against the account's
   * code failures); without one, the password and the code mailed with the challenge (`emailCode`).
   */
  #proveOwner(user: UserRow, body: Record<string, unknown>, mailCode: string | null): string | null {
    if (user.tfa_secret) {
      const otpKey = `otp:${user.id}`;
      if (this.#recentFailures(otpKey).length >= MAX_OTP_FAILURES) return "otp: too many attempts, try again later";
      if (!takeCurrentCode(this.gate.accounts, user, body["currentToken"], this.now())) {
        this.#failures.set(otpKey, [...this.#recentFailures(otpKey), this.now()]);
        return "otp: current code required";
      }
      return null;
    }
    const password = checkPassword(this.gate.accounts, user, body["password"], this.now());
    if (password !== null) return password;
    const emailCode = body["emailCode"];
    if (mailCode === null || typeof emailCode !== "string" || !safeEqual(emailCode.trim(), mailCode))
      return "email code: invalid";
    return null;
  }

  /** The captcha the sign-up shares with the login (signup.ts): one solution is good once for either. */
  get captcha(): AltchaCaptcha {
    return this.#captcha;
  }

  /** A signed ALTCHA challenge (`GET /v2/int/captcha/altcha/challenge`). */
  captchaChallenge(): Promise<Challenge> {
    return this.#captcha.challenge();
  }

  /**
   * `POST /v2/login`: asynchronous, as checking a captcha solution is (WebCrypto HMAC). `address` is
   * the caller's (failed logins are counted per address too).
   */
  async login(
    body: Record<string, unknown>,
    address: string | null = null,
    from: Omit<Client, "address"> = { agent: "", origin: null },
  ): Promise<Reply> {
    const a = this.gate.accounts;
    const client: Client = { ...from, address };
    const login = typeof body["login"] === "string" ? body["login"] : "";
    const password = typeof body["password"] === "string" ? body["password"] : "";
    if (this.#captchaRequired(login, address)) {
      const token = body["captchaToken"];
      if (typeof token !== "string" || token === "") return err(ERROR_CODES.PARAMS, "captcha: required");
      if (body["captchaProvider"] !== CAPTCHA_PROVIDER || !(await this.#captcha.redeem(token)))
        return err(ERROR_CODES.PARAMS, "captcha: invalid");
    }
    const user = login && password ? a.login(login, password) : null;
    if (!user) {
      this.#recordFailure(login, address);
      const owner = login.trim() === "" ? undefined : a.byLogin(login.trim());
      if (owner) this.security.recordLogin(owner.id, client, "password");
      return err(ERROR_CODES.AUTH_FAILED, "login: invalid");
    }
    // The account's counter starts again; the address's does not (logging into one account
    // must not wipe failures against others).
    this.#failures.delete(this.#failureKeys(login, null).account);
    if (user.email_verified === 0) return err(ERROR_CODES.AUTH_FAILED, "email: not verified");
    // Said only after the password: a frozen account's owner learns why; nobody else learns anything.
    if (a.isFrozen(user.id)) return err(ERROR_CODES.AUTH_FAILED, "account: frozen");
    // ip_lock (server/security-settings.ts): refused off the account's address list, told only
    // after the password, so nobody learns the setting without it.
    const offList = this.security.settings.addressRefusal(user.id, address);
    if (offList) return offList;
    // The second factors the account has: `tfa` the one the app offers first, `tfaTypes` all of them.
    // With two_fa_fallback off only the first is offered (server/security-settings.ts).
    const factors = this.security.settings.acceptedFactors(user.id, a.secondFactors(user));
    if (factors.length > 0) {
      const tempToken = randomBytes(16).toString("hex");
      this.#temp.set(tempToken, { userId: user.id, expires: this.now() + TEMP_TOKEN_MS, tries: 0 });
      return ok({ tfa: factors[0], tfaTypes: factors, tempToken });
    }
    return this.#signIn(user.id, client);
  }

  /**
   * The login's second step on a temporary token: `/v2/login/verify` with an authenticator code
   * (`otp`) or a hardware key's assertion (`method: "u2f"`, `assertion`), and
   * `/v2/login/key/options`, the assertion's challenge. Asynchronous, as verifying a key's
   * signature is.
   */
  async signInStep(path: string, body: Record<string, unknown>, client: Client): Promise<Reply> {
    const a = this.gate.accounts;
    const tempToken = typeof body["tempToken"] === "string" ? body["tempToken"] : "";
    const temp = this.#temp.get(tempToken);
    const user = temp && temp.expires > this.now() ? a.byId(temp.userId) : undefined;
    if (!temp || !user) return err(ERROR_CODES.AUTH_FAILED, "token: invalid");
    // two_fa_fallback off: a factor the account has but that is not its first is refused. The
    // paths that start a factor name it themselves (a key's challenge, a texted code), so no text
    // goes out for a factor the sign-in would not take.
    const method =
      path === "/v2/login/key/options"
        ? "u2f"
        : path === "/v2/login/sms"
          ? "sms"
          : typeof body["method"] === "string"
            ? body["method"]
            : "otp";
    const has = a.secondFactors(user);
    if (has.includes(method) && !this.security.settings.acceptedFactors(user.id, has).includes(method))
      return err(ERROR_CODES.AUTH_FAILED, "2fa: fallback off, use the first factor");
    if (path === "/v2/login/key/options") return this.security.signInOptions(user.id, tempToken, client.origin);
    if (body["method"] === "u2f") {
      if (await this.security.verifySignIn(user.id, tempToken, body["assertion"], client.origin)) {
        this.#temp.delete(tempToken);
        return this.#signIn(user.id, client);
      }
      this.security.recordLogin(user.id, client, "key");
      // As a wrong code: a few tries on one temporary token, then log in again.
      if (++temp.tries >= MAX_OTP_TRIES) this.#temp.delete(tempToken);
      return err(ERROR_CODES.AUTH_FAILED, "key: not accepted");
    }
    // SMS (sms.ts): `/v2/login/sms` texts a code, `/v2/login/verify` with `method: "sms"` takes it.
    if (path === "/v2/login/sms") return this.sms.sendSignIn(user.id);
    if (body["method"] === "sms") {
      const refused = this.sms.verifySignIn(user.id, body["otp"]);
      if (refused === null) {
        this.#temp.delete(tempToken);
        return this.#signIn(user.id, client);
      }
      this.security.recordLogin(user.id, client, "sms");
      // As a wrong authenticator code: a few tries on one temporary token, then log in again.
      if (++temp.tries >= MAX_OTP_TRIES) this.#temp.delete(tempToken);
      return err(ERROR_CODES.AUTH_FAILED, refused);
    }
    if (!user.tfa_secret) return err(ERROR_CODES.AUTH_FAILED, "otp: not enabled");
    const otpKey = `otp:${user.id}`;
    if (this.#recentFailures(otpKey).length >= MAX_OTP_FAILURES) {
      this.#temp.delete(tempToken);
      return err(ERROR_CODES.AUTH_FAILED, "otp: too many attempts, try again later");
    }
    // A code seen already (this one or a later step) is refused: one observed code must not
    // open a second session within its 90-second window.
    if (!takeCurrentCode(a, user, body["otp"], this.now())) {
      // Six digits must not be guessable on one temporary token: a few tries, then log in
      // again; nor over many: the account's own count (MAX_OTP_FAILURES).
      if (++temp.tries >= MAX_OTP_TRIES) this.#temp.delete(tempToken);
      this.#failures.set(otpKey, [...this.#recentFailures(otpKey), this.now()]);
      this.security.recordLogin(user.id, client, "otp");
      return err(ERROR_CODES.AUTH_FAILED, "otp: invalid");
    }
    this.#temp.delete(tempToken);
    return this.#signIn(user.id, client);
  }

  /**
   * The last step of every sign-in: the security settings' gate (address lock, a mailed
   * confirmation for a new address, single login, the sign-in mail) around a new session.
   */
  #signIn(userId: number, client: Client): Reply {
    return this.security.settings.signIn(userId, client, (u, c) => this.security.startSession(u, c));
  }

  /**
   * Public-host identity calls but the login (`login()`); `address` is the caller's (failed logins
   * are counted per address too).
   */
  handle(path: string, body: Record<string, unknown>, address: string | null = null): Reply | null {
    const a = this.gate.accounts;
    switch (path) {
      case "/v2/int/captcha/providers":
        return ok([CAPTCHA_PROVIDER]);
      case "/v2/int/captcha/required":
        return ok([typeof body["login"] === "string" ? this.#captchaRequired(body["login"], address) : false]);
      case "/v2/int/contact/feedback": {
        const token = typeof body["token"] === "string" ? a.checkToken(body["token"], this.now()) : null;
        const rating =
          typeof body["rating"] === "number" && body["rating"] >= 1 && body["rating"] <= 5 ? body["rating"] : null;
        const description = typeof body["description"] === "string" ? body["description"].slice(0, 2000) : "";
        const source = typeof body["source"] === "string" ? body["source"] : FEEDBACK_SOURCE_DEFAULT;
        this.#db()
          .prepare("INSERT INTO feedback (user_id, rating, description, source, mts) VALUES (?, ?, ?, ?, ?)")
          .run(token?.ok ? token.userId : null, rating, description, source, this.now());
        return ok([1]);
      }
      default:
        // The security settings' mailed links (server/security-settings.ts).
        return this.security.settings.handlePublic(path, body);
    }
  }

  /**
   * Authenticated identity calls (the user is known): 2FA set-up and settings. A wrong password or
   * code here is a bad parameter (10020), not a bad credential: 10100 would end the caller's
   * session, whose token is fine (docs/product-rules.md#errors).
   */
  handleAuthed(
    userId: number,
    path: string,
    body: Record<string, unknown>,
    caps: readonly string[] | null = null,
  ): Reply | null {
    const keys = this.#keys.handle(userId, path, body, caps);
    if (keys) return keys;
    const db = this.#db();
    switch (path) {
      case "/v2/auth/r/int/2fa/challenge": {
        const user = this.gate.accounts.byId(userId);
        if (!user) return err(ERROR_CODES.AUTH_FAILED, "token: invalid");
        const secret = newTotpSecret();
        // Who may change the second factor must be proven by more than a session token: the current
        // factor when there is one, else the password and a code mailed to the owner (sent now).
        let mailCode: string | null = null;
        if (!user.tfa_secret) {
          mailCode = String(randomInt(0, 1e6)).padStart(6, "0");
          this.#mail(
            user.email,
            "Confirm two-factor set-up",
            `Your code to turn on two-factor authentication is ${mailCode}. If this was not you, change your password.`,
          );
        }
        this.#pending2fa.set(userId, { secret, mailCode, expires: this.now() + TWO_FA_PENDING_MS, tries: 0 });
        return ok({
          method: "otp",
          secret,
          otpauth: otpauthUrl(secret, user.username),
          confirm: user.tfa_secret ? "otp" : "password+email",
        });
      }
      case "/v2/auth/w/int/2fa/register": {
        const user = this.gate.accounts.byId(userId);
        const pending = this.#pending2fa.get(userId);
        if (!user || !pending || pending.expires <= this.now()) return err(ERROR_CODES.PARAMS, "otp: invalid");
        const proof = this.#proveOwner(user, body, pending.mailCode);
        const fresh = typeof body["token"] === "string" ? totpStep(pending.secret, body["token"], this.now()) : null;
        if (proof !== null || fresh === null) {
          // A few tries per challenge, then the owner starts again (and gets a new mailed code).
          if (++pending.tries >= MAX_OTP_TRIES) this.#pending2fa.delete(userId);
          return err(ERROR_CODES.PARAMS, proof ?? "otp: invalid");
        }
        const changed = user.tfa_secret !== null;
        this.#db().prepare("UPDATE users SET tfa_secret = ? WHERE id = ?").run(pending.secret, userId);
        // The code that confirmed the new secret is spent: it cannot sign in or approve anything.
        this.gate.accounts.useTotpStep(userId, fresh);
        this.#pending2fa.delete(userId);
        this.#mail(
          user.email,
          changed ? "Your two-factor authenticator was changed" : "Two-factor authentication is on",
          changed
            ? "A new authenticator replaced the old one on your account. If this was not you, contact support at once."
            : "Your account now asks for a code from your authenticator app at sign-in.",
        );
        return ok([1]);
      }
      case "/v2/auth/w/int/2fa/disable": {
        const user = this.gate.accounts.byId(userId);
        if (!user?.tfa_secret) return err(ERROR_CODES.PARAMS, "otp: not enabled");
        const proof = this.#proveOwner(user, body, null);
        if (proof !== null) return err(ERROR_CODES.PARAMS, proof);
        this.#db().prepare("UPDATE users SET tfa_secret = NULL WHERE id = ?").run(userId);
        this.#mail(
          user.email,
          "Two-factor authentication is off",
          "Your account no longer asks for an authenticator code. If this was not you, contact support at once.",
        );
        return ok([1]);
      }
      case "/v2/auth/r/settings":
      case "/v2/auth/r/settings/core": {
        const row = db.prepare("SELECT settings FROM users WHERE id = ?").get(userId) as
          { settings: string } | undefined;
        const all = JSON.parse(row?.settings ?? "{}") as Record<string, unknown>;
        const keys = Array.isArray(body["keys"])
          ? body["keys"].filter((k): k is string => typeof k === "string")
          : Object.keys(all);
        return ok(keys.filter((k) => k in all).map((k) => [k, all[k]]));
      }
      case "/v2/auth/w/settings/set": {
        const incoming = body["settings"];
        if (typeof incoming !== "object" || incoming === null || Array.isArray(incoming))
          return err(ERROR_CODES.PARAMS, "settings: invalid");
        const row = db.prepare("SELECT settings FROM users WHERE id = ?").get(userId) as
          { settings: string } | undefined;
        // A value its bound refuses is ignored, the rest of the update kept (src/protocol's
        // boundedSettings; docs/product-rules.md#settings-values): the answer counts what was stored.
        const accepted = boundedSettings(incoming as Record<string, unknown>);
        const merged = {
          ...(JSON.parse(row?.settings ?? "{}") as Record<string, unknown>),
          ...accepted,
        };
        const text = JSON.stringify(merged);
        if (text.length > 256 * 1024) return err(ERROR_CODES.PARAMS, "settings: too large");
        db.prepare("UPDATE users SET settings = ? WHERE id = ?").run(text, userId);
        return ok([Object.keys(accepted).length]);
      }
      default:
        return null;
    }
  }
}
