/**
 * The account page's calls (docs/product-rules.md#verification-levels, #account-freeze): the user's
 * info and KYC record, a KYC submission, the US-person answer and freezing. Framework-free over the
 * session's `authCall` and the public host's transport, so the page stays thin; every body is built
 * and read by src/protocol's compliance rules, and every refusal comes back as what the page says in
 * the person's language.
 */
import {
  decodeFrozen,
  decodeKycRecord,
  decodeUsResident,
  encodeKycSubmission,
  encodeUsResident,
  parseApiError,
  userInfoCodec,
  type KycField,
  type KycProblem,
  type KycRecord,
  type KycSubmission,
  type UserInfo,
} from "../../protocol";
import { log } from "../log";
import { authCall, openingHttp, type HttpReply } from "../session";
import { apiErrorKind, type ApiErrorKind } from "../shell/api-notice";

export type AccountError =
  /** A field of the form the exchange refused, with the rule it broke. */
  | { readonly kind: "field"; readonly field: KycField | "kind" | "level"; readonly problem: KycProblem }
  | { readonly kind: "us-resident" }
  | { readonly kind: "answer-us-first" }
  | { readonly kind: "already-pending" }
  | { readonly kind: "invalid-code" }
  /** Anything around the call: unreachable, maintenance, a server error, 429 (said app-wide). */
  | { readonly kind: "app"; readonly app: ApiErrorKind };

export type Result<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: AccountError };

function errorOf(reply: HttpReply): AccountError {
  const kind = apiErrorKind(reply.status, reply.body);
  if (kind !== "refused") return { kind: "app", app: kind };
  const message = parseApiError(reply.body)?.message ?? "";
  if (message.startsWith("compliance: not available to US residents")) return { kind: "us-resident" };
  if (message.startsWith("us_resident: answer")) return { kind: "answer-us-first" };
  if (message.startsWith("kyc: a submission is already under review")) return { kind: "already-pending" };
  if (message.startsWith("code:")) return { kind: "invalid-code" };
  const [field = "", problem = ""] = message.split(/:\s*/, 2);
  if (field === "level") return { kind: "field", field: "level", problem: "level" };
  return { kind: "field", field: field as KycField, problem: problem as KycProblem };
}

async function call<T>(reply: Promise<HttpReply>, read: (body: unknown) => T | null, what: string): Promise<Result<T>> {
  try {
    const r = await reply;
    if (r.status !== 200) return { ok: false, error: errorOf(r) };
    const value = read(r.body);
    if (value === null) {
      log.warn(`${what}: unreadable answer`);
      return { ok: false, error: { kind: "app", app: "server" } };
    }
    return { ok: true, value };
  } catch (err) {
    log.warn(`${what} failed`, err);
    return { ok: false, error: { kind: "app", app: "unreachable" } };
  }
}

export interface AccountView {
  readonly user: UserInfo;
  readonly kyc: KycRecord;
}

/** The user's info and KYC record, together (the page shows nothing half-loaded). */
export async function loadAccount(): Promise<Result<AccountView>> {
  const [user, kyc] = await Promise.all([
    call(
      authCall("/v2/auth/r/info/user"),
      (b) => {
        const d = userInfoCodec.decode(b);
        return d.ok ? d.value : null;
      },
      "/v2/auth/r/info/user",
    ),
    call(
      authCall("/v2/auth/w/int/compliance", { action: "fetchPublicKycData" }),
      decodeKycRecord,
      "fetchPublicKycData",
    ),
  ]);
  if (!user.ok) return user;
  if (!kyc.ok) return kyc;
  return { ok: true, value: { user: user.value, kyc: kyc.value } };
}

export function submitKyc(s: KycSubmission): Promise<Result<KycRecord>> {
  return call(authCall("/v2/auth/w/int/compliance", encodeKycSubmission(s)), decodeKycRecord, "submitKyc");
}

export function answerUsResident(usResident: boolean): Promise<Result<boolean>> {
  return call(
    authCall("/v1/account_us_resident", encodeUsResident(usResident)),
    decodeUsResident,
    "/v1/account_us_resident",
  );
}

/** The signed-in owner freezes their own account. */
export function freezeOwnAccount(): Promise<Result<true>> {
  return call(authCall("/v2/auth/w/int/account/freeze"), decodeFrozen, "/v2/auth/w/int/account/freeze");
}

/** The freeze link of a mail: works without signing in. */
export function freezeWithCode(code: string): Promise<Result<true>> {
  return call(
    openingHttp()({ method: "POST", path: "/v2/int/account/freeze", body: { code } }),
    decodeFrozen,
    "/v2/int/account/freeze",
  );
}
