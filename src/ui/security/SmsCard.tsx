/**
 * The SMS card, loaded on its own: libphonenumber-js (its per-country metadata) is most of its
 * weight, which the rest of the security page does not need (scripts/size-budget.mjs holds every
 * page chunk to 40 kB).
 */
import { Trans } from "@lingui/react/macro";
import { lazy, Suspense } from "react";
import * as css from "./factors.css";

const SmsFactor = lazy(() => import("./SmsFactor").then((m) => ({ default: m.SmsFactor })));

export function SmsCard(props: { readonly otp: boolean; readonly onChange: () => void }) {
  return (
    <Suspense
      fallback={
        <section className={css.card}>
          <p className={css.hint} role="status">
            <Trans>Loading…</Trans>
          </p>
        </section>
      }
    >
      <SmsFactor {...props} />
    </Suspense>
  );
}
