/**
 * Opening an account (docs/product-rules.md#sign-up-and-password-reset): `/v2/signup`, the e-mail
 * confirmation (`/v2/int/user/email/confirm`) and its resend, and whether a sign-up needs the
 * proof-of-work captcha (`/v2/int/captcha/required {method: "signup"}`).
 *
 * A sign-up is one SQLite transaction: the account, its paper balances, its confirmation link and
 * the mail that carries it are written together or not at all, so a process killed mid-request
 * leaves no account without its mail, nor a mail for no account (signup-durability.test.ts).
 */
import { randomBytes } from "node:crypto";
import {
  decodeSignupRequest,
  EMAIL_RESEND_COOLDOWN_MS,
  EMAIL_VERIFY_TTL_MS,
  ERROR_CODES,
  REGIONAL_APPLICATION_PATH,
  SIGNUP_TERMS_ID,
} from "../src/protocol/index.ts";
import { CAPTCHA_PROVIDER, type AltchaCaptcha } from "./captcha.ts";
import type { AccountGateway } from "./exchange/account-gateway.ts";
import { confValues } from "./exchange/public-conf.ts";
import { sendMail } from "./mail.ts";
import { RegionalApplications } from "./regional-signup.ts";
import { fail, ok, type Reply } from "./reply.ts";
import { addColumns, type Db } from "./store/db.ts";

/** The public host's account calls answer a refusal with HTTP 400. */
const refuse = (msg: string, code: number = ERROR_CODES.PARAMS): Reply => fail(code, msg, 400);

/** Paper balances every new account starts with. */
export const NEW_ACCOUNT_BALANCES: Readonly<Record<string, number>> = {
  USD: 10_000,
  BTC: 0.5,
  TESTUSD: 10_000,
  TESTBTC: 0.5,
};
/** Sign-ups from one address within SIGNUP_WINDOW_MS before each further one needs the captcha. */
export const SIGNUPS_BEFORE_CAPTCHA = 3;
const SIGNUP_WINDOW_MS = 3_600_000;

/** What a sign-up stores beyond the users table's first columns (added to an older database file). */
const SIGNUP_COLUMNS: readonly (readonly [string, string, string])[] = [
  ["users", "country", "TEXT"],
  ["users", "newsletter", "INTEGER NOT NULL DEFAULT 0"],
  ["users", "tos_version", "TEXT"],
  ["users", "tos_accepted_at", "INTEGER"],
  // When the link was mailed: the resend's cooldown is kept per account, across restarts.
  ["email_verifications", "sent_at", "INTEGER NOT NULL DEFAULT 0"],
];

export interface SignupOptions {
  /** Sign-ups per address per hour before the captcha (`SIGNUP_CAPTCHA_AFTER`); default SIGNUPS_BEFORE_CAPTCHA. */
  readonly captchaAfter?: number;
}

export class Signup {
  /** Per address, when its recent sign-ups (and tries at taken names) were made. */
  readonly #attempts = new Map<string, number[]>();
  readonly #captchaAfter: number;
  /** Applications to a regional venue: gated by this sign-up's captcha and counted with it. */
  readonly regional: RegionalApplications;

  constructor(
    readonly gate: AccountGateway,
    readonly now: () => number,
    readonly captcha: AltchaCaptcha,
    options: SignupOptions = {},
  ) {
    this.#captchaAfter = options.captchaAfter ?? SIGNUPS_BEFORE_CAPTCHA;
    addColumns(this.#db(), SIGNUP_COLUMNS);
    this.regional = new RegionalApplications(this.#db(), gate.exchange, now);
  }

  #db(): Db {
    return this.gate.accounts.db;
  }

  #recent(address: string): number[] {
    const since = this.now() - SIGNUP_WINDOW_MS;
    const list = (this.#attempts.get(address) ?? []).filter((t) => t > since);
    if (list.length > 0) this.#attempts.set(address, list);
    else this.#attempts.delete(address);
    return list;
  }

  captchaRequired(address: string | null): boolean {
    return address !== null && this.#recent(address).length >= this.#captchaAfter;
  }

  #count(address: string | null): void {
    if (address !== null) this.#attempts.set(address, [...this.#recent(address), this.now()]);
  }

  /** The current version of the terms a sign-up agrees to (`pub:legal:terms:tos`). */
  #termsVersion(): string | null {
    const [terms] = confValues(this.gate.exchange, [`pub:legal:terms:${SIGNUP_TERMS_ID}`], this.now());
    const version = typeof terms === "object" && terms !== null ? (terms as Record<string, unknown>)["version"] : null;
    return typeof version === "string" ? version : null;
  }

  /**
   * The sign-up calls; null for any other path (the caller goes on to the other handlers). Async, as
   * redeeming a captcha solution is.
   */
  handle(path: string, body: Record<string, unknown>, address: string | null): Promise<Reply> | null {
    switch (path) {
      case "/v2/signup":
        return this.#signup(body, address);
      case "/v2/int/user/email/confirm":
        return Promise.resolve(this.#confirm(body));
      case "/v2/int/user/email/confirm/resend":
        return Promise.resolve(this.#resend(body));
      case REGIONAL_APPLICATION_PATH:
        return this.#apply(body, address);
      case "/v2/int/captcha/required":
        // The login's own question (with `login`) is the identity's.
        return body["method"] === "signup" ? Promise.resolve(ok([this.captchaRequired(address)])) : null;
      default:
        return null;
    }
  }

  /** Null when the captcha is not due or its solution redeems; else the refusal. */
  async #captchaRefusal(
    address: string | null,
    r: { readonly captchaToken?: string; readonly captchaProvider?: string },
  ): Promise<Reply | null> {
    if (!this.captchaRequired(address)) return null;
    if (r.captchaToken === undefined) return refuse("captcha: required");
    if (r.captchaProvider !== CAPTCHA_PROVIDER || !(await this.captcha.redeem(r.captchaToken)))
      return refuse("captcha: invalid");
    return null;
  }

  /** A regional venue's application (regional-signup.ts); it counts as a sign-up towards the captcha. */
  async #apply(body: Record<string, unknown>, address: string | null): Promise<Reply> {
    const checked = this.regional.check(body);
    if (!checked.ok) return checked.reply;
    const refused = await this.#captchaRefusal(address, checked.value);
    if (refused) return refused;
    const reply = this.regional.submit(checked.value);
    this.#count(address);
    return reply;
  }

  async #signup(body: Record<string, unknown>, address: string | null): Promise<Reply> {
    const decoded = decodeSignupRequest(body);
    if (!decoded.ok) return refuse(`${decoded.refusal.field}: ${decoded.refusal.reason}`);
    const r = decoded.value;
    const refused = await this.#captchaRefusal(address, r);
    if (refused) return refused;
    const version = this.#termsVersion();
    if (version === null || r.tosVersion !== version) return refuse("terms: outdated, read them again");
    const a = this.gate.accounts;
    // A taken name counts towards the captcha: trying address after address is how accounts are probed.
    if (a.byLogin(r.email)) {
      this.#count(address);
      return refuse("email: taken");
    }
    if (a.byLogin(r.username)) {
      this.#count(address);
      return refuse("username: taken");
    }
    const now = this.now();
    const id = this.gate.events.atomically(() => {
      const userId = a.createUser(r.email, r.username, r.password, now, false);
      this.#db()
        .prepare("UPDATE users SET country = ?, newsletter = ?, tos_version = ?, tos_accepted_at = ? WHERE id = ?")
        .run(r.country, r.newsletter ? 1 : 0, r.tosVersion, now, userId);
      for (const [ccy, amount] of Object.entries(NEW_ACCOUNT_BALANCES))
        this.gate.funds.deposit(userId, ccy, amount, "Paper-trading deposit");
      this.#issueVerification(userId, r.email, now);
      return userId;
    });
    this.#count(address);
    return ok([id]);
  }

  #issueVerification(userId: number, email: string, now: number): void {
    const hash = randomBytes(20).toString("hex");
    this.#db()
      .prepare("INSERT INTO email_verifications (hash, user_id, expires_at, sent_at) VALUES (?, ?, ?, ?)")
      .run(hash, userId, now + EMAIL_VERIFY_TTL_MS, now);
    sendMail(
      this.#db(),
      email,
      "Confirm your e-mail",
      `Welcome to Orderflow. Open /confirm-signup?hash=${hash} to confirm your e-mail address, or submit this code: ${hash}. ` +
        "The link works for 24 hours. If you did not sign up, ignore this mail.",
      now,
    );
  }

  #confirm(body: Record<string, unknown>): Reply {
    const hash = body["emailVerifyHash"];
    if (typeof hash !== "string" || !/^[0-9a-f]{40}$/.test(hash)) return refuse("emailVerifyHash: invalid");
    const db = this.#db();
    return db.transaction((): Reply => {
      const row = db.prepare("SELECT user_id, expires_at FROM email_verifications WHERE hash = ?").get(hash) as
        { user_id: number; expires_at: number } | undefined;
      if (!row || row.expires_at < this.now()) return refuse("emailVerifyHash: invalid");
      db.prepare(
        "UPDATE users SET email_verified = 1, verification_level = MAX(verification_level, 1) WHERE id = ?",
      ).run(row.user_id);
      // Every link of the account is spent with it: a confirmed address needs none.
      db.prepare("DELETE FROM email_verifications WHERE user_id = ?").run(row.user_id);
      return ok([1]);
    })();
  }

  /**
   * The same answer whether or not the address has an account, is confirmed already, or asked
   * within the cooldown: nothing here tells who has an account. A mail goes out only to an
   * unconfirmed account whose last link is older than the cooldown.
   */
  #resend(body: Record<string, unknown>): Reply {
    const email = typeof body["email"] === "string" ? body["email"].trim().toLowerCase() : "";
    const user = email === "" ? undefined : this.gate.accounts.byLogin(email);
    if (user && user.email_verified === 0 && user.email === email) {
      const now = this.now();
      const db = this.#db();
      db.transaction(() => {
        const last = db
          .prepare("SELECT MAX(sent_at) AS sent FROM email_verifications WHERE user_id = ?")
          .get(user.id) as { sent: number | null };
        if (last.sent === null || now - last.sent >= EMAIL_RESEND_COOLDOWN_MS)
          this.#issueVerification(user.id, user.email, now);
      })();
    }
    return ok([1]);
  }
}
