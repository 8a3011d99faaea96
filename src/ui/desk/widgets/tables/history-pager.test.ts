import { describe, expect, it } from "vitest";
import { createHistoryPager, historyBody, historyPath, mergeHistory, type HistoryRequest } from "./history-pager";
import { requestUrl, jsonBody } from "../../../test-support/fetch";
import { restHistoryFetch } from "./history-rest";
import { order, orderRow } from "../../../test-support/account-records";

/** A server holding closed orders with mts_update = id; honours `end` unless told not to. */
function fakeServer(count: number, honoursEnd = true) {
  const requests: HistoryRequest[] = [];
  const rows = Array.from({ length: count }, (_, i) =>
    orderRow({ id: count - i, updated: count - i, status: "CANCELED" }),
  );
  return {
    requests,
    fetch: (r: HistoryRequest) => {
      requests.push(r);
      const eligible = rows.filter((row) => !honoursEnd || r.end === null || (row[5] as number) <= r.end);
      return Promise.resolve(eligible.slice(0, r.limit));
    },
  };
}

describe("order history pager", () => {
  it("builds the exchange's path and body", () => {
    expect(historyPath("tBTCUSD")).toBe("/v2/auth/r/orders/tBTCUSD/hist");
    expect(historyPath(null)).toBe("/v2/auth/r/orders/hist");
    expect(historyBody({ symbol: null, end: null, limit: 25 })).toEqual({ limit: 25 });
    expect(historyBody({ symbol: null, end: 5, limit: 25 })).toEqual({ end: 5, limit: 25 });
  });

  it("walks back page by page and stops at a short page", async () => {
    const server = fakeServer(12);
    const pager = createHistoryPager({ symbol: "tBTCUSD", fetch: server.fetch, pageSize: 5 });
    await pager.loadMore();
    expect(pager.getState().rows.map((o) => o.id)).toEqual([12, 11, 10, 9, 8]);
    await pager.loadMore();
    await pager.loadMore();
    const s = pager.getState();
    expect(s.rows.map((o) => o.id)).toEqual([12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1]);
    expect(s.exhausted).toBe(true);
    expect(server.requests.map((r) => r.end)).toEqual([null, 8, 4]);
    await pager.loadMore();
    expect(server.requests).toHaveLength(3);
  });

  it("starts below the live history's oldest row", async () => {
    const server = fakeServer(12);
    const pager = createHistoryPager({ symbol: "tBTCUSD", fetch: server.fetch, pageSize: 5 });
    await pager.loadMore(9);
    expect(server.requests[0]?.end).toBe(9);
    expect(pager.getState().rows.map((o) => o.id)).toEqual([9, 8, 7, 6, 5]);
  });

  it("still reaches the end on a server that ignores `end`", async () => {
    const server = fakeServer(12, false);
    const pager = createHistoryPager({ symbol: "tBTCUSD", fetch: server.fetch, pageSize: 5 });
    for (let i = 0; i < 6 && !pager.getState().exhausted; i++) await pager.loadMore();
    expect(pager.getState().exhausted).toBe(true);
    expect(pager.getState().rows.map((o) => o.id)).toEqual([12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1]);
  });

  it("reports a failed request and an undecodable page, then retries", async () => {
    let fail = true;
    const pager = createHistoryPager({
      symbol: null,
      fetch: () => (fail ? Promise.reject(new Error("ratelimit: error")) : Promise.resolve([["x"]])),
    });
    await pager.loadMore();
    expect(pager.getState().error).toBe("ratelimit: error");
    expect(pager.getState().loading).toBe(false);
    fail = false;
    await pager.loadMore();
    expect(pager.getState().error).toMatch(/order/);
  });

  it("notifies subscribers and ignores answers after dispose", async () => {
    const server = fakeServer(3);
    const pager = createHistoryPager({ symbol: null, fetch: server.fetch });
    let calls = 0;
    pager.subscribe(() => calls++);
    const pending = pager.loadMore();
    pager.dispose();
    await pending;
    expect(pager.getState().rows).toHaveLength(0);
    expect(calls).toBe(1);
  });

  it("merges live and fetched rows: one per id, the latest update, newest first", () => {
    const live = [order({ id: 3, updated: 30, status: "CANCELED" }), order({ id: 2, updated: 20 })];
    const fetched = [order({ id: 2, updated: 25, status: "EXECUTED @ 1(1)" }), order({ id: 1, updated: 10 })];
    const merged = mergeHistory(live, fetched);
    expect(merged.map((o) => [o.id, o.mts_update])).toEqual([
      [3, 30],
      [2, 25],
      [1, 10],
    ]);
  });
});

describe("order history REST transport", () => {
  const endpoints = {
    restPublic: "https://pub.example",
    restAuth: "https://auth.example",
    wsPublic: "",
    wsAuth: "",
    staticHost: "",
  };

  it("posts to the authenticated host with the session token", async () => {
    const seen: { url: string; init: RequestInit | undefined }[] = [];
    const fake = (url: RequestInfo | URL, init?: RequestInit) => {
      seen.push({ url: requestUrl(url), init });
      return Promise.resolve(new Response(JSON.stringify([orderRow({ id: 1 })]), { status: 200 }));
    };
    const fetchPage = restHistoryFetch(endpoints, () => "tok-1", fake);
    const body = await fetchPage({ symbol: "tETHUSD", end: 42, limit: 25 });
    expect(Array.isArray(body) && body.length).toBe(1);
    expect(seen[0]?.url).toBe("https://auth.example/v2/auth/r/orders/tETHUSD/hist");
    expect(seen[0]?.init?.method).toBe("POST");
    expect((seen[0]?.init?.headers as Record<string, string>)["bfx-token"]).toBe("tok-1");
    expect(jsonBody(seen[0]?.init)).toEqual({ end: 42, limit: 25 });
  });

  it("rejects with the exchange's message on an error reply", async () => {
    const fake = () =>
      Promise.resolve(new Response(JSON.stringify(["error", 10100, "token: invalid"]), { status: 500 }));
    const fetchPage = restHistoryFetch(endpoints, () => "", fake);
    await expect(fetchPage({ symbol: null, end: null, limit: 25 })).rejects.toThrow("token: invalid");
    const broken = () => Promise.resolve(new Response("<html>", { status: 502 }));
    await expect(
      restHistoryFetch(endpoints, () => "", broken as typeof fetch)({ symbol: null, end: null, limit: 1 }),
    ).rejects.toThrow("HTTP 502");
  });
});
