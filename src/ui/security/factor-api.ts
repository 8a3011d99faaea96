/**
 * The security page's SMS and PGP key calls (server/sms.ts, server/pgp.ts) through the session's
 * transport (`authCall`), their answers read by src/protocol's codecs, and their refusals sorted
 * into what the page says.
 */
import {
  parseApiError,
  pgpKeyCodec,
  smsSentCodec,
  smsStateCodec,
  type PgpKeyInfo,
  type SmsSent,
  type SmsState,
} from "../../protocol";
import { authCall } from "../session";
import { appWideError, type AppWideError } from "../shell/api-notice";

/** Why an SMS or PGP call was refused, as the page tells it. */
export type FactorError =
  | "phone"
  | "password"
  | "otp"
  | "code"
  | "code-expired"
  | "too-many"
  | "wait"
  | "texts"
  | "key-missing"
  | "key-private"
  | "key-expired"
  | "key-revoked"
  | "key-invalid"
  | "key-no-encryption"
  | "key-too-large"
  | "key-code"
  | "key-nothing"
  | "key-too-many"
  | "key-pastes"
  | "proof-locked"
  | "email-code"
  | "unreachable"
  | "server"
  | AppWideError;

export type FactorResult<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: FactorError };

/** The exchange's refusal messages (server/sms.ts, server/pgp.ts) and what each means here. */
const MESSAGES: Readonly<Record<string, FactorError>> = {
  "phone: invalid": "phone",
  "password: invalid": "password",
  "otp: current code required": "otp",
  "sms: code invalid": "code",
  "sms: code expired, ask for a new one": "code-expired",
  "sms: too many attempts, try again later": "too-many",
  "sms: wait before asking for another code": "wait",
  "sms: too many messages, try again later": "texts",
  "key: missing": "key-missing",
  "key: private key, paste the public key": "key-private",
  "key: expired": "key-expired",
  "key: revoked": "key-revoked",
  "key: not an OpenPGP public key": "key-invalid",
  "key: not valid": "key-invalid",
  "key: no encryption key": "key-no-encryption",
  "key: too large": "key-too-large",
  "key: code invalid": "key-code",
  "key: nothing to confirm": "key-nothing",
  "key: too many attempts, try again later": "key-too-many",
  "key: too many keys, try again later": "key-pastes",
  "proof: too many attempts, try again later": "proof-locked",
  "email code: invalid": "email-code",
};

export function factorErrorOf(status: number, body: unknown): FactorError {
  if (status === 0) return "unreachable";
  const appWide = appWideError(status, body);
  if (appWide) return appWide;
  const msg = parseApiError(body)?.message ?? "";
  return Object.hasOwn(MESSAGES, msg) ? (MESSAGES[msg] ?? "server") : "server";
}

async function call<T>(path: string, body: unknown, read: (b: unknown) => T | null): Promise<FactorResult<T>> {
  const reply = await authCall(path, body);
  if (reply.status !== 200) return { ok: false, error: factorErrorOf(reply.status, reply.body) };
  const value = read(reply.body);
  return value === null ? { ok: false, error: "server" } : { ok: true, value };
}

const decoded = <T>(r: { ok: true; value: T } | { ok: false }): T | null => (r.ok ? r.value : null);
const done = (b: unknown): true | null => (Array.isArray(b) ? true : null);

export const smsState = (): Promise<FactorResult<SmsState>> =>
  call("/v2/auth/r/int/2fa/sms", {}, (b) => decoded(smsStateCodec.decode(b)));

export const smsSend = (phone: string, country: string): Promise<FactorResult<SmsSent>> =>
  call("/v2/auth/w/int/2fa/sms/send", { phone, country }, (b) => decoded(smsSentCodec.decode(b)));

export const smsEnable = (input: {
  code: string;
  password: string;
  currentToken?: string;
  /** The code mailed with the text, when the account's only factor is a hardware key. */
  emailCode?: string;
}): Promise<FactorResult<true>> => call("/v2/auth/w/int/2fa/sms/enable", input, done);

export const smsDisableSend = (): Promise<FactorResult<SmsSent>> =>
  call("/v2/auth/w/int/2fa/sms/disable/send", {}, (b) => decoded(smsSentCodec.decode(b)));

export const smsDisable = (code: string, password: string): Promise<FactorResult<true>> =>
  call("/v2/auth/w/int/2fa/sms/disable", { code, password }, done);

export const pgpKeys = (): Promise<FactorResult<PgpKeyInfo[]>> =>
  call("/v2/auth/r/int/pgp", {}, (b) => decoded(pgpKeyCodec.decodeList(b)));

export const pgpUpdate = (key: string): Promise<FactorResult<true>> => call("/v2/auth/w/int/pgp/update", { key }, done);

export const pgpConfirm = (code: string): Promise<FactorResult<true>> =>
  call("/v2/auth/w/int/pgp/confirm", { code }, done);

export const pgpRemove = (password: string): Promise<FactorResult<true>> =>
  call("/v2/auth/w/int/pgp/remove", { password }, done);
