import { Trans } from "@lingui/react/macro";
import { OtcDesk } from "../ui/otc";
import * as css from "./pages.css";

/**
 * OTC block trades (/otc, protected; not on the variants without OTC): a block priced from the
 * exchange's own book, accepted within its quote's lifetime (docs/product-rules.md#otc-block-trades).
 */
export function OtcPage() {
  return (
    <>
      <h1 className={css.h1}>
        <Trans>OTC block trades</Trans>
      </h1>
      <p className={css.lead}>
        <Trans>
          Buy or sell a large amount in one trade at one price, without moving the order book. The desk quotes from the
          book with a small spread; the price holds for a few seconds while you decide.
        </Trans>
      </p>
      <OtcDesk />
    </>
  );
}
