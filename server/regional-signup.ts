/**
 * Applications to a regional venue (docs/product-rules.md#regional-sign-up): `POST
 * /v2/int/signup/regional` checks an application by src/protocol's rules, then stores it for the
 * venue's review and mails its receipt, in one SQLite transaction — an application is never stored
 * without its receipt, nor a receipt sent for nothing. The answer is `[REFERENCE]`, the number the
 * applicant quotes. The captcha and the per-address count are the sign-up's (signup.ts calls this
 * once they pass), so applying is no way around them.
 *
 * The answer never says whether an application of the same person is already under review: that
 * would let anyone holding an address or an ID number learn who applied. A repeat (same venue and
 * address, or same ID number) is stored as `duplicate` for the reviewers, answered with its own
 * reference and receipt like any application, and the receipt — read only by the mailbox's owner —
 * says an earlier one is under review; a repeat of an ID number under another address also tells
 * the earlier application's address.
 */
import { randomBytes } from "node:crypto";
import {
  APPLICATION_REVIEW_DAYS,
  decodeRegionalApplication,
  ERROR_CODES,
  REGIONAL_VENUES,
  type ApplicationField,
  type ApplicationReason,
  type RegionalApplication,
} from "../src/protocol/index.ts";
import { confValues } from "./exchange/public-conf.ts";
import type { Exchange } from "./exchange/exchange.ts";
import { sendMail } from "./mail.ts";
import { fail, ok, type Reply } from "./reply.ts";
import type { Db } from "./store/db.ts";

const SCHEMA = `
CREATE TABLE IF NOT EXISTS regional_applications (
  id INTEGER PRIMARY KEY,
  reference TEXT NOT NULL UNIQUE,
  region TEXT NOT NULL,
  email TEXT NOT NULL,
  first_name TEXT NOT NULL,
  last_name TEXT NOT NULL,
  birth_date TEXT NOT NULL,
  national_id TEXT NOT NULL,
  street TEXT NOT NULL,
  city TEXT NOT NULL,
  postal_code TEXT NOT NULL,
  terms_version TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'received',
  created_at INTEGER NOT NULL
);
-- One application under review per person and venue, by address and by ID number (a repeat is
-- stored as 'duplicate', outside these indexes).
CREATE UNIQUE INDEX IF NOT EXISTS regional_applications_email
  ON regional_applications(region, email) WHERE status = 'received';
CREATE UNIQUE INDEX IF NOT EXISTS regional_applications_id
  ON regional_applications(region, national_id) WHERE status = 'received';
`;

/** Reference characters: no 0/O or 1/I, so a reference read out over the phone is not misheard. */
const REFERENCE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

const refuse = (field: ApplicationField, reason: ApplicationReason): Reply =>
  fail(ERROR_CODES.PARAMS, `${field}: ${reason}`, 400);

export class RegionalApplications {
  constructor(
    readonly db: Db,
    readonly exchange: Exchange,
    readonly now: () => number,
  ) {
    db.exec(SCHEMA);
  }

  /** Checks a body by every rule that needs no captcha: the decoded application, or the refusal to answer. */
  check(
    body: Readonly<Record<string, unknown>>,
  ): { ok: true; value: RegionalApplication } | { ok: false; reply: Reply } {
    const decoded = decodeRegionalApplication(body, this.now());
    if (!decoded.ok) return { ok: false, reply: refuse(decoded.field, decoded.reason) };
    const venue = REGIONAL_VENUES[decoded.value.region];
    const [terms] = confValues(this.exchange, [`pub:legal:terms:${venue.termsId}`], this.now());
    const version = typeof terms === "object" && terms !== null ? (terms as Record<string, unknown>)["version"] : null;
    if (decoded.value.termsVersion !== version) return { ok: false, reply: refuse("terms", "outdated") };
    return { ok: true, value: decoded.value };
  }

  /**
   * Stores a checked application with its receipt mail: `[REFERENCE]`, the same answer whether or
   * not one of the same person is already under review (see the module's note).
   */
  submit(a: RegionalApplication): Reply {
    const db = this.db;
    return db.transaction((): Reply => {
      const earlier = (column: "email" | "national_id", value: string) =>
        db
          .prepare(
            `SELECT reference, email FROM regional_applications WHERE region = ? AND ${column} = ? AND status = 'received'`,
          )
          .get(a.region, value) as { reference: string; email: string } | undefined;
      const sameAddress = earlier("email", a.email);
      const sameId = sameAddress ? undefined : earlier("national_id", a.nationalId);
      const duplicate = sameAddress !== undefined || sameId !== undefined;
      const now = this.now();
      const reference = `${a.region.toUpperCase()}-${[...randomBytes(8)].map((b) => REFERENCE_ALPHABET[b % 32]).join("")}`;
      db.prepare(
        `INSERT INTO regional_applications
          (reference, region, email, first_name, last_name, birth_date, national_id, street, city, postal_code, terms_version, status, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        reference,
        a.region,
        a.email,
        a.firstName,
        a.lastName,
        a.birthDate,
        a.nationalId,
        a.street,
        a.city,
        a.postalCode,
        a.termsVersion,
        duplicate ? "duplicate" : "received",
        now,
      );
      const venue = REGIONAL_VENUES[a.region];
      const repeat = sameAddress
        ? `An application with this e-mail address (reference ${sameAddress.reference}) is already under review: ` +
          "our team reviews them together, there is no need to apply again.\n\n"
        : "";
      // The ID number is not repeated in a mail: mail is read on many devices and kept for years.
      sendMail(
        db,
        a.email,
        `We received your application to ${venue.entity}`,
        `Dear ${a.firstName} ${a.lastName},\n\nthank you for applying for an account with ${venue.entity}. ` +
          `Your reference is ${reference}; quote it if you write to us.\n\n${repeat}` +
          `What happens next: our team checks your details and your ${venue.idName}, usually within ` +
          `${APPLICATION_REVIEW_DAYS} business days. We may ask by e-mail for a photo of your ID or a proof of ` +
          "address. Once your account is approved, we send you a link to choose your password and sign in.\n\n" +
          "If you did not apply, ignore this mail: nothing opens without the review.",
        now,
      );
      // The ID number's earlier applicant learns of the repeat; the new address is not told of them.
      if (sameId)
        sendMail(
          db,
          sameId.email,
          `Another application to ${venue.entity} with your ID number`,
          `Someone applied for an account with ${venue.entity} with the ${venue.idName} of your application ` +
            `${sameId.reference}, which is still under review. Nothing opens without our review. If this was not ` +
            `you, write to us quoting ${sameId.reference}.`,
          now,
        );
      return ok([reference]);
    })();
  }
}
