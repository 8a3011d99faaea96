/**
 * The call of filing a report from the public site (docs/product-rules.md#site-reports),
 * framework-free over an injected `Http` like the regional application: the body is built by
 * src/protocol's rules, the receipt read by its codec, a refusal returned as the field and reason
 * it is about, for the form to word.
 */
import {
  encodeSiteReport,
  parseApiError,
  SITE_REPORT_PATH,
  siteReportReceiptCodec,
  siteReportRefusal,
  type SiteReport,
  type SiteReportField,
  type SiteReportReason,
  type SiteReportReceipt,
} from "../../protocol";
import { log } from "../log";
import type { Http } from "../session/core";

export type SiteReportError =
  | { readonly kind: "field"; readonly field: SiteReportField; readonly reason: SiteReportReason }
  | { readonly kind: "rate-limited" }
  | { readonly kind: "server" }
  | { readonly kind: "unreachable" };

export type SiteReportResult =
  { readonly ok: true; readonly receipt: SiteReportReceipt } | { readonly ok: false; readonly error: SiteReportError };

/** Sends a report: its receipt, or why it was not taken. */
export async function submitSiteReport(http: Http, report: SiteReport): Promise<SiteReportResult> {
  try {
    const reply = await http({ method: "POST", path: SITE_REPORT_PATH, body: encodeSiteReport(report) });
    if (reply.status === 200) {
      const receipt = siteReportReceiptCodec.decode(reply.body);
      return receipt.ok ? { ok: true, receipt: receipt.value } : { ok: false, error: { kind: "server" } };
    }
    if (reply.status === 429) return { ok: false, error: { kind: "rate-limited" } };
    const err = parseApiError(reply.body);
    const refusal = reply.status < 500 && err !== null ? siteReportRefusal(err.message) : null;
    return { ok: false, error: refusal ? { kind: "field", ...refusal } : { kind: "server" } };
  } catch (err) {
    log.warn(`${SITE_REPORT_PATH} failed`, err);
    return { ok: false, error: { kind: "unreachable" } };
  }
}
