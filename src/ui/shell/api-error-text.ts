import { useLingui } from "@lingui/react/macro";
import type { ApiErrorKind } from "./api-notice";

/**
 * What a page says beside a form when a call failed around it rather than on a field: one wording
 * for every page. Null for what the app already says once for all pages (the rate-limit notice,
 * the forced sign-out).
 */
export function useApiErrorText(): (kind: ApiErrorKind) => string | null {
  const { t } = useLingui();
  return (kind) => {
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
