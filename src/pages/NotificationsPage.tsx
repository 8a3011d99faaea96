import { Trans } from "@lingui/react/macro";
import { NewsletterList } from "../ui/notifications/NewsletterList";
import { NotificationHistory } from "../ui/notifications/NotificationHistory";
import { NotificationPrefs } from "../ui/notifications/NotificationPrefs";
import * as css from "../ui/notifications/notifications.css";
import { authCall } from "../ui/session";
import * as pages from "./pages.css";

/**
 * The notifications page (/notifications, protected): preferences, newsletters and the history of
 * what the exchange sent (docs/product-rules.md#notifications-page).
 */
export function NotificationsPage() {
  return (
    <div className={css.page}>
      <h1 className={pages.h1}>
        <Trans>Notifications</Trans>
      </h1>
      <NotificationPrefs call={authCall} />
      <NewsletterList call={authCall} />
      <NotificationHistory call={authCall} />
    </div>
  );
}
