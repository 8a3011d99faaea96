/**
 * The public pages the build publishes (docs/product-rules.md#public-pages): every path of the site
 * map (site-map.ts) with the route that shows it. Each is prerendered in every locale and, unless
 * its route says `noindex`, listed in /sitemap.xml. Pages added to the site map and the route table
 * appear here without any other change.
 */
import { parse } from "regexparam";
import type { Feature, VariantConfig } from "../protocol";
import { ROUTES, routesFor, type RouteDef } from "./routes";
import { STATIC_PAGE_PATHS } from "./site-map";

export interface PublishedPage {
  readonly path: string;
  readonly route: RouteDef;
}

/** Whether a route's wouter pattern matches a path: the router's own parser (regexparam), so both agree. */
export function routeMatches(pattern: string, path: string): boolean {
  return parse(pattern).pattern.test(path);
}

/** The route the router would show for a path (its first match, as wouter's Switch picks). */
export function routeFor(routes: readonly RouteDef[], path: string): RouteDef | undefined {
  return routes.find((r) => routeMatches(r.path, path));
}

/** The site map's pages that exist on a platform variant, each with its route. */
export function publishedPages(variant: VariantConfig): PublishedPage[] {
  const routes = routesFor(variant);
  return STATIC_PAGE_PATHS.flatMap((path) => {
    const route = routeFor(routes, path);
    return route ? [{ path, route }] : [];
  });
}

export interface RoutePattern {
  /** The route's pattern as a regular expression's source (case-insensitive, as wouter matches). */
  readonly source: string;
  readonly feature?: Feature;
}

/**
 * Every route's pattern, for the static server: a path none matches answers 404 with the not-found
 * page, as the app would show it (server/static.ts).
 */
export function routePatterns(): RoutePattern[] {
  return ROUTES.map((r) => ({
    source: parse(r.path).pattern.source,
    ...(r.feature === undefined ? {} : { feature: r.feature }),
  }));
}

/** The address a link to a route goes to: its pattern without its optional parameters (`/tradedesk`). */
export function routeHref(pattern: string): string {
  const href = pattern.replace(/\/:[^/]+\?/g, "");
  return href === "" ? "/" : href;
}
