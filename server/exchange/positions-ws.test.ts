/**
 * Margin over the wire: the demo account moves USD to its margin wallet over REST, trades margin
 * orders over the authenticated socket, and every position frame (`ps`, `pn`, `pu`, `pc`), margin
 * info (`miu`) and liquidation row decodes with src/protocol's codecs; `calc` is answered; REST
 * `r/positions`, `r/info/margin/…` and `calc/order/avail` agree with the socket.
 */
import { createHmac } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import {
  decodeMarginInfo,
  liquidationCodec,
  positionCodec,
  walletCodec,
  type MarginInfoBase,
  type MarginInfoSymbol,
  type Position,
} from "../../src/protocol/index.ts";
import type { ApiServer } from "../api-server.ts";
import { DEMO } from "../store/seed.ts";
import { listenApi } from "../test-support/api.ts";
import { INITIAL_MARGIN } from "./positions.ts";
import { openVenue } from "./venue.ts";
import { messageText } from "../ws-text.ts";

const SYM = "tBTCUSD";
let api: ApiServer;
let base = "";
const { exchange, gateway, accounts } = openVenue({
  dbPath: ":memory:",
  seed: 11,
  markets: [{ symbol: SYM, start: 30_000 }],
});
const engine = exchange.markets.get(SYM)?.engine;

beforeAll(async () => {
  const started = await listenApi({ exchange, account: gateway });
  api = started.api;
  base = started.host;
});
afterAll(() => api.close());

async function until<T>(find: () => T | undefined, what: string): Promise<T> {
  const t0 = Date.now();
  for (;;) {
    const v = find();
    if (v !== undefined) return v;
    if (Date.now() - t0 > 4000) throw new Error(`timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

function inside(): number {
  const bid = engine?.bestBid() as number;
  const ask = engine?.bestAsk() as number;
  const p = Math.round((bid + ask) / 2);
  if (!(p > bid && p < ask)) throw new Error(`no room inside the spread ${bid}–${ask}`);
  return p;
}

function decodePosition(raw: unknown): Position {
  const d = positionCodec.decode(raw);
  if (!d.ok) throw new Error(`position frame does not decode: ${JSON.stringify(raw)}`);
  return d.value;
}

describe("margin over the wire", () => {
  it("trades margin positions over the socket, answers calc and REST, and liquidates", async () => {
    const login = await fetch(`http://${base}/v2/login`, {
      method: "POST",
      body: JSON.stringify({ login: DEMO.username, password: DEMO.password }),
    });
    const [token] = (await login.json()) as [string];
    const rest = async (path: string, body: unknown = {}): Promise<unknown> => {
      const res = await fetch(`http://${base}${path}`, {
        method: "POST",
        headers: { "bfx-token": token, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      return res.json();
    };
    const tf = (await rest("/v2/auth/w/transfer", {
      from: "exchange",
      to: "margin",
      currency: "USD",
      amount: "10000",
    })) as unknown[];
    expect(tf[6]).toBe("SUCCESS");

    const ws = new WebSocket(`ws://${base}/ws/2`);
    const frames: unknown[][] = [];
    const events: Record<string, unknown>[] = [];
    ws.on("message", (d) => {
      const m: unknown = JSON.parse(messageText(d));
      if (Array.isArray(m)) frames.push(m);
      else events.push(m as Record<string, unknown>);
    });
    await new Promise((r) => ws.once("open", r));
    const send = (m: unknown) => ws.send(JSON.stringify(m));
    send({ event: "auth", token });
    const account = (type: string, from = 0) =>
      frames
        .slice(from)
        .filter((f) => f[0] === 0 && f[1] === type)
        .map((f) => f[2]);
    const ps = await until(() => account("ps")[0], "ps");
    const snapshot = positionCodec.decodeList(ps);
    expect(snapshot.ok && snapshot.value).toEqual([]);
    // Margin info follows the snapshots unasked: what the margin wallet can trade at 10x.
    const pushed = await until(
      () =>
        account("miu")
          .map((m) => decodeMarginInfo(m))
          .map((d) => (d.ok ? d.value : null))
          .find((i): i is MarginInfoSymbol => i?.kind === "sym" && i.symbol === SYM),
      "miu after auth",
    );
    const ask = engine?.bestAsk() as number;
    expect(pushed.buy).toBeCloseTo(10_000 / (INITIAL_MARGIN + 0.002) / ask, 4);

    // Open a long: pn with the fill's base price, 10x leverage, collateral reserved.
    let mark = frames.length;
    const p0 = inside();
    exchange.place(SYM, -901, "sell", "LIMIT", p0, 0.5);
    send([0, "on", null, { type: "LIMIT", symbol: SYM, amount: "0.5", price: String(p0) }]);
    const opened = decodePosition(await until(() => account("pn", mark)[0], "pn"));
    expect(opened).toMatchObject({ pair: SYM, status: "ACTIVE", amount: 0.5, basePrice: p0, posType: 0 });
    expect(opened.leverage).toBeCloseTo(1 / INITIAL_MARGIN, 4);
    expect(opened.collateral).toBeCloseTo(0.5 * p0 * INITIAL_MARGIN, 6);
    expect(opened.liqPrice).toBeGreaterThan(0);
    expect(opened.liqPrice).toBeLessThan(p0);

    // calc: margin info, the position and the margin wallet, each as its update.
    mark = frames.length;
    send([0, "calc", null, [["margin_base"], ["margin_sym_tBTCUSD"], ["position_tBTCUSD"], ["wallet_margin_USD"]]]);
    const miu = await until(() => {
      const m = account("miu", mark);
      return m.length >= 2 ? m : undefined;
    }, "miu");
    const infos = miu.map((m) => decodeMarginInfo(m)).map((d) => (d.ok ? d.value : null));
    const baseInfo = infos.find((i) => i?.kind === "base") as MarginInfoBase;
    const symInfo = infos.find((i) => i?.kind === "sym") as MarginInfoSymbol;
    const wu = await until(() => account("wu", mark).find((w) => (w as unknown[])[0] === "margin"), "wu");
    const wallet = walletCodec.decode(wu);
    expect(wallet.ok && wallet.value.balance).toBeCloseTo(10_000 - 0.5 * p0 * 0.002, 6);
    expect(baseInfo.balance).toBeCloseTo(wallet.ok ? wallet.value.balance : 0, 6);
    expect(baseInfo.net).toBeCloseTo((baseInfo.balance ?? 0) + (baseInfo.pl ?? 0), 6);
    expect(baseInfo.required).toBeGreaterThan(0);
    expect(symInfo).toMatchObject({ kind: "sym", symbol: SYM });
    expect(symInfo.net).toBeGreaterThan(0);
    expect(symInfo.sell).toBeGreaterThan(0.5); // closing the long counts as sellable
    const pu = decodePosition(await until(() => account("pu", mark)[0], "pu"));
    expect(pu).toMatchObject({ id: opened.id, amount: 0.5 });

    // REST agrees with the socket.
    const listed = positionCodec.decodeList(await rest("/v2/auth/r/positions"));
    expect(listed.ok && listed.value.map((p) => [p.id, p.amount, p.basePrice])).toEqual([[opened.id, 0.5, p0]]);
    const restBase = decodeMarginInfo(await rest("/v2/auth/r/info/margin/base"));
    expect(restBase.ok && restBase.value.kind).toBe("base");
    const restSym = decodeMarginInfo(await rest(`/v2/auth/r/info/margin/${SYM}`));
    expect(restSym.ok && restSym.value.kind).toBe("sym");
    const [avail] = (await rest("/v2/auth/calc/order/avail", {
      symbol: SYM,
      dir: -1,
      rate: String(p0),
      type: "MARGIN",
    })) as [number];
    expect(avail).toBeLessThan(-0.5);

    // Refusals come back as error notifications.
    mark = frames.length;
    send([0, "on", null, { type: "MARKET", symbol: SYM, amount: "0.1", flags: 1024 }]);
    send([0, "on", null, { type: "LIMIT", symbol: SYM, amount: "100", price: String(p0) }]);
    const errors = await until(() => {
      const n = account("n", mark).filter((x) => (x as unknown[])[6] === "ERROR");
      return n.length >= 2 ? n : undefined;
    }, "error notifications");
    expect(String((errors[0] as unknown[])[7])).toContain("reduce-only");
    expect(String((errors[1] as unknown[])[7])).toContain("not enough tradable balance");

    // Close it with the close flag: pc, status CLOSED.
    mark = frames.length;
    const p1 = inside();
    exchange.place(SYM, -901, "buy", "LIMIT", p1, 0.5);
    send([0, "on", null, { type: "LIMIT", symbol: SYM, amount: "-0.01", price: String(p1), flags: 512 }]);
    const closed = decodePosition(await until(() => account("pc", mark)[0], "pc"));
    expect(closed).toMatchObject({ id: opened.id, status: "CLOSED", amount: 0 });
    const none = positionCodec.decodeList(await rest("/v2/auth/r/positions"));
    expect(none.ok && none.value).toEqual([]);

    // Liquidation: a leveraged long, the market falls through its liquidation price.
    send({ event: "subscribe", channel: "status", key: "liq:global" });
    const sub = await until(
      () => events.find((e) => e["event"] === "subscribed" && e["key"] === "liq:global"),
      "subscribed",
    );
    const liqChan = sub["chanId"] as number;
    mark = frames.length;
    const p2 = inside();
    exchange.place(SYM, -901, "sell", "LIMIT", p2, 2.5);
    send([0, "on", null, { type: "LIMIT", symbol: SYM, amount: "2.5", price: String(p2) }]);
    const long = decodePosition(await until(() => account("pn", mark)[0], "pn (long)"));
    const crash = Math.floor((long.liqPrice as number) * 0.98);
    exchange.place(SYM, -901, "sell", "LIMIT", crash, 1_000);
    exchange.place(SYM, -902, "buy", "LIMIT", crash, 0.01);
    const liquidated = decodePosition(await until(() => account("pc", mark)[0], "pc (liquidated)"));
    expect(liquidated).toMatchObject({ id: long.id, status: "LIQUIDATED" });
    const row = await until(
      () => frames.find((f) => f[0] === liqChan && Array.isArray(f[1]) && Array.isArray(f[1][0])),
      "liquidation row",
    );
    const liq = liquidationCodec.decode((row[1] as unknown[])[0]);
    expect(liq.ok && liq.value).toMatchObject({ kind: "pos", posId: long.id, symbol: SYM, amount: 2.5, basePrice: p2 });
    const hist = (await (await fetch(`http://${base}/v2/liquidations/hist`)).json()) as unknown[][];
    const histRow = liquidationCodec.decode(hist[0]?.[0]);
    expect(histRow.ok && histRow.value.posId).toBe(long.id);
    const after = walletCodec.decode(
      await until(() => account("wu", mark).findLast((w) => (w as unknown[])[0] === "margin"), "wu"),
    );
    expect(after.ok && after.value.balance).toBeGreaterThanOrEqual(0);
    ws.close();
  });

  it("answers calc to a read-only API key (orders and positions read), which may not place orders", async () => {
    const user = accounts.byLogin(DEMO.username)?.id as number;
    accounts.createApiKey(user, "read", ["o:r", "p:r"], Date.now(), { key: "read-key", secret: "read-secret" });
    const ws = new WebSocket(`ws://${base}/ws/2`);
    const frames: unknown[][] = [];
    ws.on("message", (d) => {
      const m: unknown = JSON.parse(messageText(d));
      if (Array.isArray(m) && m[0] === 0) frames.push(m);
    });
    await new Promise((r) => ws.once("open", r));
    const nonce = String(Date.now() * 1000);
    const authPayload = `AUTH${nonce}`;
    const authSig = createHmac("sha384", "read-secret").update(authPayload).digest("hex");
    ws.send(JSON.stringify({ event: "auth", apiKey: "read-key", authSig, authNonce: nonce, authPayload }));
    await until(() => frames.find((f) => f[1] === "ps"), "ps");
    ws.send(JSON.stringify([0, "calc", null, [["margin_base"]]]));
    const miu = decodeMarginInfo(await until(() => frames.find((f) => f[1] === "miu")?.[2], "miu"));
    expect(miu.ok && miu.value.kind).toBe("base");
    ws.send(JSON.stringify([0, "on", null, { type: "MARKET", symbol: SYM, amount: "0.01" }]));
    const n = await until(() => frames.find((f) => f[1] === "n")?.[2] as unknown[] | undefined, "refusal");
    expect(n.slice(6)).toEqual(["ERROR", "apikey: permission denied"]);
    ws.close();
  });
});
