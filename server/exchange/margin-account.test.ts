/**
 * The margin account over the wire: margin info (`miu`) follows a plain transfer into the margin
 * wallet; a socket authenticated with `calc: 1` gets positions and wallets without their calculated
 * fields and no margin info until it asks with `calc` (answered to it alone); `w/position/claim`
 * settles a position with own funds; API keys need the positions permission for positions calls;
 * liquidation history survives a restart.
 */
import { createHmac } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  balanceCodec,
  decodeMarginInfo,
  liquidationCodec,
  notificationCodec,
  positionCodec,
  walletCodec,
} from "../../src/protocol/index.ts";
import { allows, permissionsWire, requiredCap } from "../api-keys.ts";
import { toUnits } from "../store/db.ts";
import { listenApi } from "../test-support/api.ts";
import { demoSession, wait } from "../test-support/session.ts";
import { openVenue } from "./venue.ts";

const SYM = "tBTCUSD";

describe("margin account over the wire", () => {
  const { exchange, gateway, accounts } = openVenue({
    dbPath: ":memory:",
    seed: 31,
    markets: [{ symbol: SYM, start: 30_000 }],
  });
  const engine = exchange.markets.get(SYM)?.engine;
  const demo = demoSession({ exchange, account: gateway });
  const rest = demo.rest;

  const socket = demo.socket;
  const of = (frames: readonly unknown[][], type: string) => frames.filter((f) => f[1] === type).map((f) => f[2]);
  const inside = (): number => {
    const bid = engine?.bestBid() as number;
    const ask = engine?.bestAsk() as number;
    return Math.round((bid + ask) / 2);
  };

  it("pushes miu after a transfer, honours the calc flag, and claims a position", async () => {
    const a = await socket({});
    const b = await socket({ calc: 1 });
    // The calc socket gets no margin info unasked, and wallets without their available balance.
    expect(of(a.frames, "miu").length).toBeGreaterThan(0);
    expect(of(b.frames, "miu")).toEqual([]);
    const ws = of(b.frames, "ws")[0] as unknown[][];
    expect(ws.length).toBeGreaterThan(0);
    expect(ws.every((w) => w[4] === null)).toBe(true);
    a.frames.length = 0;
    b.frames.length = 0;

    expect(
      (await rest("/v2/auth/w/transfer", { from: "exchange", to: "margin", currency: "USD", amount: "10000" })).status,
    ).toBe(200);
    await wait(150);
    const infos = of(a.frames, "miu").map((m) => decodeMarginInfo(m));
    const base = infos.map((d) => (d.ok ? d.value : null)).find((i) => i?.kind === "base");
    expect(base?.kind === "base" && base.balance).toBe(10_000);
    expect(infos.some((d) => d.ok && d.value.kind === "sym" && d.value.symbol === SYM)).toBe(true);
    expect(of(b.frames, "miu")).toEqual([]);
    const wu = of(b.frames, "wu").map((w) => walletCodec.decode(w));
    expect(wu.some((w) => w.ok && w.value.type === "margin" && w.value.balance === 10_000)).toBe(true);
    expect(of(b.frames, "wu").every((w) => (w as unknown[])[4] === null)).toBe(true);

    // A long: the normal socket gets its P/L and leverage, the calc socket nulls.
    a.frames.length = 0;
    b.frames.length = 0;
    const price = inside();
    exchange.place(SYM, -901, "sell", "LIMIT", price, 0.5);
    const placed = await rest("/v2/auth/w/order/submit", {
      type: "LIMIT",
      symbol: SYM,
      amount: "0.5",
      price: String(price),
    });
    expect(placed.status).toBe(200);
    await wait(200);
    const pnA = positionCodec.decode(of(a.frames, "pn")[0]);
    expect(pnA.ok && typeof pnA.value.pl === "number" && typeof pnA.value.leverage === "number").toBe(true);
    const pnB = of(b.frames, "pn")[0] as unknown[];
    expect([pnB[0], pnB[2], pnB[6], pnB[7], pnB[8], pnB[9]]).toEqual([SYM, 0.5, null, null, null, null]);
    expect(of(b.frames, "miu")).toEqual([]);

    // Asked: the calc socket alone gets the values.
    a.frames.length = 0;
    b.ws.send(
      JSON.stringify([0, "calc", null, [["position_tBTCUSD"], ["margin_base"], ["wallet_margin_USD"], ["balance"]]]),
    );
    await wait(150);
    const pu = positionCodec.decode(of(b.frames, "pu").pop());
    expect(pu.ok && typeof pu.value.pl === "number" && typeof pu.value.liqPrice === "number").toBe(true);
    // balance: every wallet in USD (the demo's USD alone is 100 000), and with the position's P/L.
    const bu = balanceCodec.decode(of(b.frames, "bu")[0]);
    expect(bu.ok && bu.value.aum).toBeGreaterThan(100_000);
    expect(bu.ok && pu.ok && bu.value.aumNet - bu.value.aum).toBeCloseTo(pu.ok ? (pu.value.pl ?? 0) : Number.NaN, 4);
    expect(of(b.frames, "miu").length).toBe(1);
    const asked = of(b.frames, "wu").pop() as unknown[];
    expect([asked[0], asked[1], typeof asked[4]]).toEqual(["margin", "USD", "number"]);
    expect(of(a.frames, "miu")).toEqual([]);

    // Claim: the whole position needs 15 000 USD the wallet does not have; 0.2 of it does.
    const pos = positionCodec.decode((((await rest("/v2/auth/r/positions")).body as unknown[]) ?? [])[0]);
    if (!pos.ok) throw new Error("position");
    const refused = await rest("/v2/auth/w/position/claim", { id: pos.value.id });
    expect(refused.status).toBe(500);
    expect((refused.body as unknown[])[2]).toMatch(/not enough balance/);
    expect((await rest("/v2/auth/w/position/claim", { id: 123456 })).body).toEqual([
      "error",
      10001,
      "Position not found.",
    ]);
    const wallets = async () => (await rest("/v2/auth/r/wallets")).body as unknown[][];
    const usdBefore = (await wallets()).find((w) => w[0] === "margin" && w[1] === "USD")?.[2] as number;
    const claimed = await rest("/v2/auth/w/position/claim", { id: pos.value.id, amount: "0.2" });
    expect(claimed.status).toBe(200);
    const n = notificationCodec.decode(claimed.body);
    expect(n.ok && [n.value.type, n.value.status]).toEqual(["pos_claim", "SUCCESS"]);
    const left = positionCodec.decode((claimed.body as unknown[])[4]);
    expect(left.ok && left.value.amount).toBeCloseTo(0.3, 8);
    const after = await wallets();
    expect(after.find((w) => w[0] === "margin" && w[1] === "BTC")?.[2]).toBe(0.2);
    const usdAfter = after.find((w) => w[0] === "margin" && w[1] === "USD")?.[2] as number;
    expect(toUnits(usdBefore) - toUnits(usdAfter)).toBeGreaterThanOrEqual(Math.round(0.2 * pos.value.basePrice * 1e8));
    a.ws.close();
    b.ws.close();
  });

  it("asks API keys for the positions permission on positions calls", async () => {
    const user = (await rest("/v2/auth/r/info/user")).body as unknown[];
    const id = user[0] as number;
    const call = async (key: { key: string; secret: string }, path: string) => {
      const nonce = String(Date.now() * 1000 + Math.floor(Math.random() * 1000));
      const raw = "{}";
      const sig = createHmac("sha384", key.secret).update(`/api${path}${nonce}${raw}`).digest("hex");
      const r = await fetch(`http://${demo.host}${path}`, {
        method: "POST",
        headers: {
          "bfx-apikey": key.key,
          "bfx-nonce": nonce,
          "bfx-signature": sig,
          "content-type": "application/json",
        },
        body: raw,
      });
      return [r.status, (await r.json()) as unknown] as const;
    };
    const orders = accounts.createApiKey(id, "orders only", ["o", "a"], Date.now());
    const positions = accounts.createApiKey(id, "positions read", ["p:r"], Date.now());
    expect(await call(orders, "/v2/auth/r/positions")).toEqual([
      500,
      ["error", 10100, "apikey: permission denied for this call"],
    ]);
    const [status, body] = await call(positions, "/v2/auth/r/positions");
    expect(status).toBe(200);
    expect(positionCodec.decodeList(body).ok).toBe(true);
    expect((await call(positions, "/v2/auth/r/info/margin/base"))[0]).toBe(200);
    expect((await call(positions, "/v2/auth/r/orders"))[0]).toBe(500);
    expect(requiredCap("/v2/auth/w/position/claim")).toEqual({ cap: "p", write: true });
    expect(allows(["p:r"], requiredCap("/v2/auth/w/position/claim"))).toBe(false);
    expect(permissionsWire(["p:r"]).find(([s]) => s === "positions")).toEqual(["positions", 1, 0]);
    expect(permissionsWire(["o"]).find(([s]) => s === "positions")).toEqual(["positions", 0, 0]);
  });
});

describe("liquidation history", () => {
  it("keeps liquidations in SQLite across a restart and serves them from liquidations/hist", async () => {
    const dbPath = join(mkdtempSync(join(tmpdir(), "liq-")), "x.db");
    let clock = 1_800_000_000_000;
    const markets = [{ symbol: SYM, start: 30_000 }];
    const first = openVenue({ dbPath, seed: 4, now: () => clock, markets });
    const user = first.seeded as number;
    first.balances.funds((move) => {
      move(user, "exchange", "USD", -toUnits(10_000), "to margin");
      move(user, "margin", "USD", toUnits(10_000), "from exchange");
    });
    const e = first.exchange.markets.get(SYM)?.engine;
    const price = Math.round(((e?.bestBid() as number) + (e?.bestAsk() as number)) / 2);
    first.exchange.place(SYM, -901, "sell", "LIMIT", price, 3);
    expect(first.orders.place(user, { type: "LIMIT", symbol: SYM, amount: 3, price }).ok).toBe(true);
    const crash = Math.floor(price * 0.9);
    clock += 5_000;
    first.exchange.place(SYM, -901, "sell", "LIMIT", crash, 1_000);
    first.exchange.place(SYM, -902, "buy", "LIMIT", crash, 0.01);
    expect(first.positions.wireAll(user)).toEqual([]);
    // The feed shows a liquidation once its transaction has committed (a microtask later).
    await new Promise((r) => setTimeout(r, 0));
    const rows = [...first.exchange.liquidations.recent];
    expect(rows).toHaveLength(1);
    first.db.close();

    const second = openVenue({ dbPath, seed: 4, now: () => clock, markets });
    expect(second.exchange.liquidations.recent).toEqual(rows);
    const liq = liquidationCodec.decode(second.exchange.liquidations.recent[0]);
    expect(liq.ok && [liq.value.symbol, liq.value.amount, liq.value.basePrice]).toEqual([SYM, 3, price]);
    const { api, host } = await listenApi({ exchange: second.exchange, account: second.gateway });
    const hist = (await (await fetch(`http://${host}/v2/liquidations/hist`)).json()) as unknown[];
    expect(hist).toEqual([rows[0]].map((r) => [r]));
    await api.close();
    second.db.close();
  });
});
