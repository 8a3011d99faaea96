/**
 * The account page's compliance calls (docs/product-rules.md#verification-levels, #compliance-gates
 * and #account-freeze):
 * - `/v2/auth/w/int/compliance` — `{action: "fetchPublicKycData"}` answers the account's last KYC
 *   submission (names and country, never the address) and its review state; `{action:
 *   "submitKyc", kind, level, data}` files one (rules: `src/protocol/compliance.ts`), pending until
 *   a reviewer decides. The decision is `POST /dev/kyc {login, decision, reason}` on this machine.
 * - `/v1/account_us_resident` — `{us_resident: boolean}` records the answer to the US-person
 *   question, `{}` reads it. A US resident may not deposit or trade on margin
 *   (exchange/verification.ts) nor file KYC.
 * - freezing: `/v2/int/account/freeze {code}` (the link every mail to the account carries,
 *   mail.ts; no sign-in needed) and `/v2/auth/w/int/account/freeze` (the owner's own button) stop
 *   the account at once (Accounts.freeze); `POST /dev/unfreeze {login}` is support lifting it.
 * Every write is one SQLite statement or transaction: a failed call leaves nothing behind.
 */
import {
  decodeKycSubmission,
  decodeUsResident,
  encodeFrozen,
  encodeKycRecord,
  encodeUsResident,
  ERROR_CODES,
  freezeCodeValid,
  kycProblems,
  type KycRecord,
  type KycStatus,
} from "../src/protocol/index.ts";
import { freezeCodeOwner, sendMail } from "./mail.ts";
import { fail, ok, type Reply } from "./reply.ts";
import type { Accounts } from "./store/accounts.ts";
import type { Db } from "./store/db.ts";

const bad = (msg: string): Reply => fail(ERROR_CODES.PARAMS, msg, 400);

interface KycRow {
  kind: string;
  level: number;
  data: string;
  status: KycStatus;
  submitted_at: number;
  decided_at: number | null;
  reason: string | null;
}

/** The level an account has asked for and not yet been given (`r/info/user`'s `verificationLevelSubmitted`). */
export function pendingLevel(db: Db, userId: number): number | null {
  const row = db.prepare("SELECT level FROM kyc_submissions WHERE user_id = ? AND status = 'pending'").get(userId) as
    { level: number } | undefined;
  return row?.level ?? null;
}

export class Compliance {
  constructor(
    readonly accounts: Accounts,
    readonly now: () => number,
  ) {}

  get #db(): Db {
    return this.accounts.db;
  }

  record(userId: number): KycRecord {
    const row = this.#db.prepare("SELECT * FROM kyc_submissions WHERE user_id = ?").get(userId) as KycRow | undefined;
    const us = (
      this.#db.prepare("SELECT us_resident FROM users WHERE id = ?").get(userId) as
        { us_resident: number | null } | undefined
    )?.us_resident;
    const usResident = us === null || us === undefined ? null : us === 1;
    if (!row)
      return {
        status: "none",
        kind: null,
        level: null,
        submittedAt: null,
        decidedAt: null,
        reason: null,
        firstName: null,
        lastName: null,
        corporateName: null,
        country: null,
        usResident,
      };
    const data = JSON.parse(row.data) as Record<string, unknown>;
    const text = (k: string): string | null => (typeof data[k] === "string" && data[k] !== "" ? data[k] : null);
    return {
      status: row.status,
      kind: row.kind === "corporate" ? "corporate" : "individual",
      level: row.level,
      submittedAt: row.submitted_at,
      decidedAt: row.decided_at,
      reason: row.reason,
      firstName: text("first_name"),
      lastName: text("last_name"),
      corporateName: text("full_corporate_name"),
      country: text("resid_country"),
      usResident,
    };
  }

  /** A signed-in caller's compliance call; null when the path is not one. */
  handleAuthed(userId: number, path: string, body: Record<string, unknown>): Reply | null {
    if (path === "/v1/account_us_resident") {
      if (!Object.hasOwn(body, "us_resident")) return ok(encodeUsResident(this.record(userId).usResident));
      const answer = decodeUsResident(body);
      if (answer === null) return bad("us_resident: must be true or false");
      this.#db.prepare("UPDATE users SET us_resident = ? WHERE id = ?").run(answer ? 1 : 0, userId);
      return ok(encodeUsResident(answer));
    }
    if (path === "/v2/auth/w/int/account/freeze") {
      this.accounts.freeze(userId, this.now());
      return ok(encodeFrozen());
    }
    if (path !== "/v2/auth/w/int/compliance") return null;
    const action = body["action"];
    if (action === "fetchPublicKycData") return ok(encodeKycRecord(this.record(userId)));
    if (action !== "submitKyc") return bad("action: invalid");
    const s = decodeKycSubmission(body);
    const problems = kycProblems(s);
    const first = Object.entries(problems)[0];
    if (first) return bad(`${first[0]}: ${first[1]}`);
    const current = this.record(userId);
    if (current.usResident === true) return bad("compliance: not available to US residents");
    if (current.usResident === null) return bad("us_resident: answer the US-person question first");
    const user = this.accounts.byId(userId);
    if (!user) return fail(ERROR_CODES.AUTH_FAILED, "token: invalid");
    if (s.level <= user.verification_level)
      return bad(`level: this account already has level ${user.verification_level}`);
    if (current.status === "pending") return bad("kyc: a submission is already under review");
    const now = this.now();
    this.#db.transaction(() => {
      this.#db
        .prepare(
          `INSERT INTO kyc_submissions (user_id, kind, level, data, status, submitted_at, decided_at, reason)
           VALUES (?, ?, ?, ?, 'pending', ?, NULL, NULL)
           ON CONFLICT(user_id) DO UPDATE SET kind = excluded.kind, level = excluded.level, data = excluded.data,
             status = 'pending', submitted_at = excluded.submitted_at, decided_at = NULL, reason = NULL`,
        )
        .run(userId, s.kind, s.level, JSON.stringify(s.data), now);
      sendMail(
        this.#db,
        user.email,
        "Verification submitted",
        `We received your request for verification level ${s.level}. We will write when it has been reviewed.`,
        now,
      );
    })();
    return ok(encodeKycRecord(this.record(userId)));
  }

  /** `/v2/int/account/freeze {code}`: the link in a mail; answers the same for a frozen account. */
  freezeByCode(body: Record<string, unknown>): Reply {
    const code = typeof body["code"] === "string" ? body["code"] : "";
    const owner = freezeCodeValid(code) ? freezeCodeOwner(this.#db, code) : null;
    if (owner === null) return bad("code: invalid");
    this.accounts.freeze(owner, this.now());
    return ok(encodeFrozen());
  }

  /** `POST /dev/kyc {login, decision: "approve" | "reject", reason}`: a reviewer's decision. */
  decide(body: Record<string, unknown>): Reply {
    const user = typeof body["login"] === "string" ? this.accounts.byLogin(body["login"]) : undefined;
    const decision = body["decision"];
    if (!user || (decision !== "approve" && decision !== "reject")) return bad("login or decision: invalid");
    const row = this.#db.prepare("SELECT level, status FROM kyc_submissions WHERE user_id = ?").get(user.id) as
      { level: number; status: KycStatus } | undefined;
    if (!row || row.status !== "pending") return bad("kyc: nothing under review");
    const reason = typeof body["reason"] === "string" ? body["reason"].slice(0, 300) : null;
    const now = this.now();
    this.#db.transaction(() => {
      if (decision === "approve") {
        this.#db
          .prepare("UPDATE users SET verification_level = MAX(verification_level, ?) WHERE id = ?")
          .run(row.level, user.id);
        this.#db
          .prepare("UPDATE kyc_submissions SET status = 'approved', decided_at = ?, reason = NULL WHERE user_id = ?")
          .run(now, user.id);
        sendMail(
          this.#db,
          user.email,
          "Verification approved",
          `Your account now has verification level ${row.level}.`,
          now,
        );
      } else {
        this.#db
          .prepare("UPDATE kyc_submissions SET status = 'rejected', decided_at = ?, reason = ? WHERE user_id = ?")
          .run(now, reason, user.id);
        sendMail(
          this.#db,
          user.email,
          "Verification not approved",
          `Your request for verification level ${row.level} was not approved${reason ? `: ${reason}` : "."} You can correct it and submit again.`,
          now,
        );
      }
    })();
    return ok({ login: user.username, status: decision === "approve" ? "approved" : "rejected" });
  }

  /** `POST /dev/unfreeze {login}`: support lifting a freeze. */
  unfreeze(body: Record<string, unknown>): Reply {
    const user = typeof body["login"] === "string" ? this.accounts.byLogin(body["login"]) : undefined;
    if (!user) return bad("login: invalid");
    return ok({ login: user.username, unfrozen: this.accounts.unfreeze(user.id) });
  }
}
