/**
 * Verification (KYC), residency and account-freeze rules (docs/product-rules.md#verification-levels,
 * #compliance-gates and #account-freeze), one copy for the account page that checks a form as it is
 * filled and the exchange that checks it again. The bodies of `/v2/auth/w/int/compliance` and
 * `/v1/account_us_resident` are built and read here on both sides. Nothing here is user text: a
 * refusal names a field and a reason that the UI maps to a localized message.
 */

import { VERIFICATION_LEVELS } from "./constants";

/** BASIC 0 (the default), BASIC_PLUS 1, INTERMEDIATE 2, FULL 3 (constants.ts). */
export type VerificationLevel = (typeof VERIFICATION_LEVELS)[keyof typeof VERIFICATION_LEVELS];

/** The level that unlocks deposits. */
export const DEPOSIT_LEVEL: VerificationLevel = VERIFICATION_LEVELS.BASIC_PLUS;
/** The level that unlocks withdrawals on this exchange. */
export const WITHDRAW_LEVEL: VerificationLevel = VERIFICATION_LEVELS.INTERMEDIATE;
/** From this account-creation date margin trading needs BASIC_PLUS… */
export const MARGIN_BASIC_PLUS_FROM = Date.UTC(2022, 0, 1);
/** …and from this one INTERMEDIATE (older accounts trade margin whatever their level). */
export const MARGIN_INTERMEDIATE_FROM = Date.UTC(2022, 2, 2);
/** Derivatives are closed to residents of Spain from this date. */
export const SPAIN_DERIVATIVES_BLOCK_FROM = Date.UTC(2024, 2, 6);
/** Residents of Japan are served by the jp platform variant only from this date. */
export const JAPAN_BLOCK_FROM = Date.UTC(2022, 2, 1);

/** The level an account created at `createdAt` needs to trade on margin (paper pairs never gated). */
export function marginLevelNeeded(createdAt: number): VerificationLevel {
  if (createdAt >= MARGIN_INTERMEDIATE_FROM) return VERIFICATION_LEVELS.INTERMEDIATE;
  if (createdAt >= MARGIN_BASIC_PLUS_FROM) return VERIFICATION_LEVELS.BASIC_PLUS;
  return VERIFICATION_LEVELS.BASIC;
}

/** What a gated action needs and what the account has: the required-verification dialog's facts. */
export interface LevelGate {
  readonly action: "deposit" | "withdraw" | "margin";
  readonly needed: VerificationLevel;
  readonly current: number;
}

/**
 * Reads the exchange's verification refusal (`verification: level N needed to deposit (this
 * account has M)`), so that any page can show the required-level dialog for it; null for any
 * other message.
 */
export function levelGateOf(message: string): LevelGate | null {
  const m = /^verification: level (\d) needed to (deposit|withdraw|trade on margin) \(this account has (\d)\)/.exec(
    message,
  );
  if (!m) return null;
  const action = m[2] === "trade on margin" ? "margin" : (m[2] as "deposit" | "withdraw");
  return { action, needed: Number(m[1]) as VerificationLevel, current: Number(m[3]) };
}

/** The refusal text of a gate, in the form levelGateOf reads. */
export function levelGateMessage(g: LevelGate): string {
  const verb = g.action === "margin" ? "trade on margin" : g.action;
  return `verification: level ${g.needed} needed to ${verb} (this account has ${g.current})`;
}

export type KycKind = "individual" | "corporate";
export type KycStatus = "none" | "pending" | "approved" | "rejected";

/** The KYC data fields the exchange keeps, in the product's names. */
export const KYC_FIELDS = [
  "first_name",
  "last_name",
  "full_corporate_name",
  "high_net_worth",
  "resid_appt_nb",
  "resid_office_floor",
  "resid_building_name",
  "resid_street",
  "resid_district",
  "resid_city",
  "resid_state",
  "resid_country",
  "resid_zipcode",
] as const;
export type KycField = (typeof KYC_FIELDS)[number];

/** Fields every submission needs; a corporate one also needs its registered name. */
const REQUIRED: readonly KycField[] = [
  "first_name",
  "last_name",
  "resid_street",
  "resid_city",
  "resid_country",
  "resid_zipcode",
];
const TEXT_MAX = 100;

export interface KycData {
  readonly first_name: string;
  readonly last_name: string;
  readonly full_corporate_name: string;
  /** Corporate only: whether the company declares itself a high-net-worth entity. */
  readonly high_net_worth: boolean;
  readonly resid_appt_nb: string;
  readonly resid_office_floor: string;
  readonly resid_building_name: string;
  readonly resid_street: string;
  readonly resid_district: string;
  readonly resid_city: string;
  readonly resid_state: string;
  /** ISO 3166 alpha-2. */
  readonly resid_country: string;
  readonly resid_zipcode: string;
}

export interface KycSubmission {
  readonly kind: KycKind;
  /** The level asked for: 1 to 3. */
  readonly level: VerificationLevel;
  readonly data: KycData;
}

export type KycProblem = "required" | "too-long" | "country" | "zipcode" | "level" | "kind" | "us-resident";
export type KycProblems = Partial<Record<KycField | "kind" | "level", KycProblem>>;

/** Every field a submission gets wrong (empty: it may be sent). */
export function kycProblems(s: KycSubmission): KycProblems {
  const out: KycProblems = {};
  if (s.kind !== "individual" && s.kind !== "corporate") out.kind = "kind";
  if (!Number.isInteger(s.level) || s.level < 1 || s.level > 3) out.level = "level";
  const required = s.kind === "corporate" ? [...REQUIRED, "full_corporate_name" as const] : REQUIRED;
  for (const f of KYC_FIELDS) {
    if (f === "high_net_worth") continue;
    const v = s.data[f];
    if (v.length > TEXT_MAX) out[f] = "too-long";
    else if (required.includes(f) && v.trim() === "") out[f] = "required";
  }
  if (!out.resid_country && !/^[A-Z]{2}$/.test(s.data.resid_country)) out.resid_country = "country";
  if (!out.resid_zipcode && !/^[A-Za-z0-9][A-Za-z0-9 -]{1,11}$/.test(s.data.resid_zipcode))
    out.resid_zipcode = "zipcode";
  return out;
}

/** The body of `/v2/auth/w/int/compliance {action: "submitKyc"}`. */
export function encodeKycSubmission(s: KycSubmission): Record<string, unknown> {
  return { action: "submitKyc", kind: s.kind, level: s.level, data: { ...s.data } };
}

const str = (v: unknown): string => (typeof v === "string" ? v : "");

/** Reads a submission from a request body; structurally wrong input reads as empty fields. */
export function decodeKycSubmission(body: Record<string, unknown>): KycSubmission {
  const d = typeof body["data"] === "object" && body["data"] !== null ? (body["data"] as Record<string, unknown>) : {};
  const kind =
    body["kind"] === "corporate" ? "corporate" : body["kind"] === "individual" ? "individual" : ("" as KycKind);
  const level = typeof body["level"] === "number" ? (body["level"] as VerificationLevel) : (0 as VerificationLevel);
  return {
    kind,
    level,
    data: {
      first_name: str(d["first_name"]),
      last_name: str(d["last_name"]),
      full_corporate_name: str(d["full_corporate_name"]),
      high_net_worth: d["high_net_worth"] === true,
      resid_appt_nb: str(d["resid_appt_nb"]),
      resid_office_floor: str(d["resid_office_floor"]),
      resid_building_name: str(d["resid_building_name"]),
      resid_street: str(d["resid_street"]),
      resid_district: str(d["resid_district"]),
      resid_city: str(d["resid_city"]),
      resid_state: str(d["resid_state"]),
      resid_country: str(d["resid_country"]).toUpperCase(),
      resid_zipcode: str(d["resid_zipcode"]),
    },
  };
}

/** What `fetchPublicKycData` answers: the last submission, its state, and the decision's reason. */
export interface KycRecord {
  readonly status: KycStatus;
  readonly kind: KycKind | null;
  readonly level: number | null;
  readonly submittedAt: number | null;
  readonly decidedAt: number | null;
  /** Why a submission was rejected (the reviewer's words, shown as given). */
  readonly reason: string | null;
  /** The public part of the data: names and country only, never the address. */
  readonly firstName: string | null;
  readonly lastName: string | null;
  readonly corporateName: string | null;
  readonly country: string | null;
  /** The answer to the US-person question; null until asked. */
  readonly usResident: boolean | null;
}

export function encodeKycRecord(r: KycRecord): Record<string, unknown> {
  return { ...r };
}

const numOrNull = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);
const strOrNull = (v: unknown): string | null => (typeof v === "string" ? v : null);

export function decodeKycRecord(v: unknown): KycRecord | null {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return null;
  const o = v as Record<string, unknown>;
  const status = o["status"];
  if (status !== "none" && status !== "pending" && status !== "approved" && status !== "rejected") return null;
  const kind = o["kind"] === "individual" || o["kind"] === "corporate" ? o["kind"] : null;
  return {
    status,
    kind,
    level: numOrNull(o["level"]),
    submittedAt: numOrNull(o["submittedAt"]),
    decidedAt: numOrNull(o["decidedAt"]),
    reason: strOrNull(o["reason"]),
    firstName: strOrNull(o["firstName"]),
    lastName: strOrNull(o["lastName"]),
    corporateName: strOrNull(o["corporateName"]),
    country: strOrNull(o["country"]),
    usResident: typeof o["usResident"] === "boolean" ? o["usResident"] : null,
  };
}

/** `/v1/account_us_resident`'s body and answer: `{us_resident: boolean}` (`{}` asks for the answer). */
export function encodeUsResident(usResident: boolean | null): Record<string, unknown> {
  return { us_resident: usResident };
}

/** Freezing's answer, by the mail's link or the owner's button. */
export function encodeFrozen(): Record<string, unknown> {
  return { frozen: true };
}

export function decodeFrozen(v: unknown): true | null {
  return typeof v === "object" && v !== null && (v as Record<string, unknown>)["frozen"] === true ? true : null;
}

/** `/v1/account_us_resident`: `{us_resident: boolean}` sets the answer, `{}` reads it. */
export function decodeUsResident(v: unknown): boolean | null {
  if (typeof v !== "object" || v === null) return null;
  const r = (v as Record<string, unknown>)["us_resident"];
  return typeof r === "boolean" ? r : null;
}

/** A freeze code from a security mail's link: 32 hex characters. */
export function freezeCodeValid(code: string): boolean {
  return /^[0-9a-f]{32}$/.test(code);
}
