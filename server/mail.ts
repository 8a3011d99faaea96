/**
 * The exchange's one way to send mail: into the development outbox (`GET /dev/outbox`), the
 * stand-in for delivery on this machine. A mail to an account's address carries the account's
 * freeze link (docs/product-rules.md#account-freeze): whoever reads a security mail they did not
 * cause can stop the account at once, without signing in.
 */
import { randomBytes } from "node:crypto";
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

/** Sends a mail; to an account's address, with its freeze link below the body. */
export function sendMail(db: Db, to: string, subject: string, body: string, mts: number): void {
  const user = db.prepare("SELECT id FROM users WHERE email = ?").get(to.toLowerCase()) as { id: number } | undefined;
  const text = user
    ? `${body}\n\nNot you? Freeze your account at once: ${FREEZE_PATH}?code=${freezeCode(db, user.id)}`
    : body;
  db.prepare("INSERT INTO outbox (recipient, subject, body, mts) VALUES (?, ?, ?, ?)").run(to, subject, text, mts);
}
