/** The date-range problems' localized text, shared by the history pages (src/ui/history/range.ts). */
import { useLingui } from "@lingui/react/macro";
import type { RangeProblem } from "./range";

export function useRangeProblemText(): (p: RangeProblem) => string {
  const { t } = useLingui();
  return (p) => {
    switch (p) {
      case "from-date":
        return t`The "from" date is not a date.`;
      case "to-date":
        return t`The "to" date is not a date.`;
      case "range":
        return t`The "from" date is after the "to" date.`;
      default: {
        const never: never = p;
        return never;
      }
    }
  };
}
