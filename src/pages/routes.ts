/**
 * The route table. Each page is its own lazily loaded chunk; static public pages also have build-time
 * page data (site-map.ts). A route tied to a feature exists only on the platform variants that have
 * that feature, and its navigation entry is hidden with it.
 */
import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import type { ComponentType } from "react";
import type { Feature, VariantConfig } from "../protocol";
import type { CatalogArea } from "../ui/i18n";
import { STATIC_PAGES } from "./site-map";

export interface RouteDef {
  readonly id: string;
  /** A wouter pattern, matched against the normalized path. */
  readonly path: string;
  readonly title: MessageDescriptor;
  /**
   * A public page's meta description (and Open Graph description): one or two sentences, unique per
   * page. Every page published from the site map needs one (src/pages/published.ts).
   */
  readonly description?: MessageDescriptor;
  /** A published page kept out of search results and the sitemap (still prerendered). */
  readonly noindex?: boolean;
  readonly load: () => Promise<ComponentType>;
  /** Fetch page data before showing (static public pages). */
  readonly pageData: boolean;
  /**
   * The locale catalog area the page's messages are in besides core, loaded before the page shows
   * (locales/README.md; which files go where: scripts/catalog-areas.mjs).
   */
  readonly catalog?: CatalogArea;
  readonly feature?: Feature;
  /** Position in the main navigation; absent: not in the navigation. */
  readonly nav?: number;
  /** Shown in the navigation only to logged-in users. */
  readonly navLoggedIn?: boolean;
}

export const ROUTES: readonly RouteDef[] = [
  {
    id: "home",
    path: STATIC_PAGES.home,
    title: msg`Home`,
    description: msg`Trade bitcoin, ether and more on Orderflow: deep live order books, fast charts and an exchange that checks every book it sends you.`,
    load: () => import("./HomePage").then((m) => m.HomePage),
    pageData: true,
    catalog: "site",
  },
  {
    id: "features",
    path: STATIC_PAGES.features,
    title: msg`Features`,
    description: msg`What the Orderflow trading desk does: live books verified by checksum, candles for every timeframe, margin and funding, seven languages.`,
    load: () => import("./FeaturesPage").then((m) => m.FeaturesPage),
    pageData: true,
    nav: 1,
    catalog: "site",
  },
  {
    id: "borrow",
    path: STATIC_PAGES.borrow,
    title: msg`Borrow`,
    description: msg`Borrow against your crypto on Orderflow: margin funding at market rates, with the terms, collateral and risks explained.`,
    load: () => import("./BorrowPage").then((m) => m.BorrowPage),
    pageData: true,
    feature: "borrow",
    nav: 2,
    catalog: "site",
  },
  {
    id: "securities",
    path: STATIC_PAGES.securities,
    title: msg`Securities`,
    description: msg`Tokenised securities on Orderflow: the offerings open now, how to take part and who may invest.`,
    load: () => import("./SecuritiesPage").then((m) => m.SecuritiesPage),
    pageData: true,
    feature: "securities",
    nav: 3,
    catalog: "site",
  },
  {
    id: "competitions",
    path: STATIC_PAGES.competitions,
    title: msg`Competitions`,
    description: msg`Orderflow trading competitions: the contests running now, their rules, prizes and live leaderboards.`,
    load: () => import("./CompetitionsPage").then((m) => m.CompetitionsPage),
    pageData: true,
    feature: "competitions",
    nav: 4,
    catalog: "site",
  },
  {
    // The live public pages read the exchange's configuration and markets (docs/protocol.md#site-figures).
    id: "fees",
    path: STATIC_PAGES.fees,
    title: msg`Fees`,
    description: msg`Orderflow's maker and taker fees, funding and conversion fees, and the withdrawal fee of every network, read live from the exchange.`,
    load: () => import("./FeesPage").then((m) => m.FeesPage),
    pageData: true,
    catalog: "site",
  },
  {
    id: "deposits-and-withdrawals",
    path: STATIC_PAGES.depositsWithdrawals,
    title: msg`Deposits and withdrawals`,
    description: msg`Minimum deposits, confirmations, withdrawal fees and minimums for every currency and network Orderflow supports.`,
    load: () => import("./DepositsWithdrawalsPage").then((m) => m.DepositsWithdrawalsPage),
    pageData: true,
    catalog: "site",
  },
  {
    id: "order-book",
    path: STATIC_PAGES.orderBook,
    title: msg`Order book`,
    description: msg`The live order book of every Orderflow market: bids and asks by price, at the precision you choose, no account needed.`,
    load: () => import("./OrderBookPage").then((m) => m.OrderBookPage),
    pageData: true,
    catalog: "site",
  },
  {
    id: "funding-book",
    path: STATIC_PAGES.fundingBook,
    title: msg`Funding book`,
    description: msg`The live margin funding book on Orderflow: lenders' offers and borrowers' bids by daily rate for USD, USDt, BTC and ETH.`,
    load: () => import("./FundingBookPage").then((m) => m.FundingBookPage),
    pageData: true,
    catalog: "site",
  },
  {
    id: "stats",
    path: STATIC_PAGES.stats,
    title: msg`Exchange statistics`,
    description: msg`Charts of Orderflow's 24-hour trading volume over the last 30 days, for the whole exchange and for each market, from its own trades.`,
    load: () => import("./StatsPage").then((m) => m.StatsPage),
    pageData: true,
    catalog: "site",
  },
  {
    id: "bitcoin-halving",
    path: STATIC_PAGES.halving,
    title: msg`Bitcoin halving countdown`,
    description: msg`A countdown to the next Bitcoin halving at block 1,050,000, estimated from a known block and a 10-minute block time.`,
    load: () => import("./HalvingPage").then((m) => m.HalvingPage),
    pageData: true,
    catalog: "site",
  },
  {
    id: "about",
    path: STATIC_PAGES.about,
    title: msg`About`,
    description: msg`Who runs Orderflow, how the exchange keeps your funds safe and how to reach us.`,
    load: () => import("./AboutPage").then((m) => m.AboutPage),
    pageData: true,
    nav: 5,
    catalog: "company",
  },
  {
    id: "affiliates",
    path: STATIC_PAGES.affiliates,
    title: msg`Affiliates`,
    description: msg`The Orderflow affiliate programme: share in the trading fees of the traders you refer, what we ask of partners and how to apply.`,
    load: () => import("./AffiliatesPage").then((m) => m.AffiliatesPage),
    pageData: true,
    catalog: "company",
  },
  {
    id: "manifesto",
    path: STATIC_PAGES.manifesto,
    title: msg`Manifesto`,
    description: msg`The principles behind Orderflow: correct before fast, fast under any load, honest status, an open protocol and a desk for everyone.`,
    load: () => import("./ManifestoPage").then((m) => m.ManifestoPage),
    pageData: true,
    catalog: "company",
  },
  {
    id: "press",
    path: STATIC_PAGES.press,
    title: msg`Press`,
    description: msg`Orderflow for journalists: a description to quote, key facts about the exchange, how to write our name and how to send press enquiries.`,
    load: () => import("./PressPage").then((m) => m.PressPage),
    pageData: true,
    catalog: "company",
  },
  {
    id: "join",
    path: STATIC_PAGES.join,
    title: msg`Careers`,
    description: msg`Work at Orderflow: exchange engineering, real-time front end, security and support, how the team works and how to get in touch.`,
    load: () => import("./JoinPage").then((m) => m.JoinPage),
    pageData: true,
    catalog: "company",
  },
  {
    id: "channels",
    path: STATIC_PAGES.channels,
    title: msg`Official channels`,
    description: msg`Every channel Orderflow uses to reach you, from e-mail to in-app notifications, and the ones we never use, so you can spot impostors.`,
    load: () => import("./ChannelsPage").then((m) => m.ChannelsPage),
    pageData: true,
    catalog: "company",
  },
  {
    id: "security-policy",
    path: STATIC_PAGES.securityPolicy,
    title: msg`Security policy`,
    description: msg`How Orderflow protects accounts, withdrawals and data, what we ask of you, and how to report a security weakness.`,
    load: () => import("./SecurityPolicyPage").then((m) => m.SecurityPolicyPage),
    pageData: true,
    catalog: "company",
  },
  {
    id: "bug-bounty",
    path: STATIC_PAGES.bugBounty,
    title: msg`Bug bounty`,
    description: msg`The Orderflow bug bounty: what is in scope, the rules for testing, how rewards follow severity and how to report a vulnerability.`,
    load: () => import("./BugBountyPage").then((m) => m.BugBountyPage),
    pageData: true,
    catalog: "company",
  },
  {
    id: "support",
    path: STATIC_PAGES.support,
    title: msg`Support`,
    description: msg`Answers to common questions about Orderflow accounts, deposits, withdrawals, fees and the API, and how to reach our team.`,
    load: () => import("./SupportPage").then((m) => m.SupportPage),
    pageData: true,
    catalog: "company",
  },
  {
    id: "report",
    path: STATIC_PAGES.report,
    title: msg`Report a problem`,
    description: msg`Tell the Orderflow team about a problem with an order, a deposit, your account or the site, and get a reference for your report.`,
    load: () => import("./ReportPage").then((m) => m.ReportPage),
    pageData: true,
    catalog: "company",
  },
  {
    id: "anti-spam",
    path: STATIC_PAGES.antiSpam,
    title: msg`Anti-spam`,
    description: msg`How to recognise phishing and fake Orderflow staff, what we never ask for, and how to report a suspicious message.`,
    load: () => import("./AntiSpamPage").then((m) => m.AntiSpamPage),
    pageData: true,
    catalog: "company",
  },
  {
    // The buying guides (one template; the learn area's pages: guides, apps and tools).
    id: "how-to-buy-bitcoin",
    path: STATIC_PAGES.howToBuyBitcoin,
    title: msg`How to buy bitcoin`,
    description: msg`Buy bitcoin on Orderflow step by step: open an account, verify it, deposit US dollars and place your first BTC/USD order. Live price included.`,
    load: () => import("./HowToBuyPage").then((m) => m.HowToBuyBitcoinPage),
    pageData: true,
    catalog: "learn",
  },
  {
    id: "how-to-buy-ethereum",
    path: STATIC_PAGES.howToBuyEthereum,
    title: msg`How to buy ethereum`,
    description: msg`Buy ether on Orderflow step by step: from sign-up and verification to a dollar deposit and your first ETH/USD order, with the live price.`,
    load: () => import("./HowToBuyPage").then((m) => m.HowToBuyEthereumPage),
    pageData: true,
    catalog: "learn",
  },
  {
    id: "how-to-buy-litecoin",
    path: STATIC_PAGES.howToBuyLitecoin,
    title: msg`How to buy litecoin`,
    description: msg`Buy litecoin on Orderflow: the steps from opening an account to your first LTC/USD order, the levels you need and the live LTC price.`,
    load: () => import("./HowToBuyPage").then((m) => m.HowToBuyLitecoinPage),
    pageData: true,
    catalog: "learn",
  },
  {
    id: "verification",
    path: STATIC_PAGES.verification,
    title: msg`Verification levels`,
    description: msg`Orderflow's verification levels: what each unlocks, from deposits to margin and withdrawals, the daily withdrawal limits and how to apply.`,
    load: () => import("./VerificationPage").then((m) => m.VerificationPage),
    pageData: true,
    catalog: "learn",
  },
  {
    id: "pro",
    path: STATIC_PAGES.pro,
    title: msg`Orderflow Pro`,
    description: msg`The Orderflow trading desk for high-volume traders: checksum-verified books, seven order types, your own layouts, shortcuts and the API.`,
    load: () => import("./ProPage").then((m) => m.ProPage),
    pageData: true,
    catalog: "learn",
  },
  {
    id: "mobile-trading",
    path: STATIC_PAGES.mobileTrading,
    title: msg`Mobile trading`,
    description: msg`Trade on Orderflow from your phone: pages laid out for small screens and a web app you can add to your home screen.`,
    load: () => import("./MobileTradingPage").then((m) => m.MobileTradingPage),
    pageData: true,
    catalog: "learn",
  },
  {
    id: "app",
    path: STATIC_PAGES.app,
    title: msg`The Orderflow app`,
    description: msg`Orderflow is an installable web app: no app store, always up to date, opening in its own window. What it does and what it does not.`,
    load: () => import("./AppPage").then((m) => m.AppPage),
    pageData: true,
    catalog: "learn",
  },
  {
    id: "download",
    path: STATIC_PAGES.download,
    title: msg`Download`,
    description: msg`How to install the Orderflow web app in Chrome, Edge, Safari and Firefox, on a computer or a phone, and how to remove it.`,
    load: () => import("./AppPage").then((m) => m.DownloadPage),
    pageData: true,
    catalog: "learn",
  },
  {
    id: "utilities",
    path: STATIC_PAGES.utilities,
    title: msg`Trading tools`,
    description: msg`The tools around your trading on Orderflow: API keys, CSV reports, the archive, the withdrawal address book and sub-accounts.`,
    load: () => import("./UtilitiesPage").then((m) => m.UtilitiesPage),
    pageData: true,
    catalog: "learn",
  },
  {
    // Services run by partners (src/pages/PartnersPage.tsx says what is and is not connected).
    id: "buy-with-cards",
    path: STATIC_PAGES.buyWithCards,
    title: msg`Buy crypto with a card`,
    description: msg`How buying crypto with a card works through a payment partner, and how to buy on Orderflow by bank wire until a card checkout is connected.`,
    load: () => import("./PartnersPage").then((m) => m.BuyWithCardsPage),
    pageData: true,
    catalog: "learn",
  },
  {
    id: "bitrefill-start",
    path: STATIC_PAGES.bitrefillStart,
    title: msg`Spend crypto with Bitrefill`,
    description: msg`Pay Bitrefill gift cards and phone top-ups with a withdrawal from your Orderflow wallet: the steps, the fee and the limits that apply.`,
    load: () => import("./PartnersPage").then((m) => m.BitrefillStartPage),
    pageData: true,
    catalog: "learn",
  },
  {
    id: "freeze",
    path: STATIC_PAGES.freeze,
    title: msg`Freeze account`,
    description: msg`Freeze your Orderflow account at once if you think someone else has access to it, and learn how to unfreeze it.`,
    load: () => import("./FreezePage").then((m) => m.FreezePage),
    pageData: true,
    catalog: "site",
  },
  {
    id: "login",
    path: STATIC_PAGES.login,
    title: msg`Sign in`,
    description: msg`Sign in to your Orderflow account to trade, fund and manage your wallets.`,
    load: () => import("./LoginPage").then((m) => m.LoginPage),
    pageData: true,
    catalog: "account",
  },
  {
    // The special path (docs/product-rules.md#protected-area): feedback, token deletion, then the logged-out page.
    id: "logout",
    path: "/logout",
    title: msg`Sign out`,
    load: () => import("./LogoutPage").then((m) => m.LogoutPage),
    pageData: false,
  },
  {
    id: "logged-out",
    path: STATIC_PAGES.loggedOut,
    title: msg`Signed out`,
    description: msg`You have signed out of Orderflow.`,
    load: () => import("./LoggedOutPage").then((m) => m.LoggedOutPage),
    noindex: true,
    pageData: true,
    catalog: "site",
  },
  {
    // Opening an account (docs/product-rules.md#sign-up-and-password-reset) and the mailed links' pages.
    id: "signup",
    path: "/signup",
    title: msg`Sign up`,
    load: () => import("./SignupPage").then((m) => m.SignupPage),
    pageData: false,
    catalog: "account",
  },
  {
    // A regional venue's application and its receipt (docs/product-rules.md#regional-sign-up).
    id: "signup-regional",
    path: "/signup/:region",
    title: msg`Apply for an account`,
    load: () => import("./RegionalSignupPage").then((m) => m.RegionalSignupPage),
    pageData: false,
    catalog: "account",
  },
  {
    id: "signup-regional-submitted",
    path: "/signup/:region/submitted",
    title: msg`Application received`,
    load: () => import("./RegionalSignupPage").then((m) => m.RegionalSubmittedPage),
    pageData: false,
    catalog: "account",
  },
  {
    id: "confirm-signup",
    path: "/confirm-signup",
    title: msg`Confirm your e-mail`,
    load: () => import("./ConfirmSignupPage").then((m) => m.ConfirmSignupPage),
    pageData: false,
    catalog: "account",
  },
  {
    // The newsletter mails' links (docs/product-rules.md#newsletters): public, no sign-in needed.
    id: "newsletter-confirm",
    path: "/newsletters/confirm",
    title: msg`Confirm your subscription`,
    load: () => import("./NewsletterLinkPage").then((m) => m.NewsletterConfirmPage),
    pageData: false,
    catalog: "account",
  },
  {
    id: "newsletter-unsubscribe",
    path: "/newsletters/unsubscribe",
    title: msg`Unsubscribe`,
    load: () => import("./NewsletterLinkPage").then((m) => m.NewsletterUnsubscribePage),
    pageData: false,
    catalog: "account",
  },
  {
    id: "invalid-token",
    path: "/invalid-token",
    title: msg`Link not valid`,
    load: () => import("./InvalidTokenPage").then((m) => m.InvalidTokenPage),
    pageData: false,
    catalog: "site",
  },
  {
    id: "forgot-password",
    path: "/forgot-password",
    title: msg`Forgot password`,
    load: () => import("./ForgotPasswordPage").then((m) => m.ForgotPasswordPage),
    pageData: false,
    catalog: "account",
  },
  {
    id: "reset-password",
    path: "/reset-password",
    title: msg`Choose a new password`,
    load: () => import("./ResetPasswordPage").then((m) => m.ResetPasswordPage),
    pageData: false,
    catalog: "account",
  },
  {
    // The security settings' mailed links (docs/product-rules.md#account-security-settings): public,
    // as the link's token is the proof and the mail may be read on another device.
    id: "login-confirm",
    path: "/login-confirm",
    title: msg`Confirm a sign-in`,
    load: () => import("./LoginConfirmPage").then((m) => m.LoginConfirmPage),
    pageData: false,
    catalog: "account",
  },
  {
    id: "confirm-security-change",
    path: "/confirm-security-change",
    title: msg`Confirm a security change`,
    load: () => import("./ConfirmSecurityChangePage").then((m) => m.ConfirmSecurityChangePage),
    pageData: false,
    catalog: "account",
  },
  {
    id: "tradedesk",
    path: "/tradedesk/:pair?",
    title: msg`Trade`,
    load: () => import("./DeskPage").then((m) => m.DeskPage),
    pageData: false,
    nav: 0,
  },
  {
    // Inside the protected /otc prefix: signed-in users only; gone on the variants without OTC
    // (docs/product-rules.md#otc-block-trades).
    id: "otc",
    path: "/otc",
    title: msg`OTC`,
    load: () => import("./OtcPage").then((m) => m.OtcPage),
    pageData: false,
    catalog: "trade",
    feature: "otc",
    nav: 0.6,
  },
  {
    id: "t",
    path: "/t/:pair?",
    title: msg`Trade`,
    load: () => import("./DeskPage").then((m) => m.DeskPage),
    pageData: false,
  },
  {
    id: "trading",
    path: "/trading/:pair?",
    title: msg`Trade`,
    load: () => import("./DeskPage").then((m) => m.DeskPage),
    pageData: false,
  },
  {
    // Inside the protected /funding and /f prefixes (docs/product-rules.md#protected-area).
    id: "funding",
    path: "/funding/:currency?",
    title: msg`Funding`,
    load: () => import("./FundingDeskPage").then((m) => m.FundingDeskPage),
    pageData: false,
    catalog: "trade",
    feature: "funding",
    nav: 0.5,
  },
  {
    id: "f",
    path: "/f/:currency",
    title: msg`Funding`,
    load: () => import("./FundingDeskPage").then((m) => m.FundingDeskPage),
    pageData: false,
    catalog: "trade",
    feature: "funding",
  },
  {
    id: "interface",
    path: "/interface",
    title: msg`Interface settings`,
    load: () => import("./SettingsPage").then((m) => m.SettingsPage),
    pageData: false,
    catalog: "account",
    nav: 6,
    navLoggedIn: true,
  },
  {
    // Inside the protected /api prefix (docs/product-rules.md#protected-area): signed-in users only.
    id: "api",
    path: "/api",
    title: msg`API keys`,
    load: () => import("./ApiKeysPage").then((m) => m.ApiKeysPage),
    pageData: false,
    catalog: "account",
    nav: 7,
    navLoggedIn: true,
  },
  {
    // Inside the protected /account prefix (docs/product-rules.md#protected-area): signed-in users only.
    id: "account",
    path: "/account",
    title: msg`Account`,
    load: () => import("./AccountPage").then((m) => m.AccountPage),
    pageData: false,
    catalog: "account",
    nav: 9,
    navLoggedIn: true,
  },
  {
    // Inside the protected /security prefix (docs/product-rules.md#protected-area): signed-in users only.
    id: "security",
    path: "/security",
    title: msg`Security`,
    load: () => import("./SecurityPage").then((m) => m.SecurityPage),
    pageData: false,
    catalog: "account",
    nav: 8,
    navLoggedIn: true,
  },
  {
    // Inside the protected /wallets prefix (docs/product-rules.md#protected-area): signed-in users only.
    id: "wallets",
    path: "/wallets",
    title: msg`Wallets`,
    load: () => import("./WalletsPage").then((m) => m.WalletsPage),
    pageData: false,
    catalog: "account",
    nav: 5.5,
    navLoggedIn: true,
  },
  {
    // Inside the protected /deposit prefix (docs/product-rules.md#deposits): signed-in users only.
    id: "deposit",
    path: "/deposit/:currency?",
    title: msg`Deposit`,
    load: () => import("./DepositPage").then((m) => m.DepositPage),
    pageData: false,
    catalog: "account",
    nav: 5.6,
    navLoggedIn: true,
  },
  {
    // Inside the protected /withdraw prefix (docs/product-rules.md#withdrawals): signed-in users only;
    // the mailed confirmation link opens it with `?confirm=`.
    id: "withdraw",
    path: "/withdraw/:currency?",
    title: msg`Withdraw`,
    load: () => import("./WithdrawPage").then((m) => m.WithdrawPage),
    pageData: false,
    catalog: "account",
    nav: 5.65,
    navLoggedIn: true,
  },
  {
    // Inside the protected /reports prefix (docs/product-rules.md#reports): signed-in users only.
    id: "reports",
    path: "/reports",
    title: msg`Reports`,
    load: () => import("./ReportsPage").then((m) => m.ReportsPage),
    pageData: false,
    catalog: "account",
    nav: 5.7,
    navLoggedIn: true,
  },
  {
    // Inside the protected /reports prefix: a mailed report's link, saved with the session's token
    // in a header (docs/product-rules.md#reports).
    id: "report-download",
    path: "/reports/download",
    title: msg`Your report`,
    load: () => import("./ReportDownloadPage").then((m) => m.ReportDownloadPage),
    pageData: false,
    catalog: "account",
  },
  {
    // Inside the protected /archive prefix (docs/product-rules.md#archive): signed-in users only.
    id: "archive",
    path: "/archive",
    title: msg`Archive`,
    load: () => import("./ArchivePage").then((m) => m.ArchivePage),
    pageData: false,
    catalog: "account",
    nav: 5.75,
    navLoggedIn: true,
  },
  {
    // Inside the protected /security prefix: the withdrawal address book and whitelist; the mailed
    // confirmation link opens it (docs/product-rules.md#withdrawal-addresses).
    id: "address-book",
    path: "/security/addresses",
    title: msg`Withdrawal addresses`,
    load: () => import("./AddressBookPage").then((m) => m.AddressBookPage),
    pageData: false,
    catalog: "account",
    nav: 8.5,
    navLoggedIn: true,
  },
  {
    // Inside the protected /subaccounts prefix (docs/product-rules.md#protected-area): signed-in users only.
    id: "subaccounts",
    path: "/subaccounts",
    title: msg`Sub-accounts`,
    load: () => import("./SubaccountsPage").then((m) => m.SubaccountsPage),
    pageData: false,
    catalog: "account",
    nav: 10,
    navLoggedIn: true,
  },
  {
    // Inside the protected /notifications prefix (docs/product-rules.md#protected-area): signed-in users only.
    id: "notifications",
    path: "/notifications",
    title: msg`Notifications`,
    load: () => import("./NotificationsPage").then((m) => m.NotificationsPage),
    pageData: false,
    catalog: "account",
    nav: 11,
    navLoggedIn: true,
  },
];

/** The routes that exist on a platform variant. */
export function routesFor(variant: VariantConfig): RouteDef[] {
  return ROUTES.filter((r) => r.feature === undefined || !variant.disabledFeatures.has(r.feature));
}

/** The navigation entries for a variant and login state, in order. */
export function navFor(variant: VariantConfig, loggedIn: boolean): RouteDef[] {
  return routesFor(variant)
    .filter((r) => r.nav !== undefined && (r.navLoggedIn !== true || loggedIn))
    .sort((a, b) => (a.nav ?? 0) - (b.nav ?? 0));
}
