import { Trans, useLingui } from "@lingui/react/macro";
import { useEffect, useState } from "react";
import { isCampaignId, type CampaignRow } from "../../protocol";
import { accountCampaigns, subscribe, unsubscribe, type AuthCall, type NotificationsError } from "./api";
import * as css from "./notifications.css";
import { useNotificationWords } from "./words";

/**
 * The campaigns with the signed-in person's status. Subscribing mails a confirmation link to the
 * account's address: until it is opened the subscription is pending and nothing is sent
 * (docs/product-rules.md#newsletters).
 */
export function NewsletterList({ call }: { readonly call: AuthCall }) {
  const { t } = useLingui();
  const words = useNotificationWords();
  const [rows, setRows] = useState<CampaignRow[] | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<NotificationsError | null>(null);

  useEffect(() => {
    let live = true;
    void accountCampaigns(call).then((r) => {
      if (!live) return;
      if (r.ok) setRows(r.value);
      else setError(r.error);
    });
    return () => {
      live = false;
    };
  }, [call]);

  const act = (row: CampaignRow, on: boolean): void => {
    if (!isCampaignId(row.id)) return;
    setBusy(row.id);
    setError(null);
    void (on ? subscribe(call, row.id) : unsubscribe(call, row.id)).then((r) => {
      setBusy(null);
      if (!r.ok) {
        setError(r.error);
        return;
      }
      setRows((list) => list?.map((x) => (x.id === r.value.id ? r.value : x)) ?? null);
    });
  };
  const errorText = error ? words.error(error) : null;

  return (
    <section className={css.card} aria-labelledby="newsletters-title" data-testid="newsletters">
      <h2 id="newsletters-title" className={css.h2}>
        <Trans>Newsletters</Trans>
      </h2>
      <p className={css.muted}>
        <Trans>
          We send a newsletter only after you confirm by the link we mail you. Every issue has a link to unsubscribe.
        </Trans>
      </p>
      {rows === null && errorText === null && (
        <p className={css.muted}>
          <Trans>Loading…</Trans>
        </p>
      )}
      {rows !== null && (
        <ul className={css.campaigns}>
          {rows.map((row) => {
            const name = words.campaignName(row.id, row.name);
            return (
              <li key={row.id} className={css.campaign} data-testid={`campaign-${row.id}`}>
                <div>
                  <h3 className={css.campaignName}>{name}</h3>
                  <p className={css.muted}>{words.campaignDescription(row.id, row.description)}</p>
                </div>
                <div className={css.row}>
                  {row.status === "subscribed" && <span className={css.badgeOn}>{t`Subscribed`}</span>}
                  {row.status === "pending" && (
                    <span className={css.badgeWait}>{t`Waiting for your confirmation: check your inbox`}</span>
                  )}
                  {row.status === "subscribed" || row.status === "pending" ? (
                    <>
                      {row.status === "pending" && (
                        <button
                          type="button"
                          className={css.button}
                          disabled={busy !== null}
                          onClick={() => act(row, true)}
                        >
                          {t`Send the link again`}
                        </button>
                      )}
                      <button
                        type="button"
                        className={css.button}
                        disabled={busy !== null}
                        aria-label={t`Unsubscribe from ${name}`}
                        onClick={() => act(row, false)}
                      >
                        {t`Unsubscribe`}
                      </button>
                    </>
                  ) : (
                    <button
                      type="button"
                      className={css.primary}
                      disabled={busy !== null}
                      aria-label={t`Subscribe to ${name}`}
                      onClick={() => act(row, true)}
                    >
                      {t`Subscribe`}
                    </button>
                  )}
                </div>
              </li>
            );
          })}
        </ul>
      )}
      {errorText !== null && (
        <p className={css.error} role="alert">
          {errorText}
        </p>
      )}
    </section>
  );
}
