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
} as const;

export const STATIC_PAGE_PATHS: readonly string[] = Object.values(STATIC_PAGES);
