/**
 * SMS as a second factor (docs/product-rules.md#account-security): the owner registers a phone
 * number, the exchange texts a six-digit code, and the code turns SMS on; at sign-in an account
 * with SMS on may ask for a code by text instead of the other factors; turning it off needs the
 * password and a code texted to the number. Texts go to the development SMS outbox (`GET /dev/sms`),
 * this machine's stand-in for a carrier. Numbers are read by libphonenumber-js (Google's
 * libphonenumber metadata: which lengths and prefixes each country has) and stored as E.164.
 *
 * Codes are stored as a SHA-256 (one per account and purpose: a new text replaces the last code),
 * expire after SMS_CODE_TTL_MS, are spent by the first right answer, and take SMS_MAX_TRIES wrong
 * answers before they are dropped; an account takes SMS_MAX_FAILURES wrong codes in
 * SMS_FAILURE_WINDOW_MS (over every purpose), then every code is refused until the oldest leaves
 * the window. A text of one purpose waits SMS_RESEND_MS after the last, and an account gets at most
 * SMS_MAX_PER_HOUR texts an hour. All of it is in SQLite, so both API hosts and a restart agree.
 *
 * An account whose only second factor is a hardware key proves nothing beyond the password when
 * adding a phone, and a text would then stand in for the key at sign-in: there, the text to turn SMS
 * on comes with a code mailed to the account (`sms_mail_codes`, hashed, same lifetime and tries),
 * and turning it on needs both (`emailCode`).
 */
import { createHash, randomInt } from "node:crypto";
import { parsePhoneNumberFromString, type CountryCode } from "libphonenumber-js";
import {
  ERROR_CODES,
  maskPhone,
  SMS_CODE_DIGITS,
  SMS_CODE_TTL_MS,
  SMS_FAILURE_WINDOW_MS,
  SMS_MAX_FAILURES,
  SMS_MAX_PER_HOUR,
  SMS_MAX_TRIES,
  SMS_RESEND_MS,
  smsSentCodec,
  smsStateCodec,
  type SmsPurpose,
} from "../src/protocol/index.ts";
import { checkPassword, proveOwner } from "./owner-proof.ts";
import { fail, ok, type Reply } from "./reply.ts";
import type { Client } from "./security.ts";
import { safeEqual, type Accounts, type UserRow } from "./store/accounts.ts";

type Mailer = (to: string, subject: string, body: string) => void;

const err = (msg: string): Reply => fail(ERROR_CODES.PARAMS, msg, 400);

/** The paths answered here (authenticated host, a session's own token); see `handle`. */
export const SMS_PATHS: ReadonlySet<string> = new Set([
  "/v2/auth/r/int/2fa/sms",
  "/v2/auth/w/int/2fa/sms/send",
  "/v2/auth/w/int/2fa/sms/enable",
  "/v2/auth/w/int/2fa/sms/disable/send",
  "/v2/auth/w/int/2fa/sms/disable",
]);

/** A phone number read: its E.164 form and country calling code, or null when it is not one. */
export function readPhone(input: unknown, country: unknown): { e164: string; countryCode: string } | null {
  if (typeof input !== "string" || input.length > 40) return null;
  const region = typeof country === "string" && /^[A-Z]{2}$/.test(country) ? (country as CountryCode) : undefined;
  const phone = parsePhoneNumberFromString(input, region);
  if (!phone?.isValid()) return null;
  return { e164: phone.number, countryCode: phone.countryCallingCode };
}

/**
 * A code's stored hash; `bound` is what the code was sent for (a withdrawal's fingerprint), so the
 * code proves only that (a code for one withdrawal is wrong for any other).
 */
const hashCode = (userId: number, purpose: SmsPurpose, code: string, bound = ""): string =>
  createHash("sha256")
    .update(`${userId}:${purpose}:${code}${bound === "" ? "" : `:${bound}`}`)
    .digest("hex");

/** What a withdrawal's code is sent for: its fingerprint, and its amount and address in words for the text. */
export interface SmsWithdrawal {
  readonly fingerprint: string;
  readonly what: string;
}

interface CodeRow {
  readonly phone: string;
  readonly country_code: string;
  readonly code_hash: string;
  readonly expires_at: number;
  readonly tries: number;
}

/** Why a texted code was not taken. */
export type SmsCheck = "ok" | "invalid" | "expired" | "too-many";

export class Sms {
  constructor(
    readonly accounts: Accounts,
    readonly now: () => number,
    readonly mail: Mailer,
  ) {
    // The code mailed with the text that turns SMS on, for accounts whose only factor is a key.
    accounts.db.exec(`CREATE TABLE IF NOT EXISTS sms_mail_codes (
  user_id INTEGER PRIMARY KEY REFERENCES users(id),
  code_hash TEXT NOT NULL,
  expires_at INTEGER NOT NULL,
  tries INTEGER NOT NULL DEFAULT 0
);`);
  }

  /**
   * Checks the mailed code of turning SMS on (not spent here: the enable's transaction deletes it
   * with the texted one). A wrong code counts as a wrong SMS code of the account, and a few drop it.
   */
  #checkMailedCode(userId: number, code: unknown): string | null {
    const db = this.#db();
    const now = this.now();
    if (this.#recentFailures(userId) >= SMS_MAX_FAILURES) return Sms.refusal("too-many");
    const row = db.prepare("SELECT code_hash, expires_at, tries FROM sms_mail_codes WHERE user_id = ?").get(userId) as
      { code_hash: string; expires_at: number; tries: number } | undefined;
    if (!row || row.expires_at <= now) return Sms.refusal("expired");
    const given = typeof code === "string" ? code.replace(/\s+/g, "") : "";
    if (/^\d+$/.test(given) && safeEqual(hashCode(userId, "enable", `mail:${given}`), row.code_hash)) return null;
    db.transaction(() => {
      db.prepare("INSERT INTO sms_failures (user_id, mts) VALUES (?, ?)").run(userId, now);
      if (row.tries + 1 >= SMS_MAX_TRIES) db.prepare("DELETE FROM sms_mail_codes WHERE user_id = ?").run(userId);
      else db.prepare("UPDATE sms_mail_codes SET tries = tries + 1 WHERE user_id = ?").run(userId);
    })();
    return "email code: invalid";
  }

  #db() {
    return this.accounts.db;
  }

  /** The number SMS is on for, or null. */
  factorOf(userId: number): { phone: string; countryCode: string } | null {
    const row = this.#db().prepare("SELECT phone, country_code FROM sms_factors WHERE user_id = ?").get(userId) as
      { phone: string; country_code: string } | undefined;
    return row ? { phone: row.phone, countryCode: row.country_code } : null;
  }

  /** When the next text of `purpose` may go to `userId` (its last one plus the resend wait). */
  #resendAt(userId: number, purpose: SmsPurpose): number {
    const row = this.#db()
      .prepare("SELECT MAX(mts) AS mts FROM sms_outbox WHERE user_id = ? AND purpose = ?")
      .get(userId, purpose) as { mts: number | null };
    return row.mts === null ? 0 : row.mts + SMS_RESEND_MS;
  }

  /**
   * Texts a new code of `purpose` to `phone` (replacing the last one of that purpose), unless the
   * resend wait or the hourly allowance says no. The answer is the sent record, or the refusal.
   */
  /** Whether turning SMS on needs a mailed code too: the account's only second factor is a hardware key. */
  #needsMailedCode(user: UserRow): boolean {
    const has = this.accounts.secondFactors(user);
    return has.includes("u2f") && !has.includes("otp");
  }

  #send(
    userId: number,
    purpose: SmsPurpose,
    phone: { e164: string; countryCode: string },
    mailTo: string | null = null,
    withdrawal: SmsWithdrawal | null = null,
  ): Reply {
    const db = this.#db();
    const now = this.now();
    if (this.#resendAt(userId, purpose) > now) return err("sms: wait before asking for another code");
    const sent = db
      .prepare("SELECT COUNT(*) AS n FROM sms_outbox WHERE user_id = ? AND mts > ?")
      .get(userId, now - 3_600_000) as { n: number };
    if (sent.n >= SMS_MAX_PER_HOUR) return err("sms: too many messages, try again later");
    const code = String(randomInt(0, 10 ** SMS_CODE_DIGITS)).padStart(SMS_CODE_DIGITS, "0");
    const expires = now + SMS_CODE_TTL_MS;
    const text =
      purpose === "signin"
        ? `Your Orderflow sign-in code is ${code}. It expires in 5 minutes. Never share it.`
        : purpose === "enable"
          ? `Your Orderflow code to turn on SMS sign-in is ${code}. It expires in 5 minutes.`
          : purpose === "withdraw"
            ? // Names what it sends where: a victim relaying a code sees what it would really confirm.
              `Your Orderflow code to send ${withdrawal?.what ?? "a withdrawal"} is ${code}. It expires in 5 minutes. Never share it.`
            : `Your Orderflow code to turn off SMS sign-in is ${code}. It expires in 5 minutes.`;
    db.transaction(() => {
      db.prepare(
        `INSERT INTO sms_codes (user_id, purpose, phone, country_code, code_hash, expires_at, tries)
         VALUES (?, ?, ?, ?, ?, ?, 0)
         ON CONFLICT (user_id, purpose) DO UPDATE SET phone = excluded.phone, country_code = excluded.country_code,
           code_hash = excluded.code_hash, expires_at = excluded.expires_at, tries = 0`,
      ).run(
        userId,
        purpose,
        phone.e164,
        phone.countryCode,
        hashCode(userId, purpose, code, withdrawal?.fingerprint),
        expires,
      );
      db.prepare("INSERT INTO sms_outbox (user_id, purpose, recipient, body, mts) VALUES (?, ?, ?, ?, ?)").run(
        userId,
        purpose,
        phone.e164,
        text,
        now,
      );
      if (mailTo !== null) {
        const mailed = String(randomInt(0, 10 ** SMS_CODE_DIGITS)).padStart(SMS_CODE_DIGITS, "0");
        db.prepare(
          `INSERT INTO sms_mail_codes (user_id, code_hash, expires_at, tries) VALUES (?, ?, ?, 0)
           ON CONFLICT (user_id) DO UPDATE SET code_hash = excluded.code_hash, expires_at = excluded.expires_at, tries = 0`,
        ).run(userId, hashCode(userId, "enable", `mail:${mailed}`), expires);
        this.mail(
          mailTo,
          "Your code to turn on SMS sign-in",
          `Someone signed in to your account asked to add the phone ${maskPhone(phone.e164, phone.countryCode)} for ` +
            `sign-in codes. Your account is protected by a security key, so this also needs the code ${mailed} ` +
            "(5 minutes). If this was not you, do not use it: change your password.",
        );
      }
    })();
    return ok(
      smsSentCodec.encode({
        phone: maskPhone(phone.e164, phone.countryCode),
        expires,
        resendAt: now + SMS_RESEND_MS,
      }),
    );
  }

  #recentFailures(userId: number): number {
    const row = this.#db()
      .prepare("SELECT COUNT(*) AS n FROM sms_failures WHERE user_id = ? AND mts > ?")
      .get(userId, this.now() - SMS_FAILURE_WINDOW_MS) as { n: number };
    return row.n;
  }

  /**
   * Checks `code` against the last code of `purpose` texted to `userId`; a right one is spent
   * (deleted) in the same statement that finds it, so two requests cannot both use it. The
   * number the code went to comes back with "ok". `bound`: what the code must have been sent for
   * (a withdrawal's fingerprint); a code sent for anything else is wrong.
   */
  check(
    userId: number,
    purpose: SmsPurpose,
    code: unknown,
    bound = "",
  ): { result: Exclude<SmsCheck, "ok"> } | { result: "ok"; phone: string; countryCode: string } {
    const db = this.#db();
    const now = this.now();
    if (this.#recentFailures(userId) >= SMS_MAX_FAILURES) return { result: "too-many" };
    const row = db
      .prepare(
        "SELECT phone, country_code, code_hash, expires_at, tries FROM sms_codes WHERE user_id = ? AND purpose = ?",
      )
      .get(userId, purpose) as CodeRow | undefined;
    if (!row || row.expires_at <= now) return { result: "expired" };
    const given = typeof code === "string" ? code.replace(/\s+/g, "") : "";
    const right =
      new RegExp(`^\\d{${SMS_CODE_DIGITS}}$`).test(given) &&
      safeEqual(hashCode(userId, purpose, given, bound), row.code_hash);
    if (right) {
      const spent = db
        .prepare("DELETE FROM sms_codes WHERE user_id = ? AND purpose = ? AND code_hash = ?")
        .run(userId, purpose, row.code_hash).changes;
      if (spent === 1) return { result: "ok", phone: row.phone, countryCode: row.country_code };
      return { result: "expired" };
    }
    db.transaction(() => {
      db.prepare("INSERT INTO sms_failures (user_id, mts) VALUES (?, ?)").run(userId, now);
      db.prepare("DELETE FROM sms_failures WHERE user_id = ? AND mts <= ?").run(userId, now - SMS_FAILURE_WINDOW_MS);
      // A few tries per code, then the owner asks for a new one.
      if (row.tries + 1 >= SMS_MAX_TRIES)
        db.prepare("DELETE FROM sms_codes WHERE user_id = ? AND purpose = ?").run(userId, purpose);
      else db.prepare("UPDATE sms_codes SET tries = tries + 1 WHERE user_id = ? AND purpose = ?").run(userId, purpose);
    })();
    return { result: "invalid" };
  }

  /** The refusal message of a code that was not taken. */
  static refusal(result: Exclude<SmsCheck, "ok">): string {
    switch (result) {
      case "invalid":
        return "sms: code invalid";
      case "expired":
        return "sms: code expired, ask for a new one";
      case "too-many":
        return "sms: too many attempts, try again later";
      default: {
        const never: never = result;
        return never;
      }
    }
  }

  // --- sign-in (server/identity.ts's second step) ------------------------------------------------

  /** `/v2/login/sms`: texts a sign-in code to the account's number. */
  sendSignIn(userId: number): Reply {
    const factor = this.factorOf(userId);
    if (!factor) return fail(ERROR_CODES.AUTH_FAILED, "sms: not enabled", 400);
    return this.#send(userId, "signin", { e164: factor.phone, countryCode: factor.countryCode });
  }

  /**
   * A withdrawal's second factor (exchange/withdrawals.ts): texts a code of purpose `withdraw` to
   * the account's number, with the resend wait and hourly allowance of every text. Null when SMS is
   * not the account's factor. The code is good only for `withdrawal`, which the text names.
   */
  sendWithdrawal(userId: number, withdrawal: SmsWithdrawal): Reply | null {
    const factor = this.factorOf(userId);
    if (!factor) return null;
    return this.#send(userId, "withdraw", { e164: factor.phone, countryCode: factor.countryCode }, null, withdrawal);
  }

  /**
   * `/v2/login/verify` with `method: "sms"`: null when `code` is the sign-in code last texted to the
   * account's number (now spent), else the refusal's message.
   */
  verifySignIn(userId: number, code: unknown): string | null {
    if (!this.factorOf(userId)) return "sms: not enabled";
    const r = this.check(userId, "signin", code);
    return r.result === "ok" ? null : Sms.refusal(r.result);
  }

  // --- the security page's calls -------------------------------------------------------------------

  /**
   * The SMS calls of the security page for `userId` (`caps` null: a session's own token; anything
   * else is refused, as for every security call). A wrong password or code is a bad parameter
   * (10020): 10100 would end the caller's session (docs/product-rules.md#errors).
   */
  handle(
    userId: number,
    token: string | null,
    caps: readonly string[] | null,
    path: string,
    body: Record<string, unknown>,
    _client: Client,
  ): Promise<Reply> {
    return Promise.resolve(this.#handle(userId, token, caps, path, body));
  }

  #handle(
    userId: number,
    token: string | null,
    caps: readonly string[] | null,
    path: string,
    body: Record<string, unknown>,
  ): Reply {
    if (caps !== null || token === null) return fail(ERROR_CODES.AUTH_FAILED, "security: a session token is required");
    const user = this.accounts.byId(userId);
    if (!user) return fail(ERROR_CODES.AUTH_FAILED, "token: invalid");
    const db = this.#db();
    const factor = this.factorOf(userId);
    switch (path) {
      case "/v2/auth/r/int/2fa/sms": {
        const pending = db
          .prepare("SELECT phone, country_code, expires_at FROM sms_codes WHERE user_id = ? AND purpose = 'enable'")
          .get(userId) as { phone: string; country_code: string; expires_at: number } | undefined;
        const live = pending && pending.expires_at > this.now() ? pending : null;
        return ok(
          smsStateCodec.encode({
            phone: factor ? maskPhone(factor.phone, factor.countryCode) : null,
            enabled: factor !== null,
            pendingPhone: live && !factor ? maskPhone(live.phone, live.country_code) : null,
            expires: live && !factor ? live.expires_at : null,
            resendAt: this.#resendAt(userId, factor ? "disable" : "enable"),
            emailCode: !factor && this.#needsMailedCode(user),
          }),
        );
      }
      case "/v2/auth/w/int/2fa/sms/send": {
        if (factor) return err("sms: already enabled");
        const phone = readPhone(body["phone"], body["country"]);
        if (!phone) return err("phone: invalid");
        return this.#send(userId, "enable", phone, this.#needsMailedCode(user) ? user.email : null);
      }
      case "/v2/auth/w/int/2fa/sms/enable": {
        if (factor) return err("sms: already enabled");
        const proof = proveOwner(this.accounts, user, body, this.now());
        if (proof !== null) return err(proof);
        const mailed = this.#needsMailedCode(user);
        if (mailed) {
          const wrong = this.#checkMailedCode(userId, body["emailCode"]);
          if (wrong !== null) return err(wrong);
        }
        // The code spent, the factor and its mail commit together: a failure leaves the code good.
        const r = db.transaction(() => {
          const checked = this.check(userId, "enable", body["code"]);
          if (checked.result !== "ok") return checked;
          if (mailed) db.prepare("DELETE FROM sms_mail_codes WHERE user_id = ?").run(userId);
          db.prepare("INSERT INTO sms_factors (user_id, phone, country_code, enabled_at) VALUES (?, ?, ?, ?)").run(
            userId,
            checked.phone,
            checked.countryCode,
            this.now(),
          );
          this.mail(
            user.email,
            "SMS sign-in codes are on",
            `Your account can now confirm sign-ins with a code texted to ${maskPhone(checked.phone, checked.countryCode)}. If this was not you, contact support at once.`,
          );
          return checked;
        })();
        if (r.result !== "ok") return err(Sms.refusal(r.result));
        return ok([1]);
      }
      case "/v2/auth/w/int/2fa/sms/disable/send":
        if (!factor) return err("sms: not enabled");
        return this.#send(userId, "disable", { e164: factor.phone, countryCode: factor.countryCode });
      case "/v2/auth/w/int/2fa/sms/disable": {
        if (!factor) return err("sms: not enabled");
        const refused = checkPassword(this.accounts, user, body["password"], this.now());
        if (refused !== null) return err(refused);
        const r = db.transaction(() => {
          const checked = this.check(userId, "disable", body["code"]);
          if (checked.result !== "ok") return checked;
          db.prepare("DELETE FROM sms_factors WHERE user_id = ?").run(userId);
          db.prepare("DELETE FROM sms_codes WHERE user_id = ?").run(userId);
          this.mail(
            user.email,
            "SMS sign-in codes are off",
            `Your account no longer accepts codes texted to ${maskPhone(factor.phone, factor.countryCode)}. If this was not you, contact support at once.`,
          );
          return checked;
        })();
        if (r.result !== "ok") return err(Sms.refusal(r.result));
        return ok([1]);
      }
      default:
        return fail(ERROR_CODES.PARAMS, "not found", 404);
    }
  }

  /** The development SMS outbox (`GET /dev/sms?to=`), newest first; every number when `to` is null. */
  outbox(to: string | null): unknown[] {
    const db = this.#db();
    const sql = "SELECT id, recipient, body, mts FROM sms_outbox";
    return to === null
      ? db.prepare(`${sql} ORDER BY id DESC LIMIT 100`).all()
      : db.prepare(`${sql} WHERE recipient = ? ORDER BY id DESC LIMIT 100`).all(readPhone(to, null)?.e164 ?? to);
  }
}
