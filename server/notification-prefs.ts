/**
 * The e-mail preferences the exchange honours (docs/product-rules.md#notifications-page): the
 * movement mails a person may turn off on the notifications page, stored with the other user
 * settings (`users.settings`, written by `w/settings/set`). Security mails (sign-ins, password,
 * two-factor, API keys, freeze) never ask: they always go out.
 */
import { MAIL_PREF_KEY, prefOn, type MailKind } from "../src/protocol/index.ts";
import type { Db } from "./store/db.ts";

/**
 * Whether the account wants the mail of `kind` (on unless turned off). The deposit and withdrawal
 * code calls this before it sends one of those mails; an unknown account wants nothing.
 */
export function wantsMail(db: Db, userId: number, kind: MailKind): boolean {
  const row = db.prepare("SELECT settings FROM users WHERE id = ?").get(userId) as { settings: string } | undefined;
  if (!row) return false;
  let stored: unknown;
  try {
    stored = JSON.parse(row.settings);
  } catch {
    // A settings text that does not parse holds no choice: the default (on) applies.
    return true;
  }
  if (typeof stored !== "object" || stored === null || Array.isArray(stored)) return true;
  return prefOn(stored as Record<string, unknown>, MAIL_PREF_KEY[kind]);
}
