/**
 * The funding desk's account widgets (offers, credits, loans, the offer form, auto-renew, funding
 * info and earnings), listed in the funding desk's registry (src/ui/funding/registry.ts). Each
 * belongs to the `funding` feature: a platform variant without it neither lists nor draws them.
 */
import { msg } from "@lingui/core/macro";
import type { WidgetDef } from "../../desk/widget";
import { AutoRenew } from "./AutoRenew";
import { FundingSummary } from "./FundingSummary";
import { FundingTables } from "./FundingTables";
import { OfferForm } from "./OfferForm";

export const FUNDING_ACCOUNT_WIDGETS: readonly WidgetDef[] = [
  {
    type: "funding-offer-form",
    title: msg`New offer`,
    component: OfferForm,
    defaultSize: { w: 6, h: 24 },
    minSize: { w: 4, h: 16 },
    feature: "funding",
  },
  {
    type: "funding-records",
    title: msg`Offers, credits and loans`,
    component: FundingTables,
    defaultSize: { w: 12, h: 14 },
    minSize: { w: 6, h: 8 },
    feature: "funding",
  },
  {
    type: "funding-summary",
    title: msg`Earnings and yields`,
    component: FundingSummary,
    defaultSize: { w: 6, h: 10 },
    minSize: { w: 4, h: 6 },
    feature: "funding",
  },
  {
    type: "funding-auto-renew",
    title: msg`Auto-renew`,
    component: AutoRenew,
    defaultSize: { w: 6, h: 14 },
    minSize: { w: 4, h: 10 },
    feature: "funding",
  },
];
