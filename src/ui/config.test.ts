import { describe, expect, it } from "vitest";
import { apiUrl, defaultConfig, parseConfig } from "./config";

const ORIGIN = "http://127.0.0.1:5180";

describe("runtime config", () => {
  it("defaults to the same origin with ws endpoints on /ws/2", () => {
    const c = defaultConfig(ORIGIN);
    expect(c.endpoints.wsPublic).toBe("ws://127.0.0.1:5180/ws/2");
    expect(c.platform).toBe("default");
    expect(parseConfig(null, ORIGIN)).toEqual(c);
  });

  it("reads the real Bitfinex hosts and a platform variant, ignoring junk fields", () => {
    const c = parseConfig(
      {
        platform: "jp",
        backend: "bitfinex",
        endpoints: { restPublic: "https://api-pub.bitfinex.com", restAuth: "https://api.bitfinex.com", wsPublic: 7 },
      },
      ORIGIN,
    );
    expect(c.platform).toBe("jp");
    expect(c.backend).toBe("bitfinex");
    expect(c.endpoints.restAuth).toBe("https://api.bitfinex.com");
    expect(c.endpoints.wsPublic).toBe("ws://127.0.0.1:5180/ws/2");
    expect(parseConfig({ platform: "mars" }, ORIGIN).platform).toBe("default");
  });

  it("swaps to the authenticated host for /v1/ and /v2/auth/ paths", () => {
    const e = parseConfig({ endpoints: { restPublic: "https://pub", restAuth: "https://auth" } }, ORIGIN).endpoints;
    expect(apiUrl(e, "/v2/tickers?symbols=ALL")).toBe("https://pub/v2/tickers?symbols=ALL");
    expect(apiUrl(e, "/v2/auth/r/info/user")).toBe("https://auth/v2/auth/r/info/user");
    expect(apiUrl(e, "/v1/ui_bootstrap")).toBe("https://auth/v1/ui_bootstrap");
    expect(apiUrl(e, "/v2/login")).toBe("https://pub/v2/login");
  });
});
