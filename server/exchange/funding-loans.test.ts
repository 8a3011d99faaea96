/**
 * Funding loans: a borrow offer over the socket becomes a loan (`fln`, `fls`, REST loans) and is
 * closed early over REST; a margin position beyond the margin wallet's own funds borrows at the FRR
 * — from an account's lend offer first (its credit linked to the position) — its swap accrues the
 * interest charged each simulated day, and closing it repays the loans and the lender (less 15 %).
 * The clock tests drive the venue directly on a clock they move (a token would expire over days).
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  fundingCreditCodec,
  fundingLoanCodec,
  fundingOfferCodec,
  fundingTradeCodec,
  decodeMarginInfo,
  notificationCodec,
  positionCodec,
  type FundingLoan,
  type Position,
} from "../../src/protocol/index.ts";
import { fromUnits, toUnits } from "../store/db.ts";
import { LENDER_FEE } from "./funding-credits.ts";
import { demoSession, wait } from "../test-support/session.ts";
import { openVenue, type Venue } from "./venue.ts";

const SYM = "tBTCUSD";
const DAY = 86_400_000;

describe("borrow offers over the wire", () => {
  const { exchange, gateway } = openVenue({
    dbPath: ":memory:",
    seed: 5,
    markets: [{ symbol: SYM, start: 30_000 }],
  });
  const demo = demoSession({ exchange, account: gateway });
  const rest = demo.rest;

  const authed = demo.socket;

  it("turns a borrow offer into a loan, lists it, and closes it early", async () => {
    const { ws, frames } = await authed();
    expect(frames.find((f) => f[1] === "fls")?.[2]).toEqual([]);
    const walletsBefore = (await rest("/v2/auth/r/wallets")).body;
    // A borrower paying up to 1 % a day takes the cheapest simulated lend offers at once.
    ws.send(
      JSON.stringify([0, "fon", null, { type: "LIMIT", symbol: "fUSD", amount: "-500", rate: "0.01", period: 2 }]),
    );
    await wait(200);
    const n = notificationCodec.decode(frames.find((f) => f[1] === "n")?.[2]);
    expect(n.ok && [n.value.type, n.value.status]).toEqual(["fon-req", "SUCCESS"]);
    const fon = fundingOfferCodec.decode(frames.find((f) => f[1] === "fon")?.[2]);
    expect(fon.ok && [fon.value.amount, fon.value.amountOrig]).toEqual([-500, -500]);
    const trades = frames.filter((f) => f[1] === "fte").map((f) => fundingTradeCodec.decode(f[2]));
    expect(trades.length).toBeGreaterThan(0);
    expect(trades.every((t) => t.ok && t.value.amount < 0 && t.value.rate <= 0.01)).toBe(true);
    const foc = fundingOfferCodec.decode(frames.find((f) => f[1] === "foc")?.[2]);
    expect(foc.ok && [foc.value.amount, foc.value.status?.startsWith("EXECUTED")]).toEqual([0, true]);
    const opened = frames.filter((f) => f[1] === "fln").map((f) => fundingLoanCodec.decode(f[2]));
    expect(opened.length).toBe(trades.length);
    const loans = opened.map((l) => (l.ok ? l.value : null)) as FundingLoan[];
    expect(loans.every((l) => l.side === -1 && l.status === "ACTIVE" && l.symbol === "fUSD" && l.period === 2)).toBe(
      true,
    );
    expect(Math.round(loans.reduce((s, l) => s + l.amount, 0) * 1e8) / 1e8).toBe(500);
    // Borrowing reserves nothing and credits nothing: the wallets are as they were.
    expect((await rest("/v2/auth/r/wallets")).body).toEqual(walletsBefore);

    const listed = (await rest("/v2/auth/r/funding/loans/fUSD")).body as unknown[];
    expect(fundingLoanCodec.decodeList(listed).ok).toBe(true);
    expect(listed.map((l) => (l as unknown[])[0]).sort()).toEqual(loans.map((l) => l.id).sort());
    expect((await rest("/v2/auth/r/funding/loans/fBTC")).body).toEqual([]);
    const again = await authed();
    const fls = again.frames.find((f) => f[1] === "fls")?.[2] as unknown[];
    expect(fundingLoanCodec.decodeList(fls).ok && fls.length).toBe(loans.length);
    again.ws.close();

    // Closing one early: flc, off the list, in the history.
    const first = loans[0] as FundingLoan;
    frames.length = 0;
    const closed = await rest("/v2/auth/w/funding/close", { id: first.id });
    expect(closed.status).toBe(200);
    const cn = notificationCodec.decode(closed.body);
    expect(cn.ok && cn.value.status).toBe("SUCCESS");
    await wait(100);
    const flc = fundingLoanCodec.decode(frames.find((f) => f[1] === "flc")?.[2]);
    expect(flc.ok && [flc.value.id, flc.value.status]).toEqual([first.id, "CLOSED (closed)"]);
    expect(((await rest("/v2/auth/r/funding/loans")).body as unknown[]).length).toBe(loans.length - 1);
    const hist = (await rest("/v2/auth/r/funding/loans/hist")).body as unknown[];
    expect(hist.map((l) => (l as unknown[])[0])).toContain(first.id);
    expect(await rest("/v2/auth/w/funding/close", { id: first.id })).toEqual({
      status: 500,
      body: ["error", 10001, "Funding not found."],
    });
    expect((await rest("/v2/auth/w/funding/close", { id: "x" })).status).toBe(500);
    ws.close();
  });
});

/** A venue on a clock the test moves, the demo account funded in margin and a lender account. */
function clockVenue(dbPath = ":memory:") {
  let clock = 1_800_000_000_000;
  const v = openVenue({ dbPath, seed: 9, now: () => clock, markets: [{ symbol: SYM, start: 30_000 }] });
  const events: [number, string, unknown][] = [];
  v.events.onEvent((u, t, p) => events.push([u, t, p]));
  return { v, events, tick: (ms: number) => (clock += ms), now: () => clock };
}

function engineOf(v: Venue) {
  const engine = v.exchange.markets.get(SYM)?.engine;
  if (!engine) throw new Error("market");
  return engine;
}

/** A margin order filled at a price inside the spread against liquidity the test provides. */
function trade(v: Venue, user: number, amount: number): number {
  const engine = engineOf(v);
  const bid = engine.bestBid() as number;
  const ask = engine.bestAsk() as number;
  const price = Math.round((bid + ask) / 2);
  v.exchange.place(SYM, -901, amount > 0 ? "sell" : "buy", "LIMIT", price, Math.abs(amount));
  const r = v.orders.place(user, { type: "LIMIT", symbol: SYM, amount, price });
  if (!r.ok) throw new Error(r.msg);
  return price;
}

function position(v: Venue, user: number): Position {
  const d = positionCodec.decode(v.positions.wireAll(user)[0]);
  if (!d.ok) throw new Error("position");
  return d.value;
}

const loansOf = (v: Venue, user: number): FundingLoan[] =>
  (v.loans?.loansWire(user) ?? []).map((l) => {
    const d = fundingLoanCodec.decode(l);
    if (!d.ok) throw new Error("loan");
    return d.value;
  });

describe("positions backed by funding", () => {
  it("borrows beyond own funds at the FRR, lender account first, charges daily, repays on close", async () => {
    const { v, events, tick } = clockVenue();
    const user = v.seeded as number;
    const lender = v.accounts.createUser("lender@example.com", "lender", "pw-123456", Date.now(), true);
    v.balances.funds((move) => {
      move(user, "exchange", "USD", -toUnits(5000), "to margin");
      move(user, "margin", "USD", toUnits(5000), "from exchange");
      move(lender, "funding", "USD", toUnits(50_000), "Deposit");
    });
    // A rate over the best borrower's (so it rests) and under the FRR and every other lender's.
    const fm = v.exchange.funding.markets.get("fUSD");
    if (!fm) throw new Error("fUSD");
    const bid = Math.max(...fm.engine.borrows.map((o) => o.rate));
    const cap = Math.min(fm.frr(), ...fm.engine.lends.map((o) => o.rate));
    const rate = Number(((bid + cap) / 2).toPrecision(5));
    expect(rate > bid && rate < cap).toBe(true);
    const lent = v.funding?.submit(lender, {
      type: "LIMIT",
      symbol: "fUSD",
      amount: "20000",
      rate: String(rate),
      period: 30,
    });
    expect(lent?.ok).toBe(true);

    // Long 1 BTC at ~30 000 with 5 000 USD of own funds: the rest is borrowed.
    const price = trade(v, user, 1);
    await wait(0);
    const own = v.positions.marginBalance(user, "USD");
    const loans = loansOf(v, user);
    const borrowed = loans.reduce((s, l) => s + toUnits(l.amount), 0);
    expect(borrowed).toBe(toUnits(price) - own);
    // The cheapest lend offer on the book is the lender account's: its 20 000 go first.
    const fromLender = loans.find((l) => l.rate === rate);
    expect(fromLender?.amount).toBe(20_000);
    expect(loans.every((l) => l.side === -1 && l.status === "ACTIVE" && l.period === 2)).toBe(true);
    const credits = (v.credits.creditsWire(lender) ?? []).map((c) => fundingCreditCodec.decode(c));
    expect(credits.map((c) => c.ok && [c.value.amount, c.value.rate, c.value.positionPair])).toEqual([
      [20_000, rate, SYM],
    ]);
    expect(v.balances.available(lender, "funding", "USD")).toBe(toUnits(30_000));
    expect(events.some(([u, t]) => u === user && t === "fln")).toBe(true);
    expect(position(v, user).swap).toBe(0);

    // A simulated day: interest charged to the margin wallet, the swap shows it, the lender paid.
    const expected = loans.reduce((s, l) => s + toUnits(l.amount) * l.rate, 0);
    const before = v.balances.available(user, "margin", "USD");
    const lenderBefore = v.balances.available(lender, "funding", "USD");
    tick(DAY);
    events.length = 0;
    v.exchange.simulator.step();
    await wait(0);
    const charged = before - v.balances.available(user, "margin", "USD");
    expect(charged).toBeGreaterThan(0);
    expect(Math.abs(charged - expected)).toBeLessThan(loans.length + 2);
    expect(position(v, user).swap).toBeCloseTo(-fromUnits(charged), 6);
    expect(events.some(([u, t]) => u === user && t === "flu")).toBe(true);
    expect(v.balances.ledgersWire(user, "USD", 5).some((l) => l[8] === "Margin Funding Charge on wallet margin")).toBe(
      true,
    );
    const paid = v.balances.available(lender, "funding", "USD") - lenderBefore;
    expect(paid).toBe(Math.floor(toUnits(20_000) * rate * (1 - LENDER_FEE)));
    const base = decodeMarginInfo(v.positions.marginBase(user));
    expect(base.ok && base.value.kind === "base" && base.value.swap).toBeCloseTo(-fromUnits(charged), 6);

    // Half a day more, then the position closes: loans closed with the last interest, lender repaid.
    tick(DAY / 2);
    events.length = 0;
    trade(v, user, -1);
    await wait(0);
    expect(loansOf(v, user)).toEqual([]);
    const flc = events.filter(([u, t]) => u === user && t === "flc").map(([, , p]) => fundingLoanCodec.decode(p));
    expect(flc.map((l) => l.ok && l.value.status)).toEqual(loans.map(() => "CLOSED (used)"));
    const pc = events.find(([u, t]) => u === user && t === "pc");
    const closedPos = positionCodec.decode(pc?.[2]);
    expect(closedPos.ok && closedPos.value.swap).toBeLessThan(-fromUnits(charged));
    const fcc = events.filter(([u, t]) => u === lender && t === "fcc").map(([, , p]) => fundingCreditCodec.decode(p));
    expect(fcc.map((c) => c.ok && c.value.status)).toEqual(["CLOSED (used)"]);
    expect(v.credits.creditsWire(lender)).toEqual([]);
    const halfDay = Math.floor(toUnits(20_000) * rate * 0.5 * (1 - LENDER_FEE));
    expect(v.balances.available(lender, "funding", "USD")).toBe(lenderBefore + toUnits(20_000) + paid + halfDay);
    v.db.close();
  });

  it("uses own margin funds first, repays on a reduce, and keeps loans through a restart", async () => {
    const dbPath = join(mkdtempSync(join(tmpdir(), "loans-")), "x.db");
    const first = clockVenue(dbPath);
    const user = first.v.seeded as number;
    first.v.balances.funds((move) => {
      move(user, "exchange", "USD", -toUnits(40_000), "to margin");
      move(user, "margin", "USD", toUnits(40_000), "from exchange");
    });
    // Fully covered by own funds: nothing borrowed.
    trade(first.v, user, 1);
    await wait(0);
    expect(loansOf(first.v, user)).toEqual([]);
    // A second BTC goes beyond them: only the excess is borrowed.
    trade(first.v, user, 1);
    await wait(0);
    const pos = position(first.v, user);
    const own = first.v.positions.marginBalance(user, "USD");
    const borrowed = loansOf(first.v, user).reduce((s, l) => s + toUnits(l.amount), 0);
    expect(borrowed).toBe(Math.round(2 * pos.basePrice * 1e8) - own);
    const ids = loansOf(first.v, user).map((l) => l.id);
    first.v.db.close();

    const second = clockVenue(dbPath);
    expect(loansOf(second.v, user).map((l) => l.id)).toEqual(ids);
    // Selling 1.5 leaves a need of about 15 000 USD, under the own funds: every loan is repaid.
    second.events.length = 0;
    trade(second.v, user, -1.5);
    await wait(0);
    expect(loansOf(second.v, user)).toEqual([]);
    const flc = second.events.filter(([, t]) => t === "flc").map(([, , p]) => fundingLoanCodec.decode(p));
    expect(flc.map((l) => l.ok && l.value.status)).toEqual(ids.map(() => "CLOSED (used)"));
    expect(position(second.v, user).amount).toBe(0.5);
    second.v.db.close();
  });

  it("borrows the base currency for a short and charges its interest in the quote currency", async () => {
    const { v, tick } = clockVenue();
    const user = v.seeded as number;
    v.balances.funds((move) => {
      move(user, "exchange", "USD", -toUnits(10_000), "to margin");
      move(user, "margin", "USD", toUnits(10_000), "from exchange");
    });
    trade(v, user, -0.5);
    await wait(0);
    const loans = loansOf(v, user);
    // No BTC of its own in the margin wallet: all of the 0.5 BTC sold is borrowed on fBTC.
    expect(loans.every((l) => l.symbol === "fBTC")).toBe(true);
    expect(loans.reduce((s, l) => s + toUnits(l.amount), 0)).toBe(toUnits(0.5));
    const btcInterest = loans.reduce((s, l) => s + toUnits(l.amount) * l.rate, 0);
    const before = v.balances.available(user, "margin", "USD");
    tick(DAY);
    v.exchange.simulator.step();
    await wait(0);
    const charged = before - v.balances.available(user, "margin", "USD");
    const mark = v.exchange.markets.get(SYM)?.lastPrice() as number;
    // Converted at the market's last price (which the step may have moved a little from the fill's).
    expect(charged / (btcInterest * mark)).toBeGreaterThan(0.95);
    expect(charged / (btcInterest * mark)).toBeLessThan(1.05);
    expect(position(v, user).swap).toBeCloseTo(-fromUnits(charged), 6);
    v.db.close();
  });
});
