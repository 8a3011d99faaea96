/**
 * The footer's link groups, as an exchange's footer has them. Data only: a page joins the footer by
 * adding its path to a group here. A path whose route does not exist on the platform variant (or
 * not yet) is left out, and so is a group left empty. A link's label is its route's title.
 */
import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";

export interface FooterGroup {
  readonly id: string;
  readonly title: MessageDescriptor;
  readonly paths: readonly string[];
}

export const FOOTER_GROUPS: readonly FooterGroup[] = [
  {
    id: "products",
    title: msg`Products`,
    paths: ["/tradedesk", "/features", "/fees", "/borrow", "/securities", "/competitions", "/stats"],
  },
  {
    id: "company",
    title: msg`Company`,
    paths: ["/about", "/press", "/manifesto", "/affiliates", "/join", "/blog", "/posts"],
  },
  {
    id: "learn",
    title: msg`Learn`,
    paths: [
      "/how-to-buy-bitcoin",
      "/how-to-buy-ethereum",
      "/how-to-buy-litecoin",
      "/verification",
      "/pro",
      "/mobile-trading",
      "/app",
      "/download",
      "/utilities",
      "/buy-with-cards",
      "/bitrefill/start",
      "/bitcoin-halving",
    ],
  },
  {
    id: "support",
    title: msg`Support`,
    paths: ["/support", "/deposits-and-withdrawals", "/freeze", "/report", "/anti-spam", "/channels"],
  },
  {
    id: "legal",
    title: msg`Legal`,
    paths: ["/legal/terms", "/legal/privacy", "/legal/risk-disclosure", "/security-policy", "/bug-bounty"],
  },
];
