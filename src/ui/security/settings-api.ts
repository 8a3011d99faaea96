/**
 * The security settings' calls (server/security-settings.ts): reading and changing the settings
 * through the session's transport (`authCall`), and the mailed links' calls (a pending change, a
 * sign-in from a new address), which need no sign-in, through the account-opening transport.
 * Answers are checked here; refusals are sorted into what the pages say.
 */
import { parseApiError, SECURITY_CHANGE_NAMES, type SecurityChangeName } from "../../protocol";
import { authCall, openingHttp } from "../session";

/** Why a settings call was refused, as the page tells it. */
export type SettingsError =
  | { readonly kind: "invalid-address"; readonly entry: string }
  | { readonly kind: "too-many" | "empty" | "own-address" | "value" | "no-pending" | "invalid-token" }
  | { readonly kind: "unreachable" | "server" };

export type SettingsResult<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: SettingsError };

/** Sorts a refusal by the exchange's message (server/security-settings.ts writes them). */
export function settingsErrorOf(status: number, body: unknown): SettingsError {
  if (status === 0) return { kind: "unreachable" };
  const msg = parseApiError(body)?.message ?? "";
  const bad = /^ip_lock: invalid address (.*)$/.exec(msg);
  if (bad) return { kind: "invalid-address", entry: bad[1] ?? "" };
  if (msg === "ip_lock: too many addresses") return { kind: "too-many" };
  if (msg === "ip_lock: empty") return { kind: "empty" };
  if (msg === "ip_lock: your current address must be on the list") return { kind: "own-address" };
  if (msg === "val: invalid" || msg === "setting: invalid") return { kind: "value" };
  if (msg === "pending: none") return { kind: "no-pending" };
  if (msg === "token: invalid") return { kind: "invalid-token" };
  return { kind: "server" };
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const isName = (v: string): v is SecurityChangeName => (SECURITY_CHANGE_NAMES as readonly string[]).includes(v);

export interface PendingChange {
  readonly val: string;
  readonly expires: number;
}

export interface SettingsView {
  /** Every setting's stored value ("1"/"0", `ip_lock` "0" or addresses joined by commas). */
  readonly settings: Readonly<Record<SecurityChangeName, string>>;
  readonly pending: Readonly<Partial<Record<SecurityChangeName, PendingChange>>>;
  /** The address the exchange sees this browser at (offered for the address lock). */
  readonly address: string | null;
}

/** Reads the view, or null when the answer is not one. */
export function settingsViewOf(b: unknown): SettingsView | null {
  if (!isRecord(b) || !isRecord(b["settings"]) || !isRecord(b["pendingChanges"])) return null;
  const raw = b["settings"];
  const settings: Partial<Record<SecurityChangeName, string>> = {};
  for (const name of SECURITY_CHANGE_NAMES) {
    const v = raw[name];
    if (typeof v !== "string") return null;
    settings[name] = v;
  }
  const pending: Partial<Record<SecurityChangeName, PendingChange>> = {};
  for (const [name, p] of Object.entries(b["pendingChanges"])) {
    if (!isName(name) || !isRecord(p) || typeof p["val"] !== "string" || typeof p["expires"] !== "number") continue;
    pending[name] = { val: p["val"], expires: p["expires"] };
  }
  const address = typeof b["address"] === "string" ? b["address"] : null;
  return { settings: settings as Record<SecurityChangeName, string>, pending, address };
}

async function call<T>(path: string, body: unknown, read: (b: unknown) => T | null): Promise<SettingsResult<T>> {
  const reply = await authCall(path, body);
  if (reply.status !== 200) return { ok: false, error: settingsErrorOf(reply.status, reply.body) };
  const value = read(reply.body);
  return value === null ? { ok: false, error: { kind: "server" } } : { ok: true, value };
}

export const readSecuritySettings = (): Promise<SettingsResult<SettingsView>> =>
  call("/v2/auth/r/int/security/settings", {}, settingsViewOf);

/** Asks for a change: "applied" at once (a tightening), or "pending" until the mailed link confirms it. */
export const changeSecuritySetting = (
  setting: SecurityChangeName,
  val: string,
): Promise<SettingsResult<"applied" | "pending">> =>
  call("/v2/auth/w/int/security/settings", { setting, val }, (b) =>
    isRecord(b) ? (isRecord(b["pending"]) ? "pending" : isRecord(b["applied"]) ? "applied" : null) : null,
  );

export const cancelPendingChange = (setting: SecurityChangeName): Promise<SettingsResult<true>> =>
  call("/v2/auth/w/int/security/pending/cancel", { setting }, (b) => (Array.isArray(b) ? true : null));

// --- the mailed links ------------------------------------------------------------------------------

async function publicCall<T>(path: string, body: unknown, read: (b: unknown) => T | null): Promise<SettingsResult<T>> {
  try {
    const reply = await openingHttp()({ method: "POST", path, body });
    if (reply.status !== 200) return { ok: false, error: settingsErrorOf(reply.status, reply.body) };
    const value = read(reply.body);
    return value === null ? { ok: false, error: { kind: "server" } } : { ok: true, value };
  } catch {
    return { ok: false, error: { kind: "unreachable" } };
  }
}

export interface MailedChange {
  readonly setting: SecurityChangeName;
  readonly val: string;
  readonly created: number;
}

export const checkMailedChange = (token: string): Promise<SettingsResult<MailedChange>> =>
  publicCall("/v2/int/security/change/check", { token }, (b) => {
    if (!isRecord(b) || typeof b["setting"] !== "string" || !isName(b["setting"])) return null;
    if (typeof b["val"] !== "string" || typeof b["created"] !== "number") return null;
    return { setting: b["setting"], val: b["val"], created: b["created"] };
  });

export const decideMailedChange = (token: string, confirm: boolean): Promise<SettingsResult<true>> =>
  publicCall(`/v2/int/security/change/${confirm ? "confirm" : "cancel"}`, { token }, (b) =>
    Array.isArray(b) ? true : null,
  );

export interface HeldSignIn {
  readonly address: string;
  readonly agent: string;
  readonly created: number;
}

export const checkHeldSignIn = (token: string): Promise<SettingsResult<HeldSignIn>> =>
  publicCall("/v2/int/login/confirm/check", { token }, (b) => {
    if (!isRecord(b) || typeof b["address"] !== "string" || typeof b["created"] !== "number") return null;
    return { address: b["address"], agent: typeof b["agent"] === "string" ? b["agent"] : "", created: b["created"] };
  });

export const decideHeldSignIn = (token: string, confirm: boolean): Promise<SettingsResult<true>> =>
  publicCall(confirm ? "/v2/int/login/confirm" : "/v2/int/login/confirm/cancel", { token }, (b) =>
    Array.isArray(b) ? true : null,
  );
