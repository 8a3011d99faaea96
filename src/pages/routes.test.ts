import { describe, expect, it } from "vitest";
import { variantConfig } from "../protocol";
import { navFor, ROUTES, routesFor } from "./routes";
import { STATIC_PAGE_PATHS } from "./site-map";

describe("route table", () => {
  it("has unique ids and paths, and page data for every static page", () => {
    expect(new Set(ROUTES.map((r) => r.id)).size).toBe(ROUTES.length);
    expect(new Set(ROUTES.map((r) => r.path)).size).toBe(ROUTES.length);
    for (const r of ROUTES.filter((r) => r.pageData)) expect(STATIC_PAGE_PATHS).toContain(r.path);
  });

  it("gates feature pages and their navigation entries by platform variant", () => {
    const ids = (v: string, loggedIn = false): string[] => navFor(variantConfig(v), loggedIn).map((r) => r.id);
    expect(ids("default")).toEqual([
      "tradedesk",
      "funding",
      "otc",
      "features",
      "borrow",
      "securities",
      "competitions",
      "about",
    ]);
    expect(ids("jp")).toEqual(["tradedesk", "otc", "features", "about"]);
    expect(ids("tr")).toEqual(["tradedesk", "features", "about"]);
    expect(ids("br")).toEqual(["tradedesk", "funding", "features", "borrow", "about"]);
    expect(routesFor(variantConfig("jp")).some((r) => r.id === "securities")).toBe(false);
    // No OTC on br and tr: the page itself is gone, not only its link.
    for (const v of ["br", "tr"]) expect(routesFor(variantConfig(v)).some((r) => r.path === "/otc")).toBe(false);
  });

  it("puts Withdraw in the account menu right after Deposit, for signed-in users only", () => {
    const mine = navFor(variantConfig("default"), true).filter((r) => r.navLoggedIn === true);
    const ids = mine.map((r) => r.id);
    expect(ids.indexOf("withdraw")).toBe(ids.indexOf("deposit") + 1);
    expect(navFor(variantConfig("default"), false).some((r) => r.id === "withdraw")).toBe(false);
  });

  it("shows logged-in entries only when logged in", () => {
    expect(navFor(variantConfig("default"), false).some((r) => r.id === "interface")).toBe(false);
    expect(navFor(variantConfig("default"), true).some((r) => r.id === "interface")).toBe(true);
    // The archive sits next to the reports in the account menu (docs/product-rules.md#archive).
    const mine = navFor(variantConfig("default"), true).map((r) => r.id);
    expect(mine.indexOf("archive")).toBe(mine.indexOf("reports") + 1);
    expect(navFor(variantConfig("default"), false).some((r) => r.id === "archive")).toBe(false);
  });
});
