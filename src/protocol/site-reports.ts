/**
 * Reports a visitor files from the public site (docs/product-rules.md#site-reports): a problem
 * with the exchange (the report page, the bug bounty's way in) or a suspicious message or address
 * pretending to be the exchange (the anti-spam page). One copy of the rules for the form that
 * checks them as the visitor types and for the exchange that checks them again; the body is built
 * and read here on both sides, and the answer is a record with its codec. Nothing here is user
 * text: a refusal is a field and a reason the UI words.
 */
import { recordCodec, type Decoded, type FieldSpec } from "./positional";
import { emailValid } from "./signup";

/** Where a report is sent (a public write: no session needed). */
export const SITE_REPORT_PATH = "/v2/int/site/report";

/** `problem`: something wrong with the exchange; `spam`: a message or address impersonating it. */
export const SITE_REPORT_KINDS = ["problem", "spam"] as const;
export type SiteReportKind = (typeof SITE_REPORT_KINDS)[number];

/** What a problem report is about; `security` is a vulnerability (the bug bounty's reports). */
export const PROBLEM_CATEGORIES = ["trading", "account", "funds", "website", "security", "abuse", "other"] as const;
export type ProblemCategory = (typeof PROBLEM_CATEGORIES)[number];

/** How a suspicious message reached the visitor. */
export const SPAM_CHANNELS = ["email", "sms", "messenger", "social", "phone", "website", "other"] as const;
export type SpamChannel = (typeof SPAM_CHANNELS)[number];

/** Lengths, in characters: enough for a clear account of what happened, not for a dump. */
export const REPORT_DESCRIPTION_MIN = 20;
export const REPORT_DESCRIPTION_MAX = 2000;
/** A sender's address, phone number, handle or link. */
export const REPORT_SOURCE_MIN = 3;
export const REPORT_SOURCE_MAX = 300;

/** Reports one client address may send per window (HTTP 429 beyond), refused ones included. */
export const SITE_REPORTS_PER_WINDOW = 10;
export const SITE_REPORT_WINDOW_MS = 15 * 60_000;
/**
 * Reports stored a window from every address together: beyond, the form answers 429 for everyone
 * until the window moves on, so no number of addresses can fill the database the trading state
 * lives in (docs/product-rules.md#site-reports).
 */
export const SITE_REPORTS_STORED_PER_WINDOW = 500;

/** What a visitor sends. */
export interface SiteReport {
  readonly kind: SiteReportKind;
  /** A ProblemCategory for a problem, a SpamChannel for spam. */
  readonly category: string;
  readonly description: string;
  /** Where to answer; "" for an anonymous report. */
  readonly email: string;
  /** Spam only: the sender's address, number, handle or link ("" for a problem). */
  readonly source: string;
}

export type SiteReportField = "kind" | "category" | "description" | "email" | "source";
/** `missing` (empty), `short`/`long` (outside the lengths above), `invalid` (not one of the choices, not an address). */
export type SiteReportReason = "missing" | "short" | "long" | "invalid";
export type SiteReportProblems = Partial<Record<SiteReportField, SiteReportReason>>;

const str = (v: unknown): string => (typeof v === "string" ? v : "");
// Lengths count characters as people see them (code points), so a report in Chinese or with emoji
// is held to the same limits as one in English.
const length = (s: string): number => [...s].length;

function sized(s: string, min: number, max: number): SiteReportReason | null {
  if (s === "") return "missing";
  const n = length(s);
  return n < min ? "short" : n > max ? "long" : null;
}

/** Every field's problem, in the form's order; empty when the report may be sent. */
export function siteReportProblems(r: SiteReport): SiteReportProblems {
  const out: SiteReportProblems = {};
  if (!(SITE_REPORT_KINDS as readonly string[]).includes(r.kind)) return { kind: "invalid" };
  const choices: readonly string[] = r.kind === "problem" ? PROBLEM_CATEGORIES : SPAM_CHANNELS;
  if (r.category === "") out.category = "missing";
  else if (!choices.includes(r.category)) out.category = "invalid";
  if (r.kind === "spam") {
    const source = sized(r.source, REPORT_SOURCE_MIN, REPORT_SOURCE_MAX);
    if (source) out.source = source;
  } else if (r.source !== "") out.source = "invalid";
  const description = sized(r.description, REPORT_DESCRIPTION_MIN, REPORT_DESCRIPTION_MAX);
  if (description) out.description = description;
  if (r.email !== "" && !emailValid(r.email)) out.email = "invalid";
  return out;
}

/** The request body (text trimmed, the address lower-cased). */
export function encodeSiteReport(r: SiteReport): Record<string, unknown> {
  return {
    kind: r.kind,
    category: r.category,
    description: r.description.trim(),
    email: r.email.trim().toLowerCase(),
    source: r.source.trim(),
  };
}

/** Reads and checks a body: the report, or the first field refused and why. */
export function decodeSiteReport(
  body: Readonly<Record<string, unknown>>,
):
  | { readonly ok: true; readonly value: SiteReport }
  | { readonly ok: false; readonly field: SiteReportField; readonly reason: SiteReportReason } {
  const kind = str(body["kind"]);
  const value = {
    kind: kind as SiteReportKind,
    category: str(body["category"]),
    description: str(body["description"]).trim(),
    email: str(body["email"]).trim().toLowerCase(),
    source: str(body["source"]).trim(),
  };
  const first = Object.entries(siteReportProblems(value))[0] as [SiteReportField, SiteReportReason] | undefined;
  return first ? { ok: false, field: first[0], reason: first[1] } : { ok: true, value };
}

/** A refusal's message on the wire: `"field: reason"`. */
export const siteReportRefusalText = (field: SiteReportField, reason: SiteReportReason): string =>
  `${field}: ${reason}`;

/** The field and reason of an exchange refusal, or null for any other message. */
export function siteReportRefusal(
  message: string,
): { readonly field: SiteReportField; readonly reason: SiteReportReason } | null {
  const m = /^(kind|category|description|email|source): (missing|short|long|invalid)$/.exec(message);
  return m ? { field: m[1] as SiteReportField, reason: m[2] as SiteReportReason } : null;
}

/**
 * The answer to a stored report: [REFERENCE, MTS] — the reference the visitor quotes if they write
 * to us (letters and digits that cannot be misread: no 0/O, no 1/I) and when it was stored.
 */
const RECEIPT = {
  reference: [0, "str"],
  mts: [1, "num"],
} as const satisfies FieldSpec;
export type SiteReportReceipt = Decoded<typeof RECEIPT>;
export const siteReportReceiptCodec = recordCodec("site report receipt", RECEIPT, 2);
