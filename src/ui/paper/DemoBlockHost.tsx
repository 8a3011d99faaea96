import { lazy, Suspense, useEffect } from "react";
import { useSnapshot } from "valtio";
import { useLocation } from "wouter";
import { closeDemoBlock, demoBlock, liveOnlyPage, showDemoBlock } from "./paper-mode";
import { usePaperOwner } from "./use-paper";

// The dialog (and the dialog kit it draws with) loads only when a paper account reaches a live-only
// page: every visitor's first load stays lean.
const DemoBlockDialog = lazy(() => import("./DemoBlockDialog").then((m) => ({ default: m.DemoBlockDialog })));

/**
 * Watches for a paper account on a live-only page (docs/product-rules.md#paper-trading) and shows
 * the demo-block dialog then. Mounted once in the app shell.
 */
export function DemoBlockHost() {
  const owner = usePaperOwner();
  const [path] = useLocation();
  const { action } = useSnapshot(demoBlock);
  const page = owner !== null ? liveOnlyPage(path) : null;
  useEffect(() => {
    if (page !== null) showDemoBlock(page);
    else if (owner === null) closeDemoBlock();
  }, [page, owner]);
  return action === null || owner === null ? null : (
    <Suspense fallback={null}>
      <DemoBlockDialog />
    </Suspense>
  );
}
