import { useSnapshot } from "valtio";
import { announcement } from "./announcer";
import * as css from "./shell.css";

export function Announcer() {
  const a = useSnapshot(announcement);
  return (
    <div
      className={css.visuallyHidden}
      role="status"
      aria-live="polite"
      aria-atomic="true"
      data-testid="route-announcer"
    >
      <span key={a.seq}>{a.text}</span>
    </div>
  );
}
