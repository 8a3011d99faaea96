/**
 * The API keys page's logic, framework-free (the page is a thin view over it): the list, the
 * two-step creation (generate, then verify with the mailed or TOTP code), edits and revocation —
 * each flow with its own busy flag, the new key's record cleared once shown
 * (docs/product-rules.md#other-flows) — and the form rules, the same the exchange applies
 * (server/api-keys.ts), so a bad form is refused here first with a field error and again there.
 * The call is injected (src/ui/session `authCall` in the app, a fake in tests).
 */
import { proxy } from "valtio";
import {
  apiKeyRowCodec,
  CAPABILITY_SCOPES,
  parseApiError,
  parsePermissionString,
  permissionRowCodec,
  type Permissions,
} from "../../protocol";
import { apiErrorKind, type ApiErrorKind } from "../shell/api-notice";

/** The reply of an exchange call; status 0 when it could not be reached. */
export interface Reply {
  readonly status: number;
  readonly body: unknown;
}
export type Call = (path: string, body?: unknown) => Promise<Reply>;

/** The scopes a key's permissions are set for, in the order the matrix shows them. */
export const KEY_SCOPES = [
  "account",
  "history",
  "orders",
  "positions",
  "funding",
  "settings",
  "wallets",
  "withdraw",
] as const;
export type KeyScope = (typeof KEY_SCOPES)[number];

export interface Access {
  readonly read: boolean;
  readonly write: boolean;
}
export type Matrix = Readonly<Record<KeyScope, Access>>;

export const MAX_LABEL = 64;
export const MAX_IPS = 20;

export function emptyMatrix(): Record<KeyScope, Access> {
  return Object.fromEntries(KEY_SCOPES.map((s) => [s, { read: false, write: false }])) as Record<KeyScope, Access>;
}

/** Sets one cell: write implies read, and taking read away takes write with it. */
export function setAccess(m: Matrix, scope: KeyScope, kind: "read" | "write", on: boolean): Matrix {
  const cur = m[scope];
  const next: Access =
    kind === "write" ? { read: on || cur.read, write: on } : { read: on, write: on ? cur.write : false };
  return { ...m, [scope]: next };
}

/** A matrix from permissions as decoded anywhere (rows, caps, permission strings). */
export function matrixFrom(p: Permissions): Matrix {
  const m = emptyMatrix();
  for (const s of KEY_SCOPES) {
    const a = p[s];
    if (a) m[s] = { read: a.read || a.write, write: a.write };
  }
  return m;
}

/**
 * A permission string in either format (docs/product-rules.md#permission-strings) as a matrix;
 * null when any part is not understood (so a key never gets less, or more, than was pasted).
 */
export function matrixFromPermissionString(text: string): Matrix | null {
  const t = text.trim();
  if (t === "") return null;
  if (/(read|write)$/.test(t)) {
    const items = t.split(/[,\s]+/);
    const ok = items.every((item) => {
      const m = /^([a-z_]+)[-:_](read|write)$/.exec(item);
      return m !== null && (KEY_SCOPES as readonly string[]).includes(m[1] as string);
    });
    if (!ok) return null;
  } else {
    const parts = t.split(":");
    const flag = parts.pop();
    if (flag !== "0" && flag !== "1") return null;
    if (parts.length === 0) return null;
    for (const c of parts) {
      const scope = Object.hasOwn(CAPABILITY_SCOPES, c) ? CAPABILITY_SCOPES[c] : undefined;
      if (scope === undefined || !(KEY_SCOPES as readonly string[]).includes(scope)) return null;
    }
  }
  return matrixFrom(parsePermissionString(t));
}

/** The permissions body the exchange takes: `{scope: {read, write}}` with 0/1. */
export function permissionsBody(m: Matrix): Record<string, { read: 0 | 1; write: 0 | 1 }> {
  return Object.fromEntries(
    KEY_SCOPES.map((s) => [s, { read: m[s].read || m[s].write ? 1 : 0, write: m[s].write ? 1 : 0 }] as const),
  );
}

function isIpv4(a: string): boolean {
  return /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/.test(a);
}

function isIpv6(a: string): boolean {
  if (!a.includes(":") || !/^[0-9a-fA-F:.]+$/.test(a)) return false;
  // The URL parser knows IPv6 literals exactly (compressed forms, embedded IPv4); no regex of ours.
  try {
    return new URL(`http://[${a}]/`).hostname !== "";
  } catch {
    return false;
  }
}

export type IpError = { readonly kind: "invalid"; readonly entry: string } | { readonly kind: "too-many" };

/** The allowlist text (commas, spaces or lines between entries) as entries, or what is wrong. */
export function parseIps(text: string): { ok: true; ips: string[] } | { ok: false; error: IpError } {
  const ips: string[] = [];
  for (const raw of text.split(/[\s,]+/)) {
    const entry = raw.trim();
    if (entry === "") continue;
    const [addr = "", prefix, ...rest] = entry.split("/");
    const v4 = isIpv4(addr);
    const v6 = !v4 && isIpv6(addr);
    const max = v4 ? 32 : 128;
    if (
      (!v4 && !v6) ||
      rest.length > 0 ||
      (prefix !== undefined && (!/^\d{1,3}$/.test(prefix) || Number(prefix) > max))
    )
      return { ok: false, error: { kind: "invalid", entry } };
    const norm = entry.toLowerCase();
    if (!ips.includes(norm)) ips.push(norm);
  }
  if (ips.length > MAX_IPS) return { ok: false, error: { kind: "too-many" } };
  return { ok: true, ips };
}

export interface KeyForm {
  readonly label: string;
  readonly matrix: Matrix;
  readonly ips: string;
}

export type LabelError = "required" | "too-long" | "control" | "invalid";

export interface FormErrors {
  label?: LabelError;
  permissions?: "none";
  ips?: IpError;
}

/** The form's own rules (the exchange's too): a label, at least one permission, a valid allowlist. */
export function validateForm(f: KeyForm): FormErrors {
  const errors: FormErrors = {};
  const label = f.label.trim();
  if (label === "") errors.label = "required";
  else if (label.length > MAX_LABEL) errors.label = "too-long";
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  else if (/[\u0000-\u001f\u007f]/.test(label)) errors.label = "control";
  if (!KEY_SCOPES.some((s) => f.matrix[s].read || f.matrix[s].write)) errors.permissions = "none";
  const ips = parseIps(f.ips);
  if (!ips.ok) errors.ips = ips.error;
  return errors;
}

export const hasErrors = (e: FormErrors): boolean =>
  e.label !== undefined || e.permissions !== undefined || e.ips !== undefined;

/** A key as the page lists it. */
export interface KeyView {
  readonly key: string;
  readonly label: string;
  readonly matrix: Matrix;
  readonly ips: readonly string[];
  readonly mtsCreate: number | null;
}

/** Rows of `r/api/keys` (docs/protocol.md: [KEY, LABEL, PERMISSION_ROWS, MTS_CREATE, IP_ALLOWLIST]). */
export function keysFrom(body: unknown): KeyView[] | null {
  const rows = apiKeyRowCodec.decodeList(body);
  if (!rows.ok) return null;
  return rows.value.map((r) => ({
    key: r.key,
    label: r.label,
    matrix: matrixFrom(permissionsFromRows(r.permissions)),
    ips: Array.isArray(r.ipAllowlist) ? r.ipAllowlist.filter((x): x is string => typeof x === "string") : [],
    mtsCreate: r.mtsCreate,
  }));
}

/** `[[scope, read, write], …]` (r/permissions, a key row's permissions) as permissions. */
export function permissionsFromRows(rows: unknown): Permissions {
  const out: Record<string, Access> = {};
  if (!Array.isArray(rows)) return out;
  for (const row of rows) {
    const d = permissionRowCodec.decode(row);
    if (d.ok) out[d.value.scope] = { read: d.value.read, write: d.value.write };
  }
  return out;
}

/** What managing API keys needs of the signed-in credential. */
export const MANAGE_NEEDS: readonly { readonly scope: KeyScope; readonly write: boolean }[] = [
  { scope: "account", write: true },
];

/** The needs a credential's permissions do not meet (empty: it may). */
export function missingPermissions(
  own: Permissions,
  needs: readonly { readonly scope: KeyScope; readonly write: boolean }[],
): { scope: KeyScope; write: boolean }[] {
  return needs.filter((n) => {
    const a = own[n.scope];
    return !a || (n.write ? !a.write : !a.read);
  });
}

/** Why a call failed, as the page words it. */
export type CallError =
  | { readonly kind: "field"; readonly errors: FormErrors }
  | { readonly kind: "code" }
  | { readonly kind: "expired" }
  | { readonly kind: "too-many-keys" }
  | { readonly kind: "too-many-pending" }
  | { readonly kind: "key-gone" }
  | { readonly kind: "app"; readonly app: ApiErrorKind };

/** Reads the exchange's refusal (`["error", code, "field: reason"]`) into what the page says. */
export function callErrorFrom(reply: Reply): CallError {
  const app = apiErrorKind(reply.status, reply.body);
  if (app !== "refused") return { kind: "app", app };
  const msg = parseApiError(reply.body)?.message ?? "";
  if (msg.startsWith("label: at most")) return { kind: "too-many-keys" };
  if (msg.startsWith("label:")) return { kind: "field", errors: { label: "invalid" } };
  if (msg.startsWith("permissions:")) return { kind: "field", errors: { permissions: "none" } };
  if (msg.startsWith("ips: at most")) return { kind: "field", errors: { ips: { kind: "too-many" } } };
  if (msg.startsWith("ips:")) {
    const entry = /^ips: invalid address (.+)$/.exec(msg)?.[1] ?? "";
    return { kind: "field", errors: { ips: { kind: "invalid", entry } } };
  }
  if (msg.startsWith("code:")) return { kind: "code" };
  if (msg.startsWith("id: too many")) return { kind: "too-many-pending" };
  if (msg.startsWith("id:")) return { kind: "expired" };
  if (msg.startsWith("key:")) return { kind: "key-gone" };
  return { kind: "app", app: "server" };
}

export type Result = { readonly ok: true } | { readonly ok: false; readonly error: CallError };

export interface ApiKeysState {
  load: "loading" | "ready" | "failed";
  keys: KeyView[];
  /** The signed-in credential's own permissions (`r/permissions`); null until read. */
  own: Permissions | null;
  busy: { generate: boolean; verify: boolean; update: boolean; revoke: boolean };
  /** A generation waiting for its code. */
  pending: { id: string; method: "email" | "otp"; label: string } | null;
  /** The new key with its secret, shown once and cleared when acknowledged. */
  created: { key: string; secret: string; label: string } | null;
}

export function initialState(): ApiKeysState {
  return {
    load: "loading",
    keys: [],
    own: null,
    busy: { generate: false, verify: false, update: false, revoke: false },
    pending: null,
    created: null,
  };
}

const ok: Result = { ok: true };
const failed = (reply: Reply): Result => ({ ok: false, error: callErrorFrom(reply) });

export class ApiKeysModel {
  readonly state: ApiKeysState;

  constructor(
    readonly call: Call,
    state: ApiKeysState = proxy(initialState()),
  ) {
    this.state = state;
  }

  /** Reads the keys and the credential's own permissions (a failed read ends loading). */
  async refresh(): Promise<void> {
    const [list, perms] = await Promise.all([this.call("/v2/auth/r/api/keys"), this.call("/v2/auth/r/permissions")]);
    if (perms.status === 200) this.state.own = permissionsFromRows(perms.body);
    const keys = list.status === 200 ? keysFrom(list.body) : null;
    if (keys) {
      this.state.keys = keys;
      this.state.load = "ready";
    } else this.state.load = "failed";
  }

  async #busy(flag: keyof ApiKeysState["busy"], work: () => Promise<Result>): Promise<Result> {
    if (this.state.busy[flag]) return { ok: false, error: { kind: "app", app: "server" } };
    this.state.busy[flag] = true;
    try {
      return await work();
    } finally {
      this.state.busy[flag] = false;
    }
  }

  /** Step one: asks for the key; on success a code is on its way (`pending`). */
  generate(form: KeyForm): Promise<Result> {
    const errors = validateForm(form);
    if (hasErrors(errors)) return Promise.resolve({ ok: false, error: { kind: "field", errors } });
    const ips = parseIps(form.ips);
    const label = form.label.trim();
    return this.#busy("generate", async () => {
      const reply = await this.call("/v2/auth/w/api/key/generate", {
        label,
        permissions: permissionsBody(form.matrix),
        ips: ips.ok ? ips.ips : [],
      });
      if (reply.status !== 200) return failed(reply);
      const b = reply.body as { id?: unknown; method?: unknown } | null;
      if (typeof b?.id !== "string") return { ok: false, error: { kind: "app", app: "server" } };
      this.state.pending = { id: b.id, method: b.method === "otp" ? "otp" : "email", label };
      return ok;
    });
  }

  /** Step two: the code; on success the key and its secret are in `created`, once. */
  verify(code: string): Promise<Result> {
    const pending = this.state.pending;
    if (!pending) return Promise.resolve({ ok: false, error: { kind: "expired" } });
    if (!/^\d{6}$/.test(code.trim())) return Promise.resolve({ ok: false, error: { kind: "code" } });
    return this.#busy("verify", async () => {
      const reply = await this.call("/v2/auth/w/api/key/verify", { id: pending.id, code: code.trim() });
      if (reply.status !== 200) {
        const r = failed(reply);
        // The request is gone (expired, or too many wrong codes): the owner starts again.
        if (!r.ok && r.error.kind === "expired") this.state.pending = null;
        return r;
      }
      const [key, secret] = Array.isArray(reply.body) ? (reply.body as unknown[]) : [];
      if (typeof key !== "string" || typeof secret !== "string")
        return { ok: false, error: { kind: "app", app: "server" } };
      this.state.pending = null;
      this.state.created = { key, secret, label: pending.label };
      await this.refresh();
      return ok;
    });
  }

  cancelPending(): void {
    this.state.pending = null;
  }

  /** The secret has been seen: it is dropped from the page for good. */
  acknowledgeSecret(): void {
    this.state.created = null;
  }

  update(key: string, form: KeyForm): Promise<Result> {
    const errors = validateForm(form);
    if (hasErrors(errors)) return Promise.resolve({ ok: false, error: { kind: "field", errors } });
    const ips = parseIps(form.ips);
    return this.#busy("update", async () => {
      const reply = await this.call("/v2/auth/w/api/key/update", {
        key,
        label: form.label.trim(),
        permissions: permissionsBody(form.matrix),
        ips: ips.ok ? ips.ips : [],
      });
      if (reply.status !== 200) return failed(reply);
      await this.refresh();
      return ok;
    });
  }

  /** Revokes one key, or every key of the account (null). */
  revoke(key: string | null): Promise<Result> {
    return this.#busy("revoke", async () => {
      const reply = await this.call("/v2/auth/w/api/key/revoke", key === null ? { all: 1 } : { key });
      const r = reply.status === 200 ? ok : failed(reply);
      await this.refresh();
      return r;
    });
  }
}
