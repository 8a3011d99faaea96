/**
 * The static public pages the build publishes page data for (page data is fetched per
 * path: docs/product-rules.md#page-data). Shared by the router (src/pages/routes.tsx) and the build
 * plugin (vite.config.ts), so a page and its data are never out of step. Pure data: no React, no DOM.
 */
export const STATIC_PAGES = {
  home: "/",
  about: "/about",
  features: "/features",
  borrow: "/borrow",
  securities: "/securities",
  competitions: "/competitions",
  login: "/login",
  loggedOut: "/logged-out",
  freeze: "/freeze",
  fees: "/fees",
  depositsWithdrawals: "/deposits-and-withdrawals",
  orderBook: "/order-book",
  fundingBook: "/funding-book",
  stats: "/stats",
  halving: "/bitcoin-halving",
  support: "/support",
  report: "/report",
  antiSpam: "/anti-spam",
  howToBuyBitcoin: "/how-to-buy-bitcoin",
  howToBuyEthereum: "/how-to-buy-ethereum",
  howToBuyLitecoin: "/how-to-buy-litecoin",
  verification: "/verification",
  pro: "/pro",
  mobileTrading: "/mobile-trading",
  app: "/app",
  download: "/download",
  utilities: "/utilities",
  securityPolicy: "/security-policy",
  bugBounty: "/bug-bounty",
  manifesto: "/manifesto",
  press: "/press",
  join: "/join",
  channels: "/channels",
  affiliates: "/affiliates",
  buyWithCards: "/buy-with-cards",
  bitrefillStart: "/bitrefill/start",
} as const;

export const STATIC_PAGE_PATHS: readonly string[] = Object.values(STATIC_PAGES);
