/**
 * The call of applying to a regional venue (docs/product-rules.md#regional-sign-up), framework-free
 * over an injected `Http` like account-opening.ts: the body is built by src/protocol's rules, a
 * refusal comes back as the field and reason it is about, for the page to word.
 */
import {
  applicationRefusal,
  encodeRegionalApplication,
  parseApiError,
  REGIONAL_APPLICATION_PATH,
  type ApplicationField,
  type ApplicationReason,
  type RegionalApplication,
} from "../../protocol";
import { log } from "../log";
import type { Http } from "./core";

export type ApplicationError =
  | { readonly kind: "field"; readonly field: ApplicationField; readonly reason: ApplicationReason }
  | { readonly kind: "rate-limited" }
  | { readonly kind: "server" }
  | { readonly kind: "unreachable" };

/** Sends an application: its reference, or why it was not taken. */
export async function submitRegionalApplication(
  http: Http,
  application: RegionalApplication,
): Promise<
  { readonly ok: true; readonly reference: string } | { readonly ok: false; readonly error: ApplicationError }
> {
  try {
    const reply = await http({
      method: "POST",
      path: REGIONAL_APPLICATION_PATH,
      body: encodeRegionalApplication(application),
    });
    if (reply.status === 200) {
      const reference: unknown = Array.isArray(reply.body) ? reply.body[0] : null;
      return typeof reference === "string" && reference !== ""
        ? { ok: true, reference }
        : { ok: false, error: { kind: "server" } };
    }
    if (reply.status === 429) return { ok: false, error: { kind: "rate-limited" } };
    const err = parseApiError(reply.body);
    const refusal = reply.status < 500 && err !== null ? applicationRefusal(err.message) : null;
    return { ok: false, error: refusal ? { kind: "field", ...refusal } : { kind: "server" } };
  } catch (err) {
    log.warn(`${REGIONAL_APPLICATION_PATH} failed`, err);
    return { ok: false, error: { kind: "unreachable" } };
  }
}

/** The venue's terms as the agreement needs them: the version sent with it, and when they last changed. */
export interface VenueTerms {
  readonly version: string;
  /** Epoch ms, when the exchange says. */
  readonly updated: number | null;
}

/** `GET /v2/conf/pub:legal:terms:{id}` (answered `[value]`); null when it cannot be read. */
export async function venueTerms(http: Http, termsId: string): Promise<VenueTerms | null> {
  try {
    const reply = await http({ method: "GET", path: `/v2/conf/pub:legal:terms:${termsId}` });
    const value: unknown = reply.status === 200 && Array.isArray(reply.body) ? reply.body[0] : null;
    if (typeof value !== "object" || value === null) return null;
    const { version, updated } = value as Record<string, unknown>;
    return typeof version === "string" ? { version, updated: typeof updated === "number" ? updated : null } : null;
  } catch (err) {
    log.warn(`terms ${termsId} failed`, err);
    return null;
  }
}
