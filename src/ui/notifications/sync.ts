/**
 * The notification preferences follow the person: once a session's user is known (its token
 * checked), the exchange's stored copy is applied on this device, so the desk honours choices made
 * on another device without the notifications page being opened (src/ui/notifications/prefs.ts).
 * Once per signed-in account; a failed read leaves this device's values as they are.
 */
import { subscribeKey } from "valtio/utils";
import { log } from "../log";
import { authCall, session } from "../session";
import { pullNotificationPrefs } from "./prefs";

export function syncNotificationPrefs(): () => void {
  let pulled: number | null = null;
  const check = (userId: number | null): void => {
    if (userId === null || userId === pulled) return;
    pulled = userId;
    void pullNotificationPrefs(authCall).then((r) => {
      if (!r.ok) log.warn("notification preferences could not be read from the exchange", r.error.kind);
    });
  };
  check(session.userId);
  return subscribeKey(session, "userId", check);
}
