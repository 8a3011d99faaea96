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
    load: () => import("./HomePage").then((m) => m.HomePage),
    pageData: true,
    catalog: "site",
  },
  {
    id: "features",
    path: STATIC_PAGES.features,
    title: msg`Features`,
    load: () => import("./FeaturesPage").then((m) => m.FeaturesPage),
    pageData: true,
    nav: 1,
    catalog: "site",
  },
  {
    id: "borrow",
    path: STATIC_PAGES.borrow,
    title: msg`Borrow`,
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
    load: () => import("./CompetitionsPage").then((m) => m.CompetitionsPage),
    pageData: true,
    feature: "competitions",
    nav: 4,
    catalog: "site",
  },
  {
    id: "about",
    path: STATIC_PAGES.about,
    title: msg`About`,
    load: () => import("./AboutPage").then((m) => m.AboutPage),
    pageData: true,
    nav: 5,
    catalog: "company",
  },
  {
    id: "freeze",
    path: STATIC_PAGES.freeze,
    title: msg`Freeze account`,
    load: () => import("./FreezePage").then((m) => m.FreezePage),
    pageData: true,
    catalog: "site",
  },
  {
    id: "login",
    path: STATIC_PAGES.login,
    title: msg`Sign in`,
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
    load: () => import("./LoggedOutPage").then((m) => m.LoggedOutPage),
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
