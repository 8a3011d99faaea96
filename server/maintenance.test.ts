/**
 * Maintenance on the running exchange host: info 20060 to connected sockets, platform status 0 on
 * REST and in new sockets' welcome, orders refused over the socket and REST while it lasts, then
 * 20061 and trading again.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { DEV_HEADER } from "./api-server.ts";
import { devEndpointsFromEnv, startExchangeHost, type ExchangeHost } from "./exchange-host.ts";
import { DEMO } from "./store/seed.ts";
import { messageText } from "./ws-text.ts";

const start = (devEndpoints?: boolean): Promise<ExchangeHost> =>
  startExchangeHost({
    host: "127.0.0.1",
    publicPort: 0,
    authPort: 0,
    appOrigin: "http://127.0.0.1:1",
    dbPath: ":memory:",
    simStepMs: 1000,
    seed: 5,
    geoCountry: "GB",
    log: () => undefined,
    ...(devEndpoints !== undefined ? { devEndpoints } : {}),
  });

let host: ExchangeHost;
let base = "";
beforeAll(async () => {
  host = await start(true);
  base = host.hosts[0] as string;
});
afterAll(() => host.stop());

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("maintenance", () => {
  it("announces itself, reports status 0, pauses trading, and ends with 20061", async () => {
    const login = await fetch(`http://${base}/v2/login`, {
      method: "POST",
      body: JSON.stringify({ login: DEMO.username, password: DEMO.password }),
    });
    const [token] = (await login.json()) as [string];
    const frames: unknown[] = [];
    const ws = new WebSocket(`ws://${base}/ws/2`);
    ws.on("message", (d) => frames.push(JSON.parse(messageText(d))));
    await new Promise((r) => ws.once("open", r));
    ws.send(JSON.stringify({ event: "auth", token }));
    await wait(100);

    const toggle = async (on: boolean): Promise<unknown> =>
      (
        await fetch(`http://${base}/dev/maintenance`, {
          method: "POST",
          headers: { [DEV_HEADER]: "1" },
          body: JSON.stringify({ on }),
        })
      ).json();
    expect(await toggle(true)).toEqual({ on: true, changed: true });
    expect(await toggle(true)).toEqual({ on: true, changed: false });
    await wait(100);
    expect(frames).toContainEqual(expect.objectContaining({ event: "info", code: 20060 }));
    expect(await (await fetch(`http://${base}/v2/platform/status`)).json()).toEqual([0]);

    const order = { type: "EXCHANGE LIMIT", symbol: "tBTCUSD", amount: "0.001", price: "1000" };
    ws.send(JSON.stringify([0, "on", null, order]));
    const rest = await fetch(`http://${base}/v2/auth/w/order/submit`, {
      method: "POST",
      headers: { "bfx-token": token },
      body: JSON.stringify(order),
    });
    expect([rest.status, await rest.json()]).toEqual([503, ["error", 20060, "platform: maintenance"]]);
    await wait(100);
    const refused = frames.find((f) => Array.isArray(f) && f[1] === "n") as unknown[] | undefined;
    expect((refused?.[2] as unknown[] | undefined)?.slice(6)).toEqual(["ERROR", "platform: maintenance"]);
    expect(frames.some((f) => Array.isArray(f) && f[1] === "on")).toBe(false);

    const late = new WebSocket(`ws://${base}/ws/2`);
    const welcome = await new Promise<unknown>((r) => late.once("message", (d) => r(JSON.parse(messageText(d)))));
    expect(welcome).toMatchObject({ event: "info", version: 2, platform: { status: 0 } });
    late.close();

    expect(await toggle(false)).toEqual({ on: false, changed: true });
    await wait(100);
    expect(frames).toContainEqual(expect.objectContaining({ event: "info", code: 20061 }));
    expect(await (await fetch(`http://${base}/v2/platform/status`)).json()).toEqual([1]);
    ws.send(JSON.stringify([0, "on", null, order]));
    await wait(200);
    expect(frames.some((f) => Array.isArray(f) && f[1] === "on")).toBe(true);
    ws.close();
  });
});

describe("the development endpoints", () => {
  const post = (headers: Record<string, string>, at = base): Promise<Response> =>
    fetch(`http://${at}/dev/maintenance`, { method: "POST", headers, body: JSON.stringify({ on: true }) });

  it("refuse what a page on another site could send: no custom header, a foreign origin, cross-site", async () => {
    // A cross-site form POST carries no custom header (and a script's would need a preflight
    // that is answered for the app's origin only, without this header).
    expect([(await post({})).status, await (await post({})).json()]).toEqual([
      403,
      ["error", 10100, `dev: ${DEV_HEADER}: 1 header required`],
    ]);
    expect((await post({ [DEV_HEADER]: "1", origin: "https://evil.example" })).status).toBe(403);
    expect((await post({ [DEV_HEADER]: "1", "sec-fetch-site": "cross-site" })).status).toBe(403);
    const preflight = await fetch(`http://${base}/dev/maintenance`, {
      method: "OPTIONS",
      headers: { origin: "https://evil.example", "access-control-request-headers": DEV_HEADER },
    });
    expect(preflight.status).toBe(403);
    // Reading the outbox (verification codes) from another site is refused too; a plain GET works.
    expect((await fetch(`http://${base}/dev/outbox`, { headers: { origin: "https://evil.example" } })).status).toBe(
      403,
    );
    expect((await fetch(`http://${base}/dev/outbox`)).status).toBe(200);
    // None of the refused requests changed anything.
    expect(await (await fetch(`http://${base}/v2/platform/status`)).json()).toEqual([1]);
  });

  it("are off (404) unless the host is started with them; DEV_ENDPOINTS reads 0 or 1 only", async () => {
    const off = await start();
    const at = off.hosts[0] as string;
    expect((await post({ [DEV_HEADER]: "1" }, at)).status).toBe(404);
    expect((await fetch(`http://${at}/dev/outbox`)).status).toBe(404);
    expect(await (await fetch(`http://${at}/v2/platform/status`)).json()).toEqual([1]);
    await off.stop();
    expect(devEndpointsFromEnv({})).toBe(true);
    expect(devEndpointsFromEnv({ DEV_ENDPOINTS: "0" })).toBe(false);
    expect(() => devEndpointsFromEnv({ DEV_ENDPOINTS: "yes" })).toThrow(/DEV_ENDPOINTS/);
  });
});

describe("a planned restart", () => {
  it("tells every connected socket 20051 before it stops", async () => {
    const h = await start();
    const ws = new WebSocket(`ws://${h.hosts[1] as string}/ws/2`);
    const frames: unknown[] = [];
    ws.on("message", (d) => frames.push(JSON.parse(messageText(d))));
    await new Promise((r) => ws.once("open", r));
    await h.stop();
    await wait(50);
    expect(frames).toContainEqual({ event: "info", code: 20051, msg: "Stopping. Please try to reconnect" });
  });
});
