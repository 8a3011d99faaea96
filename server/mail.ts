/**
 * The exchange's one way to send mail: into the development outbox (`GET /dev/outbox`), the
 * stand-in for delivery on this machine. A mail to an account's address carries the account's
 * freeze link (docs/product-rules.md#account-freeze): whoever reads a security mail they did not
 * cause can stop the account at once, without signing in. While the account has an active OpenPGP
 * key (server/pgp.ts, docs/product-rules.md#account-security), the whole text — freeze link
 * included — is encrypted to it.
 *
 * Security mails must reach their owner: when the active key has expired by the time of sending,
 * or encrypting to it fails, the key is marked `removed` and the mail goes in the clear with a note
 * that the key stopped working (it would otherwise be lost without a trace, and with it the owner's
 * warning). A confirmation for a pending key that cannot be encrypted drops that key and says so,
 * without its code. A placeholder a restart left unfilled (its text lived only in memory: the
 * outbox never holds a mail's plaintext before its encryption) is finished with a notice on start
 * (`finishInterruptedMail`).
 */
import { randomBytes } from "node:crypto";
import { createMessage, encrypt, readKey } from "openpgp";
import { logError } from "./log.ts";
import type { Db } from "./store/db.ts";

/** The path the freeze link opens (src/pages/FreezePage.tsx). */
export const FREEZE_PATH = "/freeze";

/** The account's freeze code, made on first use; stable, so every mail's link works. */
export function freezeCode(db: Db, userId: number): string {
  const row = db.prepare("SELECT code FROM freeze_codes WHERE user_id = ?").get(userId) as { code: string } | undefined;
  if (row) return row.code;
  const code = randomBytes(16).toString("hex");
  db.prepare("INSERT INTO freeze_codes (code, user_id) VALUES (?, ?)").run(code, userId);
  return code;
}

/** The account a freeze code belongs to. */
export function freezeCodeOwner(db: Db, code: string): number | null {
  const row = db.prepare("SELECT user_id FROM freeze_codes WHERE code = ?").get(code) as
    { user_id: number } | undefined;
  return row?.user_id ?? null;
}

export interface MailOptions {
  /**
   * An armored public key to encrypt this mail to instead of the account's active one: a pending
   * key's confirmation goes to that key, so only its holder can read the code.
   */
  readonly encryptTo?: string;
}

/** Encryptions under way, per database (mailSettled waits for them). */
const encrypting = new WeakMap<Db, Set<Promise<void>>>();
/** The outbox rows whose encryption runs in this process, per database (not left by a restart). */
const filling = new WeakMap<Db, Set<number>>();

/** The note a mail sent in the clear carries when the account's key stopped working. */
export const KEY_STOPPED_NOTE =
  "Your PGP key stopped working (it expired or could not be used), so it was removed and this mail is " +
  "not encrypted. To have mail encrypted again, add a current key on the security page.";

interface ActiveKey {
  readonly id: number;
  readonly armored: string;
  readonly expires_at: number | null;
}

/** The key every mail to `userId` is encrypted to: the account's active key, if any. */
function activeKey(db: Db, userId: number): ActiveKey | null {
  const row = db
    .prepare("SELECT id, armored, expires_at FROM pgp_keys WHERE user_id = ? AND status = 'active'")
    .get(userId) as ActiveKey | undefined;
  return row ?? null;
}

function removeKey(db: Db, keyId: number, mts: number): void {
  db.prepare(
    "UPDATE pgp_keys SET status = 'removed', changed_at = ?, confirm_hash = NULL WHERE id = ? AND status != 'removed'",
  ).run(mts, keyId);
}

/**
 * Finishes the outbox rows a restart left as placeholders (`pending`, their text lost with the
 * process): each becomes a plain notice under its subject, so the owner still learns a mail was
 * meant for them. Called once the database is open, before any mail of this process is sent.
 */
export function finishInterruptedMail(db: Db): number {
  const ours = filling.get(db) ?? new Set<number>();
  const rows = db.prepare("SELECT id, subject FROM outbox WHERE pending = 1").all() as {
    id: number;
    subject: string;
  }[];
  let n = 0;
  const finish = db.prepare("UPDATE outbox SET body = ?, pending = 0, encrypted = 0 WHERE id = ? AND pending = 1");
  for (const r of rows) {
    if (ours.has(r.id)) continue;
    n += finish.run(
      `We meant to send you a mail ("${r.subject}"), but the exchange restarted while encrypting it and its ` +
        "text was not kept. Sign in to see your account's current state; if you expected a code or a link, ask " +
        "for it again.",
      r.id,
    ).changes;
  }
  return n;
}

/** `text` as an armored OpenPGP message encrypted to `armoredKey` (openpgp.js). */
export async function encryptText(armoredKey: string, text: string): Promise<string> {
  const encryptionKeys = await readKey({ armoredKey });
  const armored: unknown = await encrypt({ message: await createMessage({ text }), encryptionKeys, format: "armored" });
  if (typeof armored !== "string") throw new Error("mail: openpgp gave no armored message");
  return armored;
}

/**
 * Sends a mail; to an account's address, with its freeze link below the body. Synchronous for its
 * callers, which often send inside their own transaction: the outbox row is written at once, so it
 * commits or rolls back with theirs and mails keep their order. A mail to encrypt is written as a
 * placeholder (`pending`, never listed) and its body filled in once encrypted, so the plaintext
 * never reaches the outbox; `mailSettled` waits for that.
 */
export function sendMail(
  db: Db,
  to: string,
  subject: string,
  body: string,
  mts: number,
  options: MailOptions = {},
): void {
  const user = db.prepare("SELECT id FROM users WHERE email = ?").get(to.toLowerCase()) as { id: number } | undefined;
  const text = user
    ? `${body}\n\nNot you? Freeze your account at once: ${FREEZE_PATH}?code=${freezeCode(db, user.id)}`
    : body;
  const plain = (t: string) =>
    db.prepare("INSERT INTO outbox (recipient, subject, body, mts) VALUES (?, ?, ?, ?)").run(to, subject, t, mts);
  const active = options.encryptTo === undefined && user ? activeKey(db, user.id) : null;
  // A key that expired since it was confirmed can no longer be encrypted to: openpgp refuses it.
  if (active && active.expires_at !== null && active.expires_at <= mts) {
    removeKey(db, active.id, mts);
    plain(`${KEY_STOPPED_NOTE}\n\n${text}`);
    return;
  }
  const key = options.encryptTo ?? active?.armored ?? null;
  if (key === null) {
    plain(text);
    return;
  }
  // A rolled-back placeholder's id can be given again (AUTOINCREMENT rolls back too): the fill
  // below matches this placeholder's own random body, never another mail's row.
  const placeholder = `pending:${randomBytes(16).toString("hex")}`;
  const id = db
    .prepare("INSERT INTO outbox (recipient, subject, body, mts, pending, encrypted) VALUES (?, ?, ?, ?, 1, 1)")
    .run(to, subject, placeholder, mts).lastInsertRowid;
  const rowId = Number(id);
  const rows = filling.get(db) ?? new Set<number>();
  filling.set(db, rows);
  rows.add(rowId);
  const job = encryptText(key, text).then(
    (armored) => {
      db.prepare("UPDATE outbox SET body = ?, pending = 0 WHERE id = ? AND body = ?").run(armored, rowId, placeholder);
    },
    (e: unknown) => {
      logError("mail: encrypt", e);
      const fill = db.prepare("UPDATE outbox SET body = ?, pending = 0, encrypted = 0 WHERE id = ? AND body = ?");
      db.transaction(() => {
        if (options.encryptTo !== undefined) {
          // A pending key's confirmation: its code must not go in the clear (reading it proves
          // holding the key). The key is dropped and the owner told to paste one again.
          if (user)
            db.prepare(
              "UPDATE pgp_keys SET status = 'removed', changed_at = ?, confirm_hash = NULL WHERE user_id = ? AND armored = ? AND status = 'pending'",
            ).run(mts, user.id, options.encryptTo);
          fill.run(
            "We could not encrypt to the PGP key you added, so it was not added and no code was sent. Add the key " +
              "again, or another one, on the security page.",
            rowId,
            placeholder,
          );
          return;
        }
        // The account's active key failed: the mail goes in the clear (a security mail must reach
        // its owner), and the key that failed is removed so later mail does not fail too.
        if (active) removeKey(db, active.id, mts);
        fill.run(`${KEY_STOPPED_NOTE}\n\n${text}`, rowId, placeholder);
      })();
    },
  );
  const jobs = encrypting.get(db) ?? new Set<Promise<void>>();
  encrypting.set(db, jobs);
  const tracked = job
    .catch((e: unknown) => logError("mail: outbox", e))
    .finally(() => {
      jobs.delete(tracked);
      rows.delete(rowId);
    });
  jobs.add(tracked);
}

/** Resolves once every mail sent so far on `db` is in the outbox (encrypted ones included). */
export async function mailSettled(db: Db): Promise<void> {
  const jobs = encrypting.get(db);
  while (jobs && jobs.size > 0) await Promise.all([...jobs]);
}
