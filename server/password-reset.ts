/**
 * Forgotten password by e-mail (docs/product-rules.md#sign-up-and-password-reset):
 *
 * - `POST /v2/int/user/password/reset/request {email}` always answers `[1]`, whether or not the
 *   address has an account: nothing tells who has one. An account's owner gets a mail with a link
 *   `/reset-password?token=…`; a new request makes the earlier links of the account useless, and an
 *   account gets at most MAILS_PER_ACCOUNT such mails an hour (the answer is the same beyond).
 * - `POST /v2/int/user/password/reset/check {token}`: `[1]` while the link works (the page asks
 *   before showing its form), else `token: invalid`.
 * - `POST /v2/int/user/password/reset {token, password}`: the new password, by the sign-up's
 *   strength rules; in one transaction the password changes, the link is spent (single use; every
 *   other link of the account too), every token of the account is deleted — its sessions everywhere
 *   end and their sockets close — and the owner is told by mail.
 *
 * Only a hash of a link's token is stored: a copy of the database does not reset anyone's password.
 * Each address may ask for REQUESTS_PER_ADDRESS links, and try REQUESTS_PER_ADDRESS × 2 tokens, per
 * quarter hour (HTTP 429 beyond: the limit is the caller's, not the account's, so it tells nothing).
 */
import { createHash, randomBytes } from "node:crypto";
import { ERROR_CODES, PASSWORD_RESET_TTL_MS, passwordProblems } from "../src/protocol/index.ts";
import type { Accounts } from "./store/accounts.ts";
import { hashPassword } from "./store/accounts.ts";
import { fail, ok, type Reply } from "./reply.ts";
import { sendMail } from "./mail.ts";

export const REQUESTS_PER_ADDRESS = 5;
export const MAILS_PER_ACCOUNT = 3;
const WINDOW_MS = 15 * 60_000;
const MAIL_WINDOW_MS = 3_600_000;

const refuse = (msg: string): Reply => fail(ERROR_CODES.PARAMS, msg, 400);
const RATE_LIMITED: Reply = { status: 429, body: { error: "ERR_RATE_LIMIT" } };

const PASSWORD_RESETS = `CREATE TABLE IF NOT EXISTS password_resets (
  token_hash TEXT PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users(id),
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  used_at INTEGER
)`;

const digest = (token: string): string => createHash("sha256").update(token).digest("hex");

export class PasswordReset {
  /** Per address and kind (`request`, `token`), the times of its recent calls. */
  readonly #calls = new Map<string, number[]>();

  constructor(
    readonly accounts: Accounts,
    readonly now: () => number,
  ) {
    accounts.db.exec(PASSWORD_RESETS);
  }

  /** Counts a call of `kind` from `address`; false when over its limit. */
  #allow(address: string | null, kind: "request" | "token", limit: number): boolean {
    const key = `${kind}|${address ?? "?"}`;
    const since = this.now() - WINDOW_MS;
    const list = (this.#calls.get(key) ?? []).filter((t) => t > since);
    list.push(this.now());
    this.#calls.set(key, list);
    return list.length <= limit;
  }

  /** The reset calls; null for any other path. */
  handle(path: string, body: Record<string, unknown>, address: string | null): Reply | null {
    switch (path) {
      case "/v2/int/user/password/reset/request":
        return this.#allow(address, "request", REQUESTS_PER_ADDRESS) ? this.#request(body) : RATE_LIMITED;
      case "/v2/int/user/password/reset/check":
        if (!this.#allow(address, "token", REQUESTS_PER_ADDRESS * 2)) return RATE_LIMITED;
        return this.#live(body["token"]) ? ok([1]) : refuse("token: invalid");
      case "/v2/int/user/password/reset":
        return this.#allow(address, "token", REQUESTS_PER_ADDRESS * 2) ? this.#reset(body) : RATE_LIMITED;
      default:
        return null;
    }
  }

  #request(body: Record<string, unknown>): Reply {
    const email = typeof body["email"] === "string" ? body["email"].trim().toLowerCase() : "";
    const user = email === "" ? undefined : this.accounts.byLogin(email);
    // A username is not an address: the link goes only to the address that was typed.
    if (!user || user.email !== email) return ok([1]);
    const db = this.accounts.db;
    const now = this.now();
    db.transaction(() => {
      const sent = db
        .prepare("SELECT COUNT(*) AS n FROM password_resets WHERE user_id = ? AND created_at > ?")
        .get(user.id, now - MAIL_WINDOW_MS) as { n: number };
      if (sent.n >= MAILS_PER_ACCOUNT) return;
      const token = randomBytes(32).toString("hex");
      // One live link at a time: the newest mail is the one that works.
      db.prepare("UPDATE password_resets SET used_at = ? WHERE user_id = ? AND used_at IS NULL").run(now, user.id);
      db.prepare("INSERT INTO password_resets (token_hash, user_id, created_at, expires_at) VALUES (?, ?, ?, ?)").run(
        digest(token),
        user.id,
        now,
        now + PASSWORD_RESET_TTL_MS,
      );
      sendMail(
        db,
        user.email,
        "Reset your password",
        `Someone asked to reset the password of your Orderflow account. Open /reset-password?token=${token} ` +
          "within 30 minutes to choose a new one; the link works once. If this was not you, ignore this mail: " +
          "your password stays as it is.",
        now,
      );
    })();
    return ok([1]);
  }

  /** The account a still-usable link's token belongs to. */
  #live(token: unknown): { userId: number; hash: string } | null {
    if (typeof token !== "string" || !/^[0-9a-f]{64}$/.test(token)) return null;
    const hash = digest(token);
    const row = this.accounts.db
      .prepare("SELECT user_id, expires_at, used_at FROM password_resets WHERE token_hash = ?")
      .get(hash) as { user_id: number; expires_at: number; used_at: number | null } | undefined;
    if (!row || row.used_at !== null || row.expires_at <= this.now()) return null;
    return { userId: row.user_id, hash };
  }

  #reset(body: Record<string, unknown>): Reply {
    const link = this.#live(body["token"]);
    const user = link ? this.accounts.byId(link.userId) : undefined;
    if (!link || !user) return refuse("token: invalid");
    const password = typeof body["password"] === "string" ? body["password"] : "";
    const weak = passwordProblems(password, { username: user.username, email: user.email });
    if (weak.length > 0) return refuse(`password: weak (${weak.join(", ")})`);
    const db = this.accounts.db;
    const now = this.now();
    db.transaction(() => {
      db.prepare("UPDATE users SET password_hash = ? WHERE id = ?").run(hashPassword(password), user.id);
      db.prepare("UPDATE password_resets SET used_at = ? WHERE user_id = ? AND used_at IS NULL").run(now, user.id);
      sendMail(
        db,
        user.email,
        "Your password was changed",
        "The password of your Orderflow account was just changed, and every device was signed out. " +
          "If this was not you, freeze your account at /freeze and contact support at once.",
        now,
      );
      // Last, so nothing after it can roll back a revocation the sockets were already told of.
      const tokens = db.prepare("SELECT token FROM tokens WHERE user_id = ?").all(user.id) as { token: string }[];
      for (const t of tokens) this.accounts.revokeToken(t.token);
    })();
    return ok([1]);
  }
}
