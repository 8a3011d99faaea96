/**
 * The catalog plan (scripts/catalog-areas.mjs) reads each route's page and area from routes.ts's
 * text; here that reading is held against the route table itself, and the plan against the rule
 * it implements (locales/README.md): nothing core reaches is left to an area catalog.
 */
import { describe, expect, it } from "vitest";
import { catalogPlan, relativePlan, routeCatalogs } from "../../scripts/catalog-areas.mjs";
import { ROUTES } from "../../src/pages/routes.ts";

const root = new URL("../..", import.meta.url).pathname;

describe("catalog areas", () => {
  it("reads every route of the table, with its catalog", () => {
    const read = new Map(routeCatalogs(root).map((r) => [r.id, r.catalog]));
    expect([...read.keys()].sort()).toEqual(ROUTES.map((r) => r.id).sort());
    for (const r of ROUTES) expect(read.get(r.id), r.id).toBe(r.catalog ?? null);
  });

  it("puts each area page in its area and shared code in core", () => {
    const plan = relativePlan(root, catalogPlan(root));
    const account = new Set(plan.areas["account"]);
    expect(account.has("src/pages/WalletsPage.tsx")).toBe(true);
    // The shell and the desk reach these, so an account page finds them in core.
    for (const shared of ["src/pages/Header.tsx", "src/pages/DeskPage.tsx", "src/pages/routes.ts"]) {
      expect(account.has(shared), shared).toBe(false);
      expect(plan.core, shared).toContain(shared);
    }
    // No file is in two catalogs.
    expect(plan.core.filter((f) => account.has(f))).toEqual([]);
  });
});
