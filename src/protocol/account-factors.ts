/**
 * SMS as a second factor and the account's OpenPGP public key (docs/product-rules.md#account-security),
 * one copy for the security page and the exchange: their limits, and the records of
 * `/v2/auth/r/int/2fa/sms`, `/v2/auth/w/int/2fa/sms/send`, `/v2/login/sms` and `/v2/auth/r/int/pgp`,
 * built and read here on both sides. Nothing here is user text: a refusal's message names a field
 * and a reason that the UI maps to a localized sentence.
 */
import { decodeList, recordCodec, type Decoded, type DecodeResult, type FieldSpec } from "./positional";

/** An SMS code is six digits, like an authenticator's. */
export const SMS_CODE_DIGITS = 6;
/** How long a texted code is good for. */
export const SMS_CODE_TTL_MS = 5 * 60_000;
/** The wait between two texts of the same purpose to one account (the page counts it down). */
export const SMS_RESEND_MS = 60_000;
/** Texts one account may be sent in an hour, every purpose together. */
export const SMS_MAX_PER_HOUR = 5;
/** Wrong tries one texted code takes before it is dropped (a new one must be asked for). */
export const SMS_MAX_TRIES = 5;
/** Wrong SMS codes an account takes within SMS_FAILURE_WINDOW_MS before every code is refused. */
export const SMS_MAX_FAILURES = 10;
export const SMS_FAILURE_WINDOW_MS = 10 * 60_000;

/** What a texted code is for: turning SMS on, turning it off, signing in, or confirming a withdrawal. */
export type SmsPurpose = "enable" | "disable" | "signin" | "withdraw";

/** A PGP key's status: `pending` until its mailed code confirms it, then `active`; `removed` after. */
export type PgpKeyStatus = "pending" | "active" | "removed";
export const PGP_KEY_STATUSES: readonly PgpKeyStatus[] = ["pending", "active", "removed"];
/** Wrong confirmation codes a pending key takes before it is dropped (paste it again). */
export const PGP_MAX_TRIES = 5;
/**
 * Wrong PGP confirmation codes an account takes within PGP_FAILURE_WINDOW_MS, whatever key they
 * were for, before every code is refused: pasting the key again gives a new code and 5 new tries,
 * so a per-key count alone would let a guesser walk the million codes.
 */
export const PGP_MAX_FAILURES = 10;
export const PGP_FAILURE_WINDOW_MS = 60 * 60_000;
/** Keys an account may paste in an hour (each paste mails a code). */
export const PGP_MAX_KEYS_PER_HOUR = 5;
/** How long a pending key's mailed code is good for. */
export const PGP_CONFIRM_TTL_MS = 24 * 60 * 60_000;
/** The largest armored key the exchange reads (a public key with a few subkeys is a few KiB). */
export const PGP_KEY_MAX_CHARS = 32_768;
/** The query parameter of the confirmation link the mail carries (`/security?pgp=CODE`). */
export const PGP_CONFIRM_PARAM = "pgp";

/**
 * A phone number shown without giving it away: the country code and the last four digits
 * (`+44 ••• 3456`). `e164` is `+` and digits.
 */
export function maskPhone(e164: string, countryCode: string): string {
  const national = e164.slice(1 + countryCode.length);
  return `+${countryCode} ••• ${national.slice(-4)}`;
}

/**
 * The account's SMS factor, `r/int/2fa/sms`: [PHONE, ENABLED, PENDING_PHONE, MTS_EXPIRES,
 * MTS_RESEND]. PHONE the masked number SMS is on for (null when off); PENDING_PHONE the masked
 * number a code was texted to for turning it on, with when that code expires (null when none).
 * MTS_RESEND: when the next text may be asked for (0: now). EMAIL_CODE: turning SMS on also needs
 * the code mailed with the text, because the account's only second factor is a hardware key (a
 * text is weaker: without the mailbox, a session and the password must not add it).
 */
const SMS_STATE = {
  phone: [0, "str?"],
  enabled: [1, "bool"],
  pendingPhone: [2, "str?"],
  expires: [3, "num?"],
  resendAt: [4, "num"],
  emailCode: [5, "bool"],
} as const satisfies FieldSpec;
export type SmsState = Decoded<typeof SMS_STATE>;
export const smsStateCodec = recordCodec("sms state", SMS_STATE, 6);

/**
 * A text sent (`w/int/2fa/sms/send`, `w/int/2fa/sms/disable/send`, `/v2/login/sms`):
 * [PHONE, MTS_EXPIRES, MTS_RESEND] — the masked number, when the code expires, when another may
 * be asked for.
 */
const SMS_SENT = {
  phone: [0, "str"],
  expires: [1, "num"],
  resendAt: [2, "num"],
} as const satisfies FieldSpec;
export type SmsSent = Decoded<typeof SMS_SENT>;
export const smsSentCodec = recordCodec("sms sent", SMS_SENT, 3);

/**
 * A public key of the account, `r/int/pgp` (a list: the active key and a pending one, newest
 * first): [FINGERPRINT, STATUS, USER_IDS, MTS_CREATE, MTS_EXPIRES, ALGORITHM]. USER_IDS a list of
 * the key's user ids (`Name <mail>`); MTS_EXPIRES null when the key does not expire.
 */
const PGP_KEY = {
  fingerprint: [0, "str"],
  status: [1, "str"],
  userIds: [2, "any"],
  created: [3, "num"],
  expires: [4, "num?"],
  algorithm: [5, "str"],
} as const satisfies FieldSpec;
type PgpKeyWire = Decoded<typeof PGP_KEY>;
export interface PgpKeyInfo extends Omit<PgpKeyWire, "status" | "userIds"> {
  status: PgpKeyStatus;
  userIds: string[];
}
const pgpWire = recordCodec("pgp key", PGP_KEY, 6);
export const pgpKeyCodec = {
  encode(value: PgpKeyInfo): unknown[] {
    return pgpWire.encode(value);
  },
  decode(raw: unknown): DecodeResult<PgpKeyInfo> {
    const d = pgpWire.decode(raw);
    if (!d.ok) return d;
    const status = PGP_KEY_STATUSES.find((s) => s === d.value.status);
    if (status === undefined)
      return { ok: false, error: { record: "pgp key", field: "status", index: 1, reason: "wrong-type" } };
    const ids = Array.isArray(d.value.userIds) ? d.value.userIds.filter((u): u is string => typeof u === "string") : [];
    return { ok: true, value: { ...d.value, status, userIds: ids } };
  },
  decodeList(raw: unknown): DecodeResult<PgpKeyInfo[]> {
    return decodeList(raw, (r) => pgpKeyCodec.decode(r), "pgp key");
  },
};
