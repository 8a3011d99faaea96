import { describe, expect, it } from "vitest";
import {
  decideAccess,
  hasPathPrefix,
  isProtectedPath,
  isTradeDeskPath,
  loginRedirect,
  normalizePath,
  PROTECTED_PREFIXES,
  safeBackTarget,
  showsForcedLoginMessage,
} from "./paths";

const ORIGIN = "https://desk.example";

describe("normalizePath", () => {
  it.each([
    ["/", "/"],
    ["/index.html", "/"],
    ["/about/", "/about"],
    ["/about", "/about"],
    ["//about//team/", "/about/team"],
    ["/securities/index.html", "/securities"],
    ["about", "/about"],
  ])("%s → %s", (input, expected) => {
    expect(normalizePath(input)).toBe(expected);
  });
});

describe("protected prefixes", () => {
  it("covers every protected prefix, at the prefix and below it, with or without a trailing slash", () => {
    for (const prefix of PROTECTED_PREFIXES) {
      expect(isProtectedPath(prefix)).toBe(true);
      expect(isProtectedPath(`${prefix}/`)).toBe(true);
      expect(isProtectedPath(`${prefix}/x/y`)).toBe(true);
    }
  });

  it("matches whole segments only", () => {
    expect(isProtectedPath("/terms")).toBe(false);
    expect(isProtectedPath("/features")).toBe(false);
    expect(isProtectedPath("/tradedesk")).toBe(false);
    expect(isProtectedPath("/fees")).toBe(false);
    expect(isProtectedPath("/apixyz")).toBe(false);
    expect(isProtectedPath("/t/BTCUSD")).toBe(true);
    expect(isProtectedPath("/f/USD")).toBe(true);
    expect(isProtectedPath("/trading/BTCUSD/")).toBe(true);
  });

  it("leaves public pages public", () => {
    for (const p of [
      "/",
      "/about",
      "/login",
      "/freeze",
      "/logout",
      "/securities",
      "/competitions/happy12",
      "/index.html",
    ]) {
      expect(isProtectedPath(p)).toBe(false);
    }
  });

  it("hasPathPrefix normalizes first", () => {
    expect(hasPathPrefix("/wallets/", "/wallets")).toBe(true);
    expect(hasPathPrefix("/walletsx", "/wallets")).toBe(false);
  });
});

describe("trading-desk area", () => {
  it("is any path starting with /tradedesk", () => {
    expect(isTradeDeskPath("/tradedesk")).toBe(true);
    expect(isTradeDeskPath("/tradedesk/layout-2")).toBe(true);
    expect(isTradeDeskPath("/tradedesk-pro")).toBe(true);
    expect(isTradeDeskPath("/trading")).toBe(false);
  });
});

describe("forced login", () => {
  it("sends the full current address (path, query, hash) as back and asks for the message", () => {
    const to = loginRedirect(`${ORIGIN}/wallets/history?ccy=BTC#top`, ORIGIN);
    const url = new URL(to, ORIGIN);
    expect(url.pathname).toBe("/login");
    expect(url.searchParams.get("back")).toBe("/wallets/history?ccy=BTC#top");
    expect(url.searchParams.get("forced")).toBe("1");
  });

  it("excludes /freeze from the forced-login message", () => {
    expect(showsForcedLoginMessage("/freeze")).toBe(false);
    expect(showsForcedLoginMessage("/freeze/")).toBe(false);
    expect(showsForcedLoginMessage("/wallets")).toBe(true);
    const url = new URL(loginRedirect(`${ORIGIN}/freeze`, ORIGIN), ORIGIN);
    expect(url.searchParams.get("back")).toBe("/freeze");
    expect(url.searchParams.has("forced")).toBe(false);
  });

  it("redirects only logged-out users on protected paths", () => {
    expect(decideAccess(`${ORIGIN}/t/BTCUSD`, ORIGIN, false)).toEqual({
      kind: "redirect",
      to: "/login?back=%2Ft%2FBTCUSD&forced=1",
    });
    expect(decideAccess(`${ORIGIN}/t/BTCUSD`, ORIGIN, true)).toEqual({ kind: "render" });
    expect(decideAccess(`${ORIGIN}/about`, ORIGIN, false)).toEqual({ kind: "render" });
  });

  it("returns only to same-site paths after login", () => {
    expect(safeBackTarget("?back=%2Fwallets%3Fx%3D1")).toBe("/wallets?x=1");
    expect(safeBackTarget("?back=https%3A%2F%2Fevil.example")).toBe("/");
    expect(safeBackTarget("?back=%2F%2Fevil.example")).toBe("/");
    expect(safeBackTarget("?back=%2F%5Cevil.example")).toBe("/");
    expect(safeBackTarget("")).toBe("/");
    // Tabs, newlines and backslashes are what browsers drop or rewrite: never a way out or a loop.
    expect(safeBackTarget("?back=%2F%09%2Fevil.example")).toBe("/");
    expect(safeBackTarget("?back=%2F%0A%2Fevil.example")).toBe("/");
    expect(safeBackTarget("?back=%2F%09login")).toBe("/");
    expect(safeBackTarget("?back=%2Flogin%3Fback%3D%252F")).toBe("/");
    expect(safeBackTarget("?back=%2Fa%5Cb")).toBe("/");
    expect(safeBackTarget("?back=%2Ftradedesk%2FBTCUSD%23book")).toBe("/tradedesk/BTCUSD#book");
  });
});
