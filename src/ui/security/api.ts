/**
 * The security page's calls to the exchange (server/security.ts, server/identity.ts), through the
 * session's transport (`authCall`: the session's token, 429 told app-wide, a dead session is the
 * forced logout), with their answers checked and their refusals sorted into what the page says.
 */
import { parseApiError } from "../../protocol";
import { authCall } from "../session";
import { appWideError, type AppWideError } from "../shell/api-notice";

/** Why a call was refused, as the page tells it. */
export type SecurityError =
  | "password"
  | "email-code"
  | "code"
  | "too-many"
  | "name"
  | "key"
  | "key-exists"
  | "session-gone"
  | "unreachable"
  | "server"
  | AppWideError;

export type Result<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: SecurityError };

/** Sorts a refusal by the exchange's message (server/security.ts and identity.ts write them). */
export function securityErrorOf(status: number, body: unknown): SecurityError {
  if (status === 0) return "unreachable";
  const appWide = appWideError(status, body);
  if (appWide) return appWide;
  const msg = parseApiError(body)?.message ?? "";
  if (msg.startsWith("password:")) return "password";
  if (msg.startsWith("email code:")) return "email-code";
  if (/too many/.test(msg)) return "too-many";
  if (msg.startsWith("otp:")) return "code";
  if (msg.startsWith("name:")) return "name";
  if (msg === "key: already registered") return "key-exists";
  if (msg.startsWith("key:") || msg.startsWith("origin:")) return "key";
  if (msg.startsWith("session:")) return "session-gone";
  return "server";
}

async function call<T>(path: string, body: unknown, read: (b: unknown) => T | null): Promise<Result<T>> {
  const reply = await authCall(path, body);
  if (reply.status !== 200) return { ok: false, error: securityErrorOf(reply.status, reply.body) };
  const value = read(reply.body);
  return value === null ? { ok: false, error: "server" } : { ok: true, value };
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === "string" ? v : null);
const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);
const done = (b: unknown): true | null => (Array.isArray(b) ? true : null);

export interface SecurityKey {
  readonly id: string;
  readonly name: string;
  readonly created: number;
  readonly lastUsed: number | null;
  /** The site (host name) the key was registered on: it signs in there only. */
  readonly site: string;
}

export interface SecurityOverview {
  readonly factors: readonly string[];
  readonly keys: readonly SecurityKey[];
}

export interface SessionRow {
  readonly id: number;
  readonly created: number;
  readonly lastSeen: number;
  readonly address: string | null;
  readonly agent: string;
  readonly current: boolean;
}

export type LoginResult = "signed-in" | "password" | "otp" | "key" | "sms";

export interface LoginRow {
  readonly id: number;
  readonly mts: number;
  readonly address: string | null;
  readonly agent: string;
  readonly outcome: LoginResult;
}

const OUTCOMES: ReadonlySet<string> = new Set(["signed-in", "password", "otp", "key", "sms"]);

export function overview(): Promise<Result<SecurityOverview>> {
  return call("/v2/auth/r/int/security", {}, (b) => {
    if (!isRecord(b) || !Array.isArray(b["factors"]) || !Array.isArray(b["keys"])) return null;
    const keys: SecurityKey[] = [];
    for (const k of b["keys"] as unknown[]) {
      if (!isRecord(k)) continue;
      const id = str(k["id"]);
      const name = str(k["name"]);
      const created = num(k["created"]);
      if (id === null || name === null || created === null) continue;
      keys.push({ id, name, created, lastUsed: num(k["lastUsed"]), site: str(k["site"]) ?? "" });
    }
    return { factors: (b["factors"] as unknown[]).filter((f): f is string => typeof f === "string"), keys };
  });
}

export function sessions(): Promise<Result<SessionRow[]>> {
  return call("/v2/auth/r/int/sessions", {}, (b) => {
    if (!Array.isArray(b)) return null;
    const rows: SessionRow[] = [];
    for (const r of b as unknown[]) {
      if (!isRecord(r)) continue;
      const id = num(r["id"]);
      const created = num(r["created"]);
      if (id === null || created === null) continue;
      rows.push({
        id,
        created,
        lastSeen: num(r["lastSeen"]) ?? created,
        address: str(r["address"]),
        agent: str(r["agent"]) ?? "",
        current: r["current"] === true,
      });
    }
    return rows;
  });
}

export function loginHistory(): Promise<Result<LoginRow[]>> {
  return call("/v2/auth/r/int/logins/hist", {}, (b) => {
    if (!Array.isArray(b)) return null;
    const rows: LoginRow[] = [];
    for (const r of b as unknown[]) {
      if (!isRecord(r)) continue;
      const id = num(r["id"]);
      const mts = num(r["mts"]);
      const outcome = str(r["outcome"]);
      if (id === null || mts === null || outcome === null || !OUTCOMES.has(outcome)) continue;
      rows.push({ id, mts, address: str(r["address"]), agent: str(r["agent"]) ?? "", outcome: outcome as LoginResult });
    }
    return rows;
  });
}

export const endSession = (id: number): Promise<Result<true>> => call("/v2/auth/w/int/sessions/revoke", { id }, done);
export const endOtherSessions = (): Promise<Result<true>> => call("/v2/auth/w/int/sessions/revoke-others", {}, done);

export interface TotpChallenge {
  readonly secret: string;
  readonly otpauth: string;
  /** What proves the owner: the password and a mailed code, or (replacing one) the current code. */
  readonly confirm: "password+email" | "otp";
}

export function totpChallenge(): Promise<Result<TotpChallenge>> {
  return call("/v2/auth/r/int/2fa/challenge", { method: "otp" }, (b) => {
    if (!isRecord(b)) return null;
    const secret = str(b["secret"]);
    const otpauth = str(b["otpauth"]);
    if (secret === null || otpauth === null) return null;
    return { secret, otpauth, confirm: b["confirm"] === "otp" ? "otp" : "password+email" };
  });
}

export function totpRegister(input: {
  token: string;
  password?: string;
  emailCode?: string;
  currentToken?: string;
}): Promise<Result<true>> {
  return call("/v2/auth/w/int/2fa/register", input, done);
}

export const totpDisable = (currentToken: string): Promise<Result<true>> =>
  call("/v2/auth/w/int/2fa/disable", { currentToken }, done);

/**
 * Registers a hardware key: the exchange's options, the browser's WebAuthn ceremony (SimpleWebAuthn,
 * loaded on first use; rejects when the person cancels or no key answers), then the register call
 * with the owner's proof.
 */
export async function addKey(input: { name: string; password: string; currentToken?: string }): Promise<Result<true>> {
  const options = await call("/v2/auth/r/int/2fa/key/challenge", {}, (b) => (isRecord(b) ? b : null));
  if (!options.ok) return options;
  let response: unknown;
  try {
    const { startRegistration } = await import("@simplewebauthn/browser");
    response = await startRegistration({
      optionsJSON: options.value as unknown as Parameters<typeof startRegistration>[0]["optionsJSON"],
    });
  } catch {
    return { ok: false, error: "key" };
  }
  return call("/v2/auth/w/int/2fa/key/register", { ...input, response }, done);
}

export const renameKey = (id: string, name: string): Promise<Result<true>> =>
  call("/v2/auth/w/int/2fa/key/rename", { id, name }, done);

export const removeKey = (id: string, password: string, currentToken?: string): Promise<Result<true>> =>
  call("/v2/auth/w/int/2fa/key/remove", { id, password, ...(currentToken ? { currentToken } : {}) }, done);
