import { lazy, Suspense } from "react";
import { useSnapshot } from "valtio";
import { leaveGuard } from "./leave-guard";

// The dialog and its styles load only when a link is held: every page's first load stays lean.
const LeaveDialog = lazy(() => import("./LeaveDialog").then((m) => ({ default: m.LeaveDialog })));

/** The question before a link leaves unsaved changes (leave-guard.ts), mounted in the shell. */
export function LeaveQuestion() {
  const g = useSnapshot(leaveGuard);
  return g.pending === null ? null : (
    <Suspense fallback={null}>
      <LeaveDialog />
    </Suspense>
  );
}
