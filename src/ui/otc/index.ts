/**
 * OTC block trades (docs/product-rules.md#otc-block-trades): the calls (`api.ts`), the page's
 * framework-free model (`model.ts`) and the desk the /otc page shows.
 */
export { OtcDesk } from "./OtcDesk";
