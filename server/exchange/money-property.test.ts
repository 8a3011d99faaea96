/**
 * Money integrity as a property, over HTTP (server/test-support: money-ops.ts the operations,
 * money-checks.ts the checks, money-world.ts the accounts and calls). Thousands of random
 * deposits (credited after their confirmations, below the minimum, a chain transaction sent twice),
 * transfers (between wallets, between a master and its sub-account, repeated with their request
 * id, raced), orders that cross between the test accounts and pay their fees, cancels, withdrawals
 * (requested with a key, repeated, raced, confirmed by the mailed link, cancelled, completed,
 * expired), conversions (repeated, raced) and replayed signed requests. After every batch and at
 * the end: each balance is the sum of its ledger rows, and what the accounts hold plus the fees
 * they paid plus what left equals what came in, per currency. The second test runs the stream
 * against the exchange as its own process, kills it (SIGKILL) at seeded moments and restarts it on
 * the same file: everything acknowledged before a kill is still there and the invariants hold.
 *
 * The seed is random unless `PROPERTY_SEED` names one, and every failure names it, so
 * `PROPERTY_SEED=… npx vitest run --project unit server/exchange/money-property.test.ts` replays
 * it (the first test exactly; the second up to where its kills fall in time). `PROPERTY_OPS`
 * (default 2000) is the operations of both tests together, `PROPERTY_KILLS` (default 3) the kills
 * of the second.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { seededRandom, WALLET_TYPES } from "../../src/protocol/index.ts";
import { listenApi } from "../test-support/api.ts";
import { startExchangeProcess, type ExchangeProcess } from "../test-support/exchange-process.ts";
import { checkAcknowledged, checkMoney } from "../test-support/money-checks.ts";
import {
  allCredited,
  allWithdrawn,
  learnCredits,
  learnWithdrawals,
  opNamed,
  runOp,
} from "../test-support/money-ops.ts";
import {
  call,
  createMoneyAccounts,
  moneyMarkets,
  moneyWorld,
  walletsOf,
  type MoneyWorld,
} from "../test-support/money-world.ts";
import { wait } from "../test-support/session.ts";
import { openVenue } from "./venue.ts";

const SEED = Number(process.env["PROPERTY_SEED"] ?? Math.floor(Math.random() * 2 ** 31));
const OPS = Number(process.env["PROPERTY_OPS"] ?? 2000);
const KILLS = Number(process.env["PROPERTY_KILLS"] ?? 3);
/** The in-process run takes most of the operations: it has no restarts to pay for. */
const IN_PROCESS_OPS = Math.round((OPS * 5) / 7);
const KILLED_OPS = OPS - IN_PROCESS_OPS;
const BATCH = 250;
const ACCOUNTS = 4;
const SYMBOLS = ["tBTCUSD", "tLTCUSD"];
/** Enough for the stream: the real per-minute limits would throttle it. */
const LIMITS = { public: 1_000_000, auth: 1_000_000, login: 1000 };
const SIM_SEED = 42;
const replay = `PROPERTY_SEED=${SEED}`;

/** Every problem found, with the seed that reproduces it; fails when there is one. */
function clean(w: MoneyWorld, problems: readonly string[], when: string): void {
  const all = [...w.problems.splice(0), ...problems];
  expect(all, `${replay}: ${when}`).toEqual([]);
}

/**
 * The end of a stream: deposits and withdrawals settled, every open order cancelled — then no
 * wallet reserves anything, and the checks hold once more.
 */
async function finish(w: MoneyWorld): Promise<void> {
  await w.host.settleDeposits();
  await w.host.settleWithdrawals();
  for (const a of w.accounts) {
    const r = await call(w, a, "/v2/auth/w/order/cancel/multi", { all: 1 });
    expect(r.status, `${replay}: cancel all of ${a.name}`).toBe(200);
  }
  const { problems, books } = await checkMoney(w);
  clean(w, problems, "at the end");
  for (const b of books) {
    expect(b.open, `${replay}: ${b.account.name}'s open orders after cancelling all`).toEqual([]);
    for (const x of b.wallets)
      expect(x.available, `${replay}: ${b.account.name} ${x.type}:${x.currency}`).toBe(x.balance);
  }
}

/**
 * The stream did what it is for: money came in, moved, traded with fees, left, was converted and
 * was refused when it should be. (A short stream, replayed with a small PROPERTY_OPS, may not.)
 */
function meaningful(w: MoneyWorld): void {
  const seen = (prefix: string): number =>
    [...w.journal.outcomes].filter(([k]) => k.startsWith(prefix)).reduce((s, [, n]) => s + n, 0);
  for (const what of [
    "deposit:deposit",
    "transfer:transfer",
    "group-transfer:group-transfer",
    "order:order-filled",
    "cancel:cancel",
    "repeat-transfer:",
    "replay-signed:replay-refused",
    "race-transfers:race-one",
    "race-orders:race-one",
    "order:order-refused",
    "withdraw:withdraw",
    "race-withdrawals:race-one",
    "confirm-withdrawal:confirmed",
    "cancel-withdrawal:cancelled",
    "complete-withdrawals:completed",
    "convert:convert",
    "race-conversions:race-one",
  ])
    expect(seen(what), `${replay}: ${what} in ${JSON.stringify([...w.journal.outcomes])}`).toBeGreaterThan(0);
}

describe("money integrity", () => {
  it(
    `holds through ${IN_PROCESS_OPS} random operations`,
    async () => {
      let skew = 0;
      const venue = openVenue({ dbPath: ":memory:", seed: SIM_SEED, now: () => Date.now() + skew });
      const deposits = venue.funds.deposits;
      const withdrawals = venue.funds.withdrawals;
      const { api, host } = await listenApi({ exchange: venue.exchange, account: venue.gateway, limits: LIMITS });
      try {
        const accounts = createMoneyAccounts(venue, ACCOUNTS, Date.now());
        const base = `http://${host}`;
        const w = moneyWorld(
          {
            base,
            authBase: base,
            // The exchange's clock moves past the most confirmations any method needs (12), and its
            // tick runs.
            settleDeposits: () => {
              skew += 13 * deposits.blockMs;
              deposits.tick();
              return Promise.resolve();
            },
            // Two steps: to PROCESSING, then COMPLETED (a tick for each, as the host's timer would run them).
            settleWithdrawals: () => {
              for (let i = 0; i < 2; i++) {
                skew += withdrawals.stepMs;
                withdrawals.tick();
              }
              return Promise.resolve();
            },
            passHour: () => {
              skew += 3_600_001;
              withdrawals.tick();
              deposits.tick();
              return Promise.resolve();
            },
          },
          accounts,
          await moneyMarkets(base, SYMBOLS),
        );
        const r = seededRandom(SEED);
        for (let i = 1; i <= IN_PROCESS_OPS; i++) {
          await runOp(w, r);
          if (i % BATCH === 0 || i === IN_PROCESS_OPS)
            clean(w, (await checkMoney(w)).problems, `after ${i} operations`);
        }
        await finish(w);
        if (IN_PROCESS_OPS >= 1000) meaningful(w);

        // The checks can fail. A transfer sent as a repeat of one never made moves money: the
        // repeat's check sees it (its reply is not the "first" one, and a transfer row appears).
        const [a] = accounts;
        if (!a) throw new Error("no account");
        const held = (await walletsOf(w, a)).reduce((x, y) => (y.available > x.available ? y : x));
        w.journal.transfers.splice(0, w.journal.transfers.length, {
          account: a,
          body: {
            from: held.type,
            to: held.type === "funding" ? "exchange" : "funding",
            currency: held.currency,
            amount: "0.00001",
            request_id: "never-sent-before",
          },
          reply: ["not", "this"],
        });
        await runOp(w, r, opNamed("repeat-transfer"));
        expect(
          w.problems.splice(0).map((p) => p.replace(/ .*/, "")),
          replay,
        ).toEqual(["repeated", "repeated"]);
        // A balance moved without its ledger row; then money from nowhere, with its ledger row.
        const wallet = "UPDATE wallets SET balance = balance + ? WHERE user_id = ? AND type = ? AND currency = ?";
        venue.db.prepare(wallet).run(7, a.id, held.type, held.currency);
        const off = (await checkMoney(w)).problems;
        expect(
          off.some((p) => p.includes("ledger rows sum to")),
          `${replay}: ${JSON.stringify(off)}`,
        ).toBe(true);
        expect(
          off.some((p) => p.includes("reconcile")),
          `${replay}: ${JSON.stringify(off)}`,
        ).toBe(true);
        venue.db.prepare(wallet).run(-7, a.id, held.type, held.currency);
        const type = WALLET_TYPES.find((t) => t === held.type);
        if (!type) throw new Error(`wallet type ${held.type}`);
        venue.balances.move(a.id, type, held.currency, 7, 0, "Adjustment out of nowhere");
        const created = (await checkMoney(w)).problems;
        expect(created, replay).toEqual([expect.stringMatching(new RegExp(`^${held.currency}: balances`))]);
      } finally {
        await api.close();
      }
    },
    // Generous, and growing with PROPERTY_OPS: the machine may be shared with other work.
    60_000 + IN_PROCESS_OPS * 100,
  );

  it(
    `holds, and keeps everything acknowledged, through ${KILLS} kills in ${KILLED_OPS} operations`,
    async () => {
      const db = join(mkdtempSync(join(tmpdir(), "money-")), "exchange.db");
      // The accounts are written before the exchange opens the file; then only the process touches it.
      const setup = openVenue({ dbPath: db, seed: SIM_SEED });
      const accounts = createMoneyAccounts(setup, ACCOUNTS, Date.now());
      // The demo seeding pushes balance updates on a microtask: let them run before the file is closed.
      await new Promise((resolve) => setImmediate(resolve));
      setup.db.close();
      // The simulator never steps (its first step would come in 23 days): its book stays as seeded,
      // so the accounts' orders inside its spread meet only each other.
      const env = {
        SIM_STEP_MS: "2000000000",
        SIM_SEED: String(SIM_SEED),
        DEPOSIT_BLOCK_MS: "10",
        WITHDRAW_STEP_MS: "40",
        RATE_LIMITS: `public=${LIMITS.public},auth=${LIMITS.auth},login=${LIMITS.login}`,
      };
      let proc: ExchangeProcess = await startExchangeProcess(db, env);
      const port = proc.port;
      const base = `http://127.0.0.1:${port}`;
      const w = moneyWorld(
        {
          base,
          authBase: `http://127.0.0.1:${port + 1}`,
          // The process confirms on its own clock (a block every 10 ms): wait until it has credited.
          settleDeposits: async () => {
            const t0 = Date.now();
            for (;;) {
              await learnCredits(w);
              if (allCredited(w)) return;
              if (Date.now() - t0 > 10_000) throw new Error("deposits not credited within 10 s");
              await wait(20);
            }
          },
          settleWithdrawals: async () => {
            const t0 = Date.now();
            for (;;) {
              await learnWithdrawals(w);
              if (allWithdrawn(w)) return;
              if (Date.now() - t0 > 10_000) throw new Error("withdrawals not completed within 10 s");
              await wait(20);
            }
          },
        },
        accounts,
        await moneyMarkets(base, SYMBOLS),
      );
      // The process credits deposits on its own timer, between the checks' reads too: they read a
      // settled exchange (every deposit it holds credited; a withdrawal's later steps move no money).
      const quiet = (): Promise<void> => w.host.settleDeposits();
      const r = seededRandom(SEED ^ 0x5eed);
      const leg = Math.ceil(KILLED_OPS / (KILLS + 1));
      let done = 0;
      for (let k = 0; k <= KILLS; k++) {
        const n = Math.min(leg, KILLED_OPS - done);
        // Where in this leg the kill falls: during which operation, and how far into it.
        const at = k < KILLS ? Math.floor(r() * n) : -1;
        for (let i = 0; i < n; i++) {
          if (i !== at) {
            await runOp(w, r);
            continue;
          }
          const running = runOp(w, r).then(
            () => "replied",
            () => "cut",
          );
          await wait(r() * 6);
          proc.child.kill("SIGKILL");
          await new Promise((resolve) => proc.child.once("exit", resolve));
          // Whether the kill cut the operation or came after its last reply: counted, for the report.
          w.journal.count(`kill:${await running}`);
          proc = await startExchangeProcess(db, env, port);
          await quiet();
          const { problems, books } = await checkMoney(w);
          const ack = await checkAcknowledged(w, books);
          clean(w, [...problems, ...ack], `after kill ${k + 1}, ${done + i + 1} operations`);
        }
        done += n;
        await quiet();
        clean(w, (await checkMoney(w)).problems, `after ${done} operations`);
      }
      await finish(w);

      // The acknowledgement checks can fail: a journal claiming what the exchange never did — a
      // deposit credited, a withdrawal completed, more of an order executed, a transfer made.
      const [a] = accounts;
      if (!a) throw new Error("no account");
      const claim = { account: a.id, id: -1, currency: "BTC", units: 1 };
      const j = w.journal;
      j.deposits.set(-1, { ...claim, below: false, credited: true, method: "", address: "", txId: null });
      j.withdrawals.set(-1, { ...claim, status: "COMPLETED", confirmed: true, canceled: false });
      const filled = [...j.orders.values()].find((o) => o.executed > 0);
      // More than it can have traded since (a maker may have filled further after its reply).
      if (filled) filled.executed += 1e12;
      j.transfers.splice(0, j.transfers.length, {
        account: a,
        body: { from: "exchange", to: "funding", currency: "USD", amount: "0.01", request_id: "never-acknowledged" },
        reply: ["not", "this"],
      });
      const claimed = await checkAcknowledged(w, (await checkMoney(w)).books);
      const expected = [
        /^acknowledged deposit #-1 /,
        /^acknowledged withdrawal -1 /,
        /^acknowledged transfer /,
        ...(filled ? [new RegExp(`^order ${filled.id} had`)] : []),
      ];
      const matched = claimed.length === expected.length && expected.every((re, i) => re.test(claimed[i] ?? ""));
      expect(matched, `${replay}: ${JSON.stringify(claimed)}`).toBe(true);
    },
    60_000 + KILLED_OPS * 150 + KILLS * 30_000,
  );
});
