/**
 * The account's OpenPGP public key (docs/product-rules.md#account-security). The owner pastes an
 * armored public key; openpgp.js reads it — a private key, a key that is revoked or expired, one
 * without a usable encryption key, or anything that is not a key is refused and nothing is
 * written. A key read is stored `pending`, and a confirmation code is mailed encrypted to that key
 * (server/mail.ts `encryptTo`), so only the holder of its private key, reading the account's
 * mail, can confirm it; the code (typed, or the mail's link) makes it `active`, and from then on
 * every mail to the account is encrypted to it. A new key stays pending beside the active one until
 * confirmed, then replaces it; removing (the password) makes every key of the account `removed`.
 * Guessing is bounded per account, not only per key: PGP_MAX_FAILURES wrong codes in
 * PGP_FAILURE_WINDOW_MS and every code is refused, and PGP_MAX_KEYS_PER_HOUR pastes an hour.
 * Every change commits with its mail.
 */
import { createHash, randomInt } from "node:crypto";
import { readKey, type PublicKey } from "openpgp";
import {
  ERROR_CODES,
  PGP_CONFIRM_PARAM,
  PGP_CONFIRM_TTL_MS,
  PGP_FAILURE_WINDOW_MS,
  PGP_KEY_MAX_CHARS,
  PGP_MAX_FAILURES,
  PGP_MAX_KEYS_PER_HOUR,
  PGP_MAX_TRIES,
  pgpKeyCodec,
  type PgpKeyStatus,
} from "../src/protocol/index.ts";
import { finishInterruptedMail, type MailOptions } from "./mail.ts";
import { checkPassword } from "./owner-proof.ts";
import { fail, ok, type Reply } from "./reply.ts";
import type { Client } from "./security.ts";
import { safeEqual, type Accounts } from "./store/accounts.ts";

type Mailer = (to: string, subject: string, body: string, options?: MailOptions) => void;

const err = (msg: string): Reply => fail(ERROR_CODES.PARAMS, msg, 400);

/** The paths answered here (authenticated host, a session's own token); see `handle`. */
export const PGP_PATHS: ReadonlySet<string> = new Set([
  "/v2/auth/r/int/pgp",
  "/v2/auth/w/int/pgp/update",
  "/v2/auth/w/int/pgp/confirm",
  "/v2/auth/w/int/pgp/remove",
]);

/** A key as read from its armored text, ready to store. */
export interface ReadKey {
  readonly armored: string;
  readonly fingerprint: string;
  readonly userIds: string[];
  readonly algorithm: string;
  readonly created: number;
  readonly expires: number | null;
}

/**
 * Reads an armored OpenPGP public key: the key, or why it is refused (`key: …`, the message the
 * page turns into words). Only what openpgp.js verifies counts: the primary key's self-signatures
 * (not revoked, not expired at `now`) and an encryption key among its subkeys (or itself).
 */
export async function readPublicKey(armored: unknown, now: number): Promise<ReadKey | string> {
  if (typeof armored !== "string" || armored.trim() === "") return "key: missing";
  if (armored.length > PGP_KEY_MAX_CHARS) return "key: too large";
  if (/-----BEGIN PGP PRIVATE KEY BLOCK-----/.test(armored)) return "key: private key, paste the public key";
  let key: PublicKey;
  try {
    const read = await readKey({ armoredKey: armored.trim() });
    if (read.isPrivate()) return "key: private key, paste the public key";
    key = read;
  } catch {
    return "key: not an OpenPGP public key";
  }
  const at = new Date(now);
  if (await key.isRevoked(undefined, undefined, at)) return "key: revoked";
  const expiry = await key.getExpirationTime();
  if (expiry instanceof Date && expiry.getTime() <= now) return "key: expired";
  try {
    await key.verifyPrimaryKey(at);
  } catch {
    return "key: not valid";
  }
  try {
    await key.getEncryptionKey(undefined, at);
  } catch {
    return "key: no encryption key";
  }
  return {
    armored: key.armor(),
    fingerprint: key.getFingerprint().toUpperCase(),
    userIds: key.getUserIDs(),
    algorithm: algorithmName(key),
    created: key.getCreationTime().getTime(),
    expires: expiry instanceof Date ? expiry.getTime() : null,
  };
}

/** The key's algorithm as key tools name it (`RSA 4096`, `Ed25519`), from openpgp.js's own names. */
function algorithmName(key: PublicKey): string {
  const info = key.getAlgorithmInfo();
  const curve = "curve" in info && typeof info.curve === "string" ? info.curve.replace(/Legacy$/, "") : null;
  if (info.algorithm.startsWith("rsa")) return "bits" in info && info.bits ? `RSA ${info.bits}` : "RSA";
  if (info.algorithm === "eddsaLegacy" || info.algorithm === "ed25519") return "Ed25519";
  if (info.algorithm === "ed448") return "Ed448";
  if (info.algorithm === "ecdsa") return curve ? `ECDSA ${curve}` : "ECDSA";
  return info.algorithm.toUpperCase();
}

interface KeyRow {
  readonly id: number;
  readonly fingerprint: string;
  readonly armored: string;
  readonly user_ids: string;
  readonly algorithm: string;
  readonly key_created: number;
  readonly expires_at: number | null;
  readonly status: PgpKeyStatus;
  readonly confirm_hash: string | null;
  readonly confirm_expires: number | null;
  readonly tries: number;
}

const hashCode = (keyId: number, code: string): string =>
  createHash("sha256").update(`pgp:${keyId}:${code}`).digest("hex");

/** `ABCD EF01 …`: a fingerprint in groups of four, as key tools print it. */
const spaced = (fingerprint: string): string => fingerprint.replace(/(.{4})(?=.)/g, "$1 ");

export class PgpKeys {
  constructor(
    readonly accounts: Accounts,
    readonly now: () => number,
    readonly mail: Mailer,
  ) {
    // Wrong confirmation codes, account-wide (as sms_failures): kept here, the one module reading them.
    accounts.db.exec(`CREATE TABLE IF NOT EXISTS pgp_failures (
  user_id INTEGER NOT NULL REFERENCES users(id),
  mts INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS pgp_failures_user ON pgp_failures(user_id, mts);`);
    // Made once per database as the exchange starts, before it sends anything: mails a restart
    // left half-encrypted are finished now (mail.ts), not left pending and never listed.
    finishInterruptedMail(accounts.db);
  }

  #recentFailures(userId: number): number {
    const row = this.#db()
      .prepare("SELECT COUNT(*) AS n FROM pgp_failures WHERE user_id = ? AND mts > ?")
      .get(userId, this.now() - PGP_FAILURE_WINDOW_MS) as { n: number };
    return row.n;
  }

  #db() {
    return this.accounts.db;
  }

  /** The account's keys that are not removed, newest first. */
  keysOf(userId: number): KeyRow[] {
    return this.#db()
      .prepare("SELECT * FROM pgp_keys WHERE user_id = ? AND status != 'removed' ORDER BY id DESC")
      .all(userId) as KeyRow[];
  }

  /**
   * The key calls of the security page for `userId` (`caps` null: a session's own token; anything
   * else is refused). A refusal is a bad parameter (10020), never 10100, which would end the
   * caller's session (docs/product-rules.md#errors).
   */
  async handle(
    userId: number,
    token: string | null,
    caps: readonly string[] | null,
    path: string,
    body: Record<string, unknown>,
    _client: Client,
  ): Promise<Reply> {
    if (caps !== null || token === null) return fail(ERROR_CODES.AUTH_FAILED, "security: a session token is required");
    const user = this.accounts.byId(userId);
    if (!user) return fail(ERROR_CODES.AUTH_FAILED, "token: invalid");
    const db = this.#db();
    switch (path) {
      case "/v2/auth/r/int/pgp":
        return ok(
          this.keysOf(userId).map((k) =>
            pgpKeyCodec.encode({
              fingerprint: k.fingerprint,
              status: k.status,
              userIds: JSON.parse(k.user_ids) as string[],
              created: k.key_created,
              expires: k.expires_at,
              algorithm: k.algorithm,
            }),
          ),
        );
      case "/v2/auth/w/int/pgp/update": {
        // Every paste (removed ones too) counts: each mails a new code with new tries.
        const pasted = db
          .prepare("SELECT COUNT(*) AS n FROM pgp_keys WHERE user_id = ? AND created_at > ?")
          .get(userId, this.now() - 60 * 60_000) as { n: number };
        if (pasted.n >= PGP_MAX_KEYS_PER_HOUR) return err("key: too many keys, try again later");
        const read = await readPublicKey(body["key"], this.now());
        if (typeof read === "string") return err(read);
        const code = String(randomInt(0, 1e6)).padStart(6, "0");
        const now = this.now();
        db.transaction(() => {
          // One pending key at a time: a new paste replaces the last one not yet confirmed.
          db.prepare(
            "UPDATE pgp_keys SET status = 'removed', changed_at = ?, confirm_hash = NULL WHERE user_id = ? AND status = 'pending'",
          ).run(now, userId);
          const id = Number(
            db
              .prepare(
                `INSERT INTO pgp_keys (user_id, fingerprint, armored, user_ids, algorithm, key_created, expires_at, status,
                   created_at, changed_at, confirm_expires, confirm_hash)
                 VALUES (?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?, ?, '')`,
              )
              .run(
                userId,
                read.fingerprint,
                read.armored,
                JSON.stringify(read.userIds),
                read.algorithm,
                read.created,
                read.expires,
                now,
                now,
                now + PGP_CONFIRM_TTL_MS,
              ).lastInsertRowid,
          );
          db.prepare("UPDATE pgp_keys SET confirm_hash = ? WHERE id = ?").run(hashCode(id, code), id);
          // Encrypted to the new key, not to the active one: reading it proves holding this key.
          this.mail(
            user.email,
            "Confirm your PGP key",
            `Your confirmation code for the PGP key ${spaced(read.fingerprint)} is ${code}. Enter it on the security page, or open ${"/security"}?${PGP_CONFIRM_PARAM}=${code} to confirm it. From then on every mail we send you is encrypted to this key.`,
            { encryptTo: read.armored },
          );
        })();
        return ok([read.fingerprint]);
      }
      case "/v2/auth/w/int/pgp/confirm": {
        if (this.#recentFailures(userId) >= PGP_MAX_FAILURES) return err("key: too many attempts, try again later");
        const pending = db
          .prepare("SELECT * FROM pgp_keys WHERE user_id = ? AND status = 'pending' ORDER BY id DESC LIMIT 1")
          .get(userId) as KeyRow | undefined;
        if (!pending || pending.confirm_hash === null || (pending.confirm_expires ?? 0) <= this.now())
          return err("key: nothing to confirm");
        const code = typeof body["code"] === "string" ? body["code"].replace(/\s+/g, "") : "";
        if (!/^\d{6}$/.test(code) || !safeEqual(hashCode(pending.id, code), pending.confirm_hash)) {
          const now = this.now();
          db.transaction(() => {
            db.prepare("INSERT INTO pgp_failures (user_id, mts) VALUES (?, ?)").run(userId, now);
            db.prepare("DELETE FROM pgp_failures WHERE user_id = ? AND mts <= ?").run(
              userId,
              now - PGP_FAILURE_WINDOW_MS,
            );
            // A few tries, then the key must be pasted again (a new code is mailed then).
            if (pending.tries + 1 >= PGP_MAX_TRIES)
              db.prepare(
                "UPDATE pgp_keys SET status = 'removed', changed_at = ?, confirm_hash = NULL WHERE id = ?",
              ).run(now, pending.id);
            else db.prepare("UPDATE pgp_keys SET tries = tries + 1 WHERE id = ?").run(pending.id);
          })();
          return err("key: code invalid");
        }
        const now = this.now();
        const done = db.transaction(() => {
          const moved = db
            .prepare(
              "UPDATE pgp_keys SET status = 'active', changed_at = ?, confirm_hash = NULL WHERE id = ? AND status = 'pending'",
            )
            .run(now, pending.id).changes;
          if (moved !== 1) return false;
          db.prepare(
            "UPDATE pgp_keys SET status = 'removed', changed_at = ? WHERE user_id = ? AND status = 'active' AND id != ?",
          ).run(now, userId, pending.id);
          // In the transaction: the key and its notice commit together. Encrypted to the key just
          // made active, as every mail from now on.
          this.mail(
            user.email,
            "Your PGP key is active",
            `Every mail we send you is now encrypted to the PGP key ${spaced(pending.fingerprint)}. If this was not you, contact support at once.`,
          );
          return true;
        })();
        if (!done) return err("key: nothing to confirm");
        return ok([pending.fingerprint]);
      }
      case "/v2/auth/w/int/pgp/remove": {
        const keys = this.keysOf(userId);
        if (keys.length === 0) return err("key: none");
        const refused = checkPassword(this.accounts, user, body["password"], this.now());
        if (refused !== null) return err(refused);
        db.transaction(() => {
          db.prepare(
            "UPDATE pgp_keys SET status = 'removed', changed_at = ?, confirm_hash = NULL WHERE user_id = ? AND status != 'removed'",
          ).run(this.now(), userId);
          // No key is active any more: this mail, and every one after it, is sent in the clear.
          this.mail(
            user.email,
            "Your PGP key was removed",
            `Mail we send you is no longer encrypted (the key ${spaced(keys[0]?.fingerprint ?? "")} was removed). If this was not you, contact support at once.`,
          );
        })();
        return ok([keys.length]);
      }
      default:
        return fail(ERROR_CODES.PARAMS, "not found", 404);
    }
  }
}
