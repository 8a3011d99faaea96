import { describe, expect, it } from "vitest";
import { LiquidationsHistory, type JsonFetch } from "./history";

const row = (id: number, mts: number) => [["pos", id, mts, null, "tBTCUSD", -1, 30000, null, 1, 1, null, 29000]];

describe("liquidations history", () => {
  it("goes NOT_ASKED → LOADING → READY and widens its range page by page", async () => {
    const pages = [
      [row(1, 3000), row(2, 2000)],
      [row(2, 2000), row(3, 1000)],
    ];
    const urls: string[] = [];
    const fetch: JsonFetch = (url) => {
      urls.push(url);
      return Promise.resolve({ ok: true, status: 200, json: () => Promise.resolve(pages.shift()) });
    };
    const h = new LiquidationsHistory("https://api", fetch);
    expect(h.status).toBe("NOT_ASKED");
    const pending = h.load(0);
    expect(h.status).toBe("LOADING");
    expect((await pending).range).toEqual({ start: 2000, end: 3000 });
    const second = await h.load(2000);
    expect(second.status).toBe("READY");
    expect(second.range).toEqual({ start: 1000, end: 3000 });
    expect(second.rows).toHaveLength(3);
    expect(urls[1]).toContain("end=2000");
  });

  it("keeps the error text on failure", async () => {
    const h = new LiquidationsHistory("https://api", () =>
      Promise.resolve({ ok: false, status: 503, json: () => Promise.resolve(null) }),
    );
    expect(await h.load(0)).toMatchObject({ status: "ERROR", error: "HTTP 503" });
    const h2 = new LiquidationsHistory("https://api", () => Promise.reject(new Error("offline")));
    expect(await h2.load(0)).toMatchObject({ status: "ERROR", error: "offline" });
  });
});
