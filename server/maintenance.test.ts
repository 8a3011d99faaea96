/**
 * Maintenance on the running exchange host: info 20060 to connected sockets, platform status 0 on
 * REST and in new sockets' welcome, orders refused over the socket and REST while it lasts, then
 * 20061 and trading again.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { startExchangeHost, type ExchangeHost } from "./exchange-host.ts";
import { DEMO } from "./store/seed.ts";

let host: ExchangeHost;
let base = "";
beforeAll(async () => {
  host = await startExchangeHost({
    host: "127.0.0.1",
    publicPort: 0,
    authPort: 0,
    appOrigin: "http://127.0.0.1:1",
    dbPath: ":memory:",
    simStepMs: 1000,
    seed: 5,
    geoCountry: "GB",
    log: () => undefined,
  });
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
    ws.on("message", (d) => frames.push(JSON.parse(String(d))));
    await new Promise((r) => ws.once("open", r));
    ws.send(JSON.stringify({ event: "auth", token }));
    await wait(100);

    const toggle = async (on: boolean): Promise<unknown> =>
      (await fetch(`http://${base}/dev/maintenance`, { method: "POST", body: JSON.stringify({ on }) })).json();
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
    const welcome = await new Promise<unknown>((r) => late.once("message", (d) => r(JSON.parse(String(d)))));
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
