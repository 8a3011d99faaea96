import { useEffect, useState } from "react";
import { appScheduler } from "../scheduler";

/**
 * The clock a quote's countdown reads (the conversion dialog's, the OTC page's): ticks four times a
 * second while `running`, otherwise still.
 */
export function useTicker(running: boolean): number {
  const [now, setNow] = useState(() => appScheduler.now());
  useEffect(() => {
    if (!running) return;
    const timers = appScheduler.child();
    const tick = (): void => setNow(timers.now());
    timers.after(0, tick);
    timers.every(250, tick);
    return () => timers.dispose();
  }, [running]);
  return now;
}
