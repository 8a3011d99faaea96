// Types of catalog-areas.mjs, which lingui's config and the catalogs tests import.
export declare const CATALOG_AREAS: readonly string[];
export interface CatalogPlan {
  readonly core: readonly string[];
  readonly areas: Readonly<Record<string, readonly string[]>>;
}
export interface RouteCatalog {
  readonly id: string;
  readonly page: string;
  readonly catalog: string | null;
}
export declare function routeCatalogs(root: string): RouteCatalog[];
export declare function catalogPlan(root: string): CatalogPlan;
export declare function relativePlan(root: string, plan: CatalogPlan): CatalogPlan;
