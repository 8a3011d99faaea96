// The owner's proof for a security change, one check for every module that asks for it (hardware
// keys, SMS, the withdrawal address book, identity's second factor): the same refusal messages
// everywhere, which the pages map to their field errors.
import { verifyPassword, type Accounts, type UserRow } from "./store/accounts.ts";
import { totpStep } from "./store/totp.ts";

/** Whether `password` (as sent: any JSON value) is the account's password. */
export function passwordMatches(user: UserRow, password: unknown): boolean {
  return typeof password === "string" && verifyPassword(password, user.password_hash);
}

/**
 * Whether `code` (as sent) is the account's current authenticator code at `now` (ms), and takes
 * its step: a code is good once, for sign-in, key creation and security changes alike
 * (`Accounts.useTotpStep`). False when the account has no authenticator.
 */
export function takeCurrentCode(accounts: Accounts, user: UserRow, code: unknown, now: number): boolean {
  if (!user.tfa_secret || typeof code !== "string") return false;
  const step = totpStep(user.tfa_secret, code, now);
  return step !== null && accounts.useTotpStep(user.id, step);
}

/**
 * Wrong passwords and codes an account's signed-in sessions may give for security changes within
 * OWNER_PROOF_WINDOW_MS; then every proof is refused with OWNER_PROOF_LOCKED until the oldest leaves
 * the window. A stolen session must not be a password oracle: the login counts its failures, and
 * this is the same count for the checks behind a session.
 */
export const OWNER_PROOF_MAX_FAILURES = 5;
export const OWNER_PROOF_WINDOW_MS = 10 * 60_000;
export const OWNER_PROOF_LOCKED = "proof: too many attempts, try again later";

/** Databases whose failure table exists (created on first use, as the address book's are). */
const ready = new WeakSet<object>();

function failuresTable(accounts: Accounts): void {
  if (ready.has(accounts.db)) return;
  accounts.db.exec(`CREATE TABLE IF NOT EXISTS owner_proof_failures (
  user_id INTEGER NOT NULL REFERENCES users(id),
  mts INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS owner_proof_failures_user ON owner_proof_failures(user_id, mts);`);
  ready.add(accounts.db);
}

/** Whether the account has used up its wrong proofs for now. */
function locked(accounts: Accounts, userId: number, now: number): boolean {
  failuresTable(accounts);
  const row = accounts.db
    .prepare("SELECT COUNT(*) AS n FROM owner_proof_failures WHERE user_id = ? AND mts > ?")
    .get(userId, now - OWNER_PROOF_WINDOW_MS) as { n: number };
  return row.n >= OWNER_PROOF_MAX_FAILURES;
}

function recordFailure(accounts: Accounts, userId: number, now: number): void {
  failuresTable(accounts);
  const db = accounts.db;
  db.transaction(() => {
    db.prepare("INSERT INTO owner_proof_failures (user_id, mts) VALUES (?, ?)").run(userId, now);
    db.prepare("DELETE FROM owner_proof_failures WHERE user_id = ? AND mts <= ?").run(
      userId,
      now - OWNER_PROOF_WINDOW_MS,
    );
  })();
}

/**
 * A one-time authenticator code given to let money leave (a withdrawal's second factor), counted
 * like the owner's proofs: `locked` (not even checked) once too many proofs were wrong, `wrong`
 * (counted) for anything but the current code, `ok` when it was the current code — now spent.
 */
export function takeCountedCode(
  accounts: Accounts,
  user: UserRow,
  code: unknown,
  now: number,
): "ok" | "wrong" | "locked" {
  if (locked(accounts, user.id, now)) return "locked";
  if (takeCurrentCode(accounts, user, code, now)) return "ok";
  recordFailure(accounts, user.id, now);
  return "wrong";
}

/** Counts a wrong code checked elsewhere (a texted one) among the owner's wrong proofs. */
export function countWrongCode(accounts: Accounts, userId: number, now: number): void {
  recordFailure(accounts, userId, now);
}

/** Whether an account has used up its wrong proofs for now (nothing more is checked until the window moves). */
export function proofLocked(accounts: Accounts, userId: number, now: number): boolean {
  return locked(accounts, userId, now);
}

/**
 * The password check of a security change, counted: null when `password` is the account's,
 * `password: invalid` (counted), or OWNER_PROOF_LOCKED once too many were wrong (not even checked).
 */
export function checkPassword(accounts: Accounts, user: UserRow, password: unknown, now: number): string | null {
  if (locked(accounts, user.id, now)) return OWNER_PROOF_LOCKED;
  if (passwordMatches(user, password)) return null;
  recordFailure(accounts, user.id, now);
  return "password: invalid";
}

/**
 * Null when the caller proved to own the account for a change that could lock them out or let money
 * leave: the password (`body.password`), and the current authenticator code (`body.currentToken`,
 * good once) when the account has one. Else the refusal's message; wrong ones count against
 * OWNER_PROOF_MAX_FAILURES.
 */
export function proveOwner(
  accounts: Accounts,
  user: UserRow,
  body: Record<string, unknown>,
  now: number,
): string | null {
  const password = checkPassword(accounts, user, body["password"], now);
  if (password !== null) return password;
  if (user.tfa_secret && !takeCurrentCode(accounts, user, body["currentToken"], now)) {
    recordFailure(accounts, user.id, now);
    return "otp: current code required";
  }
  return null;
}
