import { useLingui } from "@lingui/react/macro";
import { parseApiError } from "../../protocol";
import type { ApiErrorKind } from "./api-notice";
import { errorCodeText } from "./error-message";

/**
 * What a page says beside a form when a call failed around it rather than on a field: one wording
 * for every page. Null for what the app already says once for all pages (the rate-limit notice,
 * the forced sign-out). Given the reply's body, a refusal the form did not place on a field is
 * worded by its error code (error-message.ts), an unknown code included.
 */
export function useApiErrorText(): (kind: ApiErrorKind, body?: unknown) => string | null {
  const { t, i18n } = useLingui();
  return (kind, body) => {
    const refusal = kind === "refused" && body !== undefined ? parseApiError(body) : null;
    if (refusal) return errorCodeText(i18n, refusal.code);
    switch (kind) {
      case "unreachable":
        return t`The exchange could not be reached. Check your connection, then try again.`;
      case "maintenance":
        return t`The exchange is under maintenance. Try again once it is back.`;
      case "server":
      case "refused":
        return t`The exchange had a problem answering. Try again in a moment.`;
      case "rate-limited":
      case "session":
        return null;
      default: {
        const never: never = kind;
        return never;
      }
    }
  };
}
