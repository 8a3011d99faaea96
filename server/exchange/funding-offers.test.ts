/**
 * Account funding over the wire: lend offers with `fon`/`foc` on the authenticated socket and over
 * REST, reserved against the funding wallet and released on cancel; an offer the simulated borrowers
 * take becomes credits with own funding trades; bad input refused in the real error shapes; open
 * offers and their reservation survive a restart on the same database.
 */
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import {
  decodeFundingInfo,
  fundingCreditCodec,
  fundingOfferCodec,
  fundingTradeCodec,
  notificationCodec,
  walletCodec,
} from "../../src/protocol/index.ts";
import { sharedBitfinexDir } from "./recordings.ts";
import { demoSession, wait } from "../test-support/session.ts";
import { openVenue } from "./venue.ts";

const { exchange, gateway } = openVenue({
  dbPath: ":memory:",
  seed: 5,
  markets: [{ symbol: "tBTCUSD", start: 30_000 }],
});
const demo = demoSession({ exchange, account: gateway });
const rest = demo.rest;
beforeAll(async () => {
  const moved = await rest("/v2/auth/w/transfer", {
    from: "exchange",
    to: "funding",
    currency: "USD",
    amount: "10000",
  });
  expect(moved.status).toBe(200);
});

const authed = demo.socket;

function fundingUsd(frames: readonly unknown[][]): { balance: number; available: number } | null {
  const last = frames.filter((f) => f[1] === "wu" && (f[2] as unknown[])[0] === "funding").pop();
  const d = last ? walletCodec.decode(last[2]) : null;
  return d?.ok ? { balance: d.value.balance, available: d.value.available } : null;
}

describe("funding offers", () => {
  it("reserves a lend offer against the funding wallet and releases it on cancel (socket)", async () => {
    const { ws, frames } = await authed();
    expect(frames.filter((f) => ["fos", "fcs", "fls"].includes(f[1] as string)).map((f) => [f[1], f[2]])).toEqual([
      ["fos", []],
      ["fcs", []],
      ["fls", []],
    ]);
    ws.send(
      JSON.stringify([
        0,
        "fon",
        null,
        { type: "LIMIT", symbol: "fUSD", amount: "1000", rate: "0.05", period: 30, flags: 0 },
      ]),
    );
    await wait(150);
    const req = frames.find((f) => f[1] === "n");
    const n = notificationCodec.decode(req?.[2]);
    expect(n.ok && [n.value.type, n.value.status]).toEqual(["fon-req", "SUCCESS"]);
    const fon = frames.find((f) => f[1] === "fon");
    const offer = fundingOfferCodec.decode(fon?.[2]);
    expect(offer.ok).toBe(true);
    if (!offer.ok) return;
    expect([offer.value.symbol, offer.value.amount, offer.value.rate, offer.value.period, offer.value.active]).toEqual([
      "fUSD",
      1000,
      0.05,
      30,
      true,
    ]);
    expect(fundingUsd(frames)).toEqual({ balance: 10000, available: 9000 });
    const listed = await rest("/v2/auth/r/funding/offers/fUSD");
    expect((listed.body as unknown[][]).map((o) => o[0])).toEqual([offer.value.id]);
    expect((await rest("/v2/auth/r/funding/offers/fBTC")).body).toEqual([]);
    // The offer is on the public funding book (an ask, positive) at its rate and period.
    expect(
      exchange.funding.markets
        .get("fUSD")
        ?.levels("P0", 250)
        .some((l) => l[0] === 0.05 && l[1] === 30),
    ).toBe(true);

    frames.length = 0;
    ws.send(JSON.stringify([0, "foc", null, { id: offer.value.id }]));
    await wait(150);
    const cn = notificationCodec.decode(frames.find((f) => f[1] === "n")?.[2]);
    expect(cn.ok && [cn.value.type, cn.value.status]).toEqual(["foc-req", "SUCCESS"]);
    const foc = fundingOfferCodec.decode(frames.find((f) => f[1] === "foc")?.[2]);
    expect(foc.ok && [foc.value.id, foc.value.status, foc.value.active]).toEqual([offer.value.id, "CANCELED", false]);
    expect(fundingUsd(frames)).toEqual({ balance: 10000, available: 10000 });
    expect((await rest("/v2/auth/r/funding/offers")).body).toEqual([]);
    expect(exchange.funding.markets.get("fUSD")?.engine.get(offer.value.id)).toBeUndefined();
    ws.close();
  });

  it("refuses bad offers in the real error shapes, without reserving anything", async () => {
    const base = { type: "LIMIT", symbol: "fUSD", amount: "500", rate: "0.001", period: 2 };
    const cases: [Record<string, unknown>, number, RegExp][] = [
      [{ ...base, period: 1 }, 10001, /period/],
      [{ ...base, period: 121 }, 10001, /period/],
      [{ ...base, period: 2.5 }, 10001, /period/],
      [{ ...base, amount: "-10" }, 10001, /minimum is 150/],
      [{ ...base, amount: "10" }, 10001, /minimum is 150/],
      [{ ...base, amount: "20000" }, 10001, /not enough balance/],
      [{ ...base, amount: "abc" }, 10020, /amount: invalid/],
      [{ ...base, rate: "0" }, 10001, /rate/],
      [{ ...base, rate: "0.5" }, 10001, /rate/],
      [{ ...base, type: "MARKET" }, 10001, /type/],
      [{ ...base, symbol: "fNOPE" }, 10020, /symbol: invalid/],
      [{ ...base, symbol: "tBTCUSD" }, 10020, /symbol: invalid/],
      [{ ...base, flags: "x" }, 10020, /flags/],
    ];
    for (const [body, code, msg] of cases) {
      const r = await rest("/v2/auth/w/funding/offer/submit", body);
      expect(r.status, JSON.stringify(body)).toBe(500);
      const [e, c, m] = r.body as [string, number, string];
      expect([e, c], JSON.stringify(body)).toEqual(["error", code]);
      expect(m).toMatch(msg);
    }
    expect(await rest("/v2/auth/w/funding/offer/cancel", { id: 987654 })).toEqual({
      status: 500,
      body: ["error", 10001, "Offer not found."],
    });
    const wallets = (await rest("/v2/auth/r/wallets")).body as unknown[][];
    const funding = wallets.find((w) => w[0] === "funding" && w[1] === "USD");
    expect([funding?.[2], funding?.[4]]).toEqual([10000, 10000]);

    // Over the socket the refusal is an ERROR notification, and no offer is sent.
    const { ws, frames } = await authed();
    frames.length = 0;
    ws.send(JSON.stringify([0, "fon", null, { ...base, period: 200 }]));
    ws.send(JSON.stringify([0, "foc", null, { id: "nope" }]));
    await wait(150);
    const notes = frames.filter((f) => f[1] === "n").map((f) => notificationCodec.decode(f[2]));
    expect(notes.map((n) => n.ok && [n.value.type, n.value.status])).toEqual([
      ["fon-req", "ERROR"],
      ["foc-req", "ERROR"],
    ]);
    expect(frames.some((f) => f[1] === "fon" || f[1] === "wu")).toBe(false);
    ws.close();
  });

  it("turns an offer the borrowers take into credits, keeping the lent amount reserved", async () => {
    const { ws, frames } = await authed();
    frames.length = 0;
    const submitted = await rest("/v2/auth/w/funding/offer/submit", {
      type: "LIMIT",
      symbol: "fUSD",
      amount: "600",
      rate: "0.00001",
      period: 120,
    });
    expect(submitted.status).toBe(200);
    const n = notificationCodec.decode(submitted.body);
    expect(n.ok && [n.value.type, n.value.status]).toEqual(["fon-req", "SUCCESS"]);
    const id = ((submitted.body as unknown[])[4] as unknown[])[0] as number;
    for (let i = 0; i < 200 && frames.every((f) => f[1] !== "foc"); i++) {
      exchange.simulator.step();
      await wait(5);
    }
    await wait(100);
    const trades = frames.filter((f) => f[1] === "fte").map((f) => fundingTradeCodec.decode(f[2]));
    expect(trades.length).toBeGreaterThan(0);
    expect(trades.every((t) => t.ok && t.value.offer_id === id && t.value.symbol === "fUSD")).toBe(true);
    const credits = frames.filter((f) => f[1] === "fcn").map((f) => fundingCreditCodec.decode(f[2]));
    expect(credits.every((c) => c.ok && c.value.side === 1 && c.value.status === "ACTIVE")).toBe(true);
    const lent = credits.reduce((s, c) => s + (c.ok ? c.value.amount : 0), 0);
    expect(Math.round(lent * 1e8) / 1e8).toBe(600);
    const done = fundingOfferCodec.decode(frames.find((f) => f[1] === "foc")?.[2]);
    expect(done.ok && [done.value.id, done.value.amount, done.value.status?.startsWith("EXECUTED")]).toEqual([
      id,
      0,
      true,
    ]);
    const listed = (await rest("/v2/auth/r/funding/credits")).body as unknown[];
    expect(fundingCreditCodec.decodeList(listed).ok).toBe(true);
    expect(listed).toHaveLength(credits.length);
    expect(fundingTradeCodec.decodeList((await rest("/v2/auth/r/funding/trades/fUSD/hist")).body).ok).toBe(true);
    expect((await rest("/v2/auth/r/funding/loans")).body).toEqual([]);
    const info = decodeFundingInfo((await rest("/v2/auth/r/info/funding/fUSD")).body);
    expect(info.ok && (info.value.yieldLend ?? 0) > 0 && (info.value.durationLend ?? 0) > 1).toBe(true);
    expect(await rest("/v2/auth/r/info/funding/fNOPE")).toEqual({
      status: 500,
      body: ["error", 10020, "symbol: invalid"],
    });
    frames.length = 0;
    ws.send(JSON.stringify([0, "calc", null, [["funding_sym_fUSD"], ["funding_sym_fNOPE"]]]));
    await wait(150);
    const fiu = frames.filter((f) => f[1] === "fiu").map((f) => decodeFundingInfo(f[2]));
    expect(fiu.map((d) => d.ok && d.value.symbol)).toEqual(["fUSD"]);
    const hist = (await rest("/v2/auth/r/funding/offers/hist")).body as unknown[];
    expect(fundingOfferCodec.decodeList(hist).ok).toBe(true);
    expect(hist.some((o) => (o as unknown[])[0] === id)).toBe(true);
    const wallets = (await rest("/v2/auth/r/wallets")).body as unknown[][];
    const funding = wallets.find((w) => w[0] === "funding" && w[1] === "USD");
    expect([funding?.[2], funding?.[4]]).toEqual([10000, 9400]);
    ws.close();
  });

  it("places FRR offers at the flash return rate plus their delta, and hidden offers off the books", async () => {
    const frr = exchange.funding.markets.get("fUSD")?.frr() as number;
    const r = await rest("/v2/auth/w/funding/offer/submit", {
      type: "FRRDELTAVAR",
      symbol: "fUSD",
      amount: "300",
      rate: "0.01",
      period: 2,
    });
    expect(r.status).toBe(200);
    const o = fundingOfferCodec.decode((r.body as unknown[])[4]);
    expect(o.ok && [o.value.type, o.value.rate, o.value.rateReal]).toEqual([
      "FRRDELTAVAR",
      0.01,
      Number((frr + 0.01).toPrecision(8)),
    ]);
    if (o.ok) expect((await rest("/v2/auth/w/funding/offer/cancel", { id: o.value.id })).status).toBe(200);

    // A hidden offer (flag 64) rests but stays off the public books.
    const h = await rest("/v2/auth/w/funding/offer/submit", {
      type: "LIMIT",
      symbol: "fUSD",
      amount: "300",
      rate: "0.0333",
      period: 2,
      flags: 64,
    });
    const ho = fundingOfferCodec.decode((h.body as unknown[])[4]);
    expect(ho.ok && [ho.value.hidden, ho.value.flags]).toEqual([true, 64]);
    const market = exchange.funding.markets.get("fUSD");
    expect(ho.ok && market?.engine.get(ho.value.id)?.remaining).toBe(300);
    expect(market?.levels("P0", 1000).some((l) => l[0] === 0.0333)).toBe(false);
    expect(market?.rawOffers(1000).some((r) => ho.ok && r[0] === ho.value.id)).toBe(false);
    if (ho.ok) expect((await rest("/v2/auth/w/funding/offer/cancel", { id: ho.value.id })).status).toBe(200);
  });

  it("sends account funding frames in the shapes of the recorded examples", async () => {
    const shared = sharedBitfinexDir();
    const file = shared ? join(shared, "ws-message-examples.jsonl") : null;
    if (!file || !existsSync(file)) return;
    const examples = readFileSync(file, "utf8")
      .split("\n")
      .filter((l) => l.trim() !== "")
      .map((l) => JSON.parse(l) as { dir: string; what: string; frame: string });
    const example = (what: string): unknown[] =>
      JSON.parse((examples.find((e) => e.dir === "s2c" && e.what === what) as { frame: string }).frame) as unknown[];
    const same = (ours: unknown, theirs: unknown): boolean => {
      if (ours === null || theirs === null) return true;
      if (Array.isArray(theirs))
        return Array.isArray(ours) && ours.length === theirs.length && theirs.every((t, i) => same(ours[i], t));
      return typeof ours === typeof theirs;
    };
    const { ws, frames } = await authed();
    ws.send(
      JSON.stringify([0, "fon", null, { type: "LIMIT", symbol: "fUSD", amount: "400", rate: "0.04", period: 2 }]),
    );
    ws.send(
      JSON.stringify([0, "fon", null, { type: "LIMIT", symbol: "fUSD", amount: "200", rate: "0.00001", period: 120 }]),
    );
    await wait(200);
    const again = await authed();
    const first = (type: string, list: readonly unknown[][] = frames): unknown[] | undefined =>
      list.find((f) => f[1] === type || (f[1] === "n" && (f[2] as unknown[])[1] === type));
    const fos = first("fos", again.frames) as unknown[];
    const fcs = first("fcs", again.frames) as unknown[];
    expect((fos[2] as unknown[]).length).toBeGreaterThan(0);
    expect((fcs[2] as unknown[]).length).toBeGreaterThan(0);
    // Lists: every record has the example's record shape.
    expect((fos[2] as unknown[]).every((o) => same(o, (example("funding offer snapshot")[2] as unknown[])[0]))).toBe(
      true,
    );
    expect((fcs[2] as unknown[]).every((c) => same(c, (example("funding credit snapshot")[2] as unknown[])[0]))).toBe(
      true,
    );
    expect(same(first("fon"), example("fon"))).toBe(true);
    expect(same(first("fon-req"), example("fon-req notification"))).toBe(true);
    expect(same(first("fte"), example("funding trade (fte)"))).toBe(true);
    ws.send(JSON.stringify([0, "calc", null, [["funding_sym_fUSD"]]]));
    await wait(100);
    expect(same(first("fiu"), example("funding info"))).toBe(true);
    ws.close();
    again.ws.close();
  });

  it("closes a credit when its period is over and pays the interest into the funding wallet", () => {
    let clock = Date.now();
    const v = openVenue({
      dbPath: ":memory:",
      seed: 8,
      now: () => clock,
      markets: [{ symbol: "tBTCUSD", start: 30_000 }],
    });
    const user = v.seeded as number;
    const events: [string, unknown][] = [];
    v.events.onEvent((u, type, payload) => {
      if (u === user) events.push([type, payload]);
    });
    v.balances.funds((move) => {
      move(user, "exchange", "USD", -100_000_000_000, "to funding");
      move(user, "funding", "USD", 100_000_000_000, "from exchange");
    });
    const r = v.funding?.submit(user, {
      type: "LIMIT",
      symbol: "fUSD",
      amount: "800",
      rate: "0.00001",
      period: 120,
    });
    expect(r?.ok).toBe(true);
    for (let i = 0; i < 300 && (v.funding?.offersWire(user).length ?? 0) > 0; i++) v.exchange.simulator.step();
    const credits = (v.credits.creditsWire(user) ?? []).map((c) => fundingCreditCodec.decode(c));
    expect(credits.length).toBeGreaterThan(0);
    expect(v.balances.available(user, "funding", "USD")).toBe(100_000_000_000 - 80_000_000_000);
    const interest = credits.reduce(
      (s, c) => s + (c.ok ? Math.floor(c.value.amount * 1e8 * c.value.rate * c.value.period * 0.85) : 0),
      0,
    );
    expect(interest).toBeGreaterThan(0);

    clock += 121 * 86_400_000;
    events.length = 0;
    v.exchange.simulator.step();
    expect(v.credits.creditsWire(user)).toEqual([]);
    const closed = events.filter(([t]) => t === "fcc").map(([, p]) => fundingCreditCodec.decode(p));
    expect(closed.map((c) => c.ok && c.value.status)).toEqual(credits.map(() => "CLOSED (expired)"));
    expect(v.balances.available(user, "funding", "USD")).toBe(100_000_000_000 + interest);
    const last = events.filter(([t]) => t === "wu").pop();
    const w = walletCodec.decode(last?.[1]);
    expect(w.ok && [w.value.type, w.value.balance, w.value.available]).toEqual([
      "funding",
      (100_000_000_000 + interest) / 1e8,
      (100_000_000_000 + interest) / 1e8,
    ]);
    const ledger = v.balances.ledgersWire(user, "USD", 1)[0];
    expect(ledger?.[8]).toBe("Margin Funding Payment on wallet funding");
    v.db.close();
  });

  it("numbers funding trades on after a restart, never reusing an id", () => {
    const dbPath = join(mkdtempSync(join(tmpdir(), "funding-ids-")), "x.db");
    const markets = [{ symbol: "tBTCUSD", start: 30_000 }];
    const lendAndTake = (v: ReturnType<typeof openVenue>, user: number): number[] => {
      v.balances.funds((move) => {
        move(user, "exchange", "USD", -30_000_000_000, "to funding");
        move(user, "funding", "USD", 30_000_000_000, "from exchange");
      });
      const r = v.funding?.submit(user, { type: "LIMIT", symbol: "fUSD", amount: "200", rate: "0.00001", period: 2 });
      expect(r?.ok, JSON.stringify(r)).toBe(true);
      for (let i = 0; i < 300 && (v.funding?.offersWire(user).length ?? 0) > 0; i++) v.exchange.simulator.step();
      return (
        v.db.prepare("SELECT trade_id FROM funding_trades WHERE user_id = ?").all(user) as { trade_id: number }[]
      ).map((t) => t.trade_id);
    };
    const first = openVenue({ dbPath, seed: 3, markets });
    const user = first.seeded as number;
    const before = lendAndTake(first, user);
    expect(before.length).toBeGreaterThan(0);
    first.db.close();

    const second = openVenue({ dbPath, seed: 3, markets });
    const after = lendAndTake(second, user).filter((id) => !before.includes(id));
    const all = lendAndTake(second, user);
    // The second run's trades have ids of their own, above every stored one.
    expect(after.length).toBeGreaterThan(0);
    expect(Math.min(...after)).toBeGreaterThan(Math.max(...before));
    expect(new Set(all).size).toBe(all.length);
    second.db.close();
  });

  it("keeps open offers and their reservation through a restart on the same database", () => {
    const dbPath = join(mkdtempSync(join(tmpdir(), "funding-")), "x.db");
    const markets = [{ symbol: "tBTCUSD", start: 30_000 }];
    const first = openVenue({ dbPath, seed: 3, markets });
    const user = first.seeded as number;
    first.balances.funds((move) => {
      move(user, "exchange", "USD", -100_000_000_000, "to funding");
      move(user, "funding", "USD", 100_000_000_000, "from exchange");
    });
    const r = first.funding?.submit(user, {
      type: "LIMIT",
      symbol: "fUSD",
      amount: "700",
      rate: "0.06",
      period: 7,
    });
    expect(r?.ok).toBe(true);
    first.db.close();

    const second = openVenue({ dbPath, seed: 3, markets });
    const offers = second.funding?.offersWire(user) ?? [];
    expect(offers).toHaveLength(1);
    const o = fundingOfferCodec.decode(offers[0]);
    expect(o.ok && [o.value.amount, o.value.rate, o.value.period]).toEqual([700, 0.06, 7]);
    expect(second.balances.available(user, "funding", "USD")).toBe(30_000_000_000);
    expect(o.ok && second.exchange.funding.markets.get("fUSD")?.engine.get(o.value.id)?.remaining).toBe(700);
    expect(
      second.exchange.funding.markets
        .get("fUSD")
        ?.levels("P0", 250)
        .some((l) => l[0] === 0.06 && l[1] === 7),
    ).toBe(true);
    second.db.close();
  });
});
