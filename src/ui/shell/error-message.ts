/**
 * The one wording of an exchange error code (docs/product-rules.md#errors): what a page, a toast or
 * the notifications list says for a refusal it has only a code for. The exchange's own text is
 * English and meant for developers, so it is never shown; a code this table does not know still gets
 * a readable sentence, with the code for support.
 */
import type { I18n, MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import { ERROR_CODES, INFO_CODES } from "../../protocol";

export function errorCodeMessage(code: number | null): MessageDescriptor {
  if (code === null) return msg`The exchange refused the request.`;
  if (code === ERROR_CODES.PARAMS) return msg`The exchange did not accept these values.`;
  // The sign-in family, from a refused key or token to a small nonce.
  if (code >= ERROR_CODES.AUTH_FAILED && code <= ERROR_CODES.AUTH_NONCE)
    return msg`Your sign-in was refused. Sign in again.`;
  if (code === ERROR_CODES.NOT_READY) return msg`The exchange is not ready yet. Try again in a moment.`;
  if (code === ERROR_CODES.RATE_LIMIT) return msg`Too many requests. Wait a moment, then try again.`;
  if (code === INFO_CODES.MAINTENANCE_START) return msg`The exchange is under maintenance. Try again once it is back.`;
  return msg`The exchange refused the request (error ${code}).`;
}

/** The message for `code` in the active locale (`useLingui().i18n` in a component, the app's `i18n` outside). */
export function errorCodeText(i18n: I18n, code: number | null): string {
  return i18n._(errorCodeMessage(code));
}
