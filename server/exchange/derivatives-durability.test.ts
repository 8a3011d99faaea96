/**
 * Perpetuals through `kill -9`: the exchange runs as its own process and kills itself (SIGKILL,
 * `DERIV_CRASH_AT`) in the middle of a funding event's transaction — after a payment is written,
 * before the event is — and in the middle of a liquidation's — after the position is closed, before
 * the insurance fund takes it over. The database then holds neither of them at all; after a restart
 * on it the event is paid and the position liquidated whole, once, every ledger row adding up to
 * its wallet's balance.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { positionCodec, type Position } from "../../src/protocol/index.ts";
import { toUnits } from "../store/db.ts";
import { DEMO } from "../store/seed.ts";
import { startExchangeProcess, type ExchangeProcess } from "../test-support/exchange-process.ts";
import { INSURANCE_FUND_START } from "./derivatives.ts";
import { openVenue } from "./venue.ts";

const DEV = { "x-orderflow-dev": "1" };
const COLLATERAL = 50_000;

async function until<T>(find: () => T | undefined | Promise<T | undefined>, what: string, ms = 20_000): Promise<T> {
  const t0 = Date.now();
  for (;;) {
    const v = await find();
    if (v !== undefined) return v;
    if (Date.now() - t0 > ms) throw new Error(`timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A fresh database with the demo account holding USTF0 in its derivatives wallet. */
async function prepared(): Promise<{ path: string; demo: number }> {
  const path = join(mkdtempSync(join(tmpdir(), "deriv-")), "exchange.db");
  // The venue the exchange process opens, opened here first: the schema and the demo account.
  const venue = openVenue({ dbPath: path, seed: 42 });
  const demo = venue.seeded as number;
  venue.balances.move(demo, "margin", "USTF0", toUnits(COLLATERAL), 0, "Deposit");
  // The account pushes that follow a balance change run a microtask later: let them go first.
  await new Promise((r) => setTimeout(r, 0));
  venue.db.close();
  return { path, demo };
}

async function stop(p: ExchangeProcess): Promise<void> {
  if (p.child.exitCode === null && p.child.signalCode === null) {
    p.child.kill("SIGKILL");
    await new Promise((r) => p.child.once("exit", r));
  }
}

function exited(p: ExchangeProcess): Promise<NodeJS.Signals | null> {
  if (p.child.signalCode !== null || p.child.exitCode !== null) return Promise.resolve(p.child.signalCode);
  return new Promise((r) => p.child.once("exit", (_code, signal) => r(signal)));
}

async function session(port: number) {
  const login = await fetch(`http://127.0.0.1:${port}/v2/login`, {
    method: "POST",
    body: JSON.stringify({ login: DEMO.username, password: DEMO.password }),
  });
  const [token] = (await login.json()) as [string];
  const rest = async (path: string, body: unknown = {}): Promise<unknown> =>
    (
      await fetch(`http://127.0.0.1:${port}${path}`, {
        method: "POST",
        headers: { "bfx-token": token, "content-type": "application/json" },
        body: JSON.stringify(body),
      })
    ).json();
  const positions = async (): Promise<Position[]> => {
    const d = positionCodec.decodeList(await rest("/v2/auth/r/positions"));
    if (!d.ok) throw new Error("positions");
    return d.value;
  };
  return { rest, positions };
}

/** Reads the database a (possibly running) exchange writes. */
function inspect<T>(path: string, fn: (db: Database.Database) => T): T {
  const db = new Database(path, { readonly: true });
  try {
    return fn(db);
  } finally {
    db.close();
  }
}

/** Every wallet of the account: its balance is the sum of its ledger rows. */
function reconciles(db: Database.Database, user: number): void {
  const rows = db
    .prepare(
      `SELECT w.type, w.currency, w.balance, COALESCE((SELECT SUM(amount) FROM ledgers l WHERE l.user_id = w.user_id
         AND l.wallet = w.type AND l.currency = w.currency), 0) AS sum FROM wallets w WHERE w.user_id = ?`,
    )
    .all(user) as { type: string; currency: string; balance: number; sum: number }[];
  for (const r of rows) expect(r.sum, `${r.type} ${r.currency}`).toBe(r.balance);
}

describe("derivatives through SIGKILL", () => {
  it("a funding event killed after its first payment is not there at all; after a restart it is paid whole", async () => {
    const env = { SIM_STEP_MS: "100", DERIV_FUNDING_MS: "3000" };
    const { path, demo } = await prepared();
    const crashing = await startExchangeProcess(path, { ...env, DERIV_CRASH_AT: "funding" });
    const port = crashing.port;
    const s = await session(port);
    // Both in one request, handled in one turn: no funding event can fall between them.
    const multi = (await s.rest("/v2/auth/w/order/multi", {
      ops: [
        ["on", { type: "MARKET", symbol: "tBTCF0:USTF0", amount: "0.1", lev: 10 }],
        ["on", { type: "MARKET", symbol: "tETHF0:USTF0", amount: "-2", lev: 10 }],
      ],
    })) as unknown[];
    expect((multi[4] as unknown[][]).map((n) => n[6])).toEqual(["SUCCESS", "SUCCESS"]);
    expect(await exited(crashing)).toBe("SIGKILL");
    inspect(path, (db) => {
      expect(db.prepare("SELECT COUNT(*) AS n FROM positions WHERE open = 1").get()).toEqual({ n: 2 });
      // The payment written before the kill went with its transaction: no payment, ledger row or fund change.
      expect(db.prepare("SELECT COUNT(*) AS n FROM deriv_funding_payments").get()).toEqual({ n: 0 });
      expect(db.prepare("SELECT COUNT(*) AS n FROM ledgers WHERE description LIKE '%funding%'").get()).toEqual({
        n: 0,
      });
      expect(db.prepare("SELECT COUNT(*) AS n FROM deriv_insurance").get()).toEqual({ n: 0 });
      reconciles(db, demo);
    });

    const again = await startExchangeProcess(path, env, port);
    await until(
      () =>
        inspect(path, (db) =>
          (db.prepare("SELECT COUNT(DISTINCT symbol) AS n FROM deriv_funding_payments").get() as { n: number }).n === 2
            ? true
            : undefined,
        ),
      "both positions paid funding",
    );
    await stop(again);
    inspect(path, (db) => {
      const events = db.prepare("SELECT symbol, mts FROM deriv_funding").all() as { symbol: string; mts: number }[];
      const payments = db.prepare("SELECT symbol, mts, amount FROM deriv_funding_payments").all() as {
        symbol: string;
        mts: number;
        amount: number;
      }[];
      // Every payment belongs to a recorded event, and each event paid its one position once.
      for (const p of payments) expect(events.some((e) => e.symbol === p.symbol && e.mts === p.mts)).toBe(true);
      const perEvent = new Map<string, number>();
      for (const p of payments) perEvent.set(`${p.symbol}|${p.mts}`, (perEvent.get(`${p.symbol}|${p.mts}`) ?? 0) + 1);
      expect([...perEvent.values()].every((n) => n === 1)).toBe(true);
      const ledger = db
        .prepare("SELECT SUM(amount) AS s, COUNT(*) AS n FROM ledgers WHERE description LIKE '%funding%'")
        .get() as { s: number; n: number };
      expect(ledger.n).toBe(payments.length);
      expect(ledger.s).toBe(payments.reduce((s, p) => s + p.amount, 0));
      // The insurance fund took the other side of exactly what moved.
      const fund = db.prepare("SELECT balance FROM deriv_insurance WHERE currency = 'USTF0'").get() as {
        balance: number;
      };
      expect(fund.balance).toBe(toUnits(INSURANCE_FUND_START) - ledger.s);
      reconciles(db, demo);
    });
  }, 90_000);

  it("a liquidation killed before the insurance fund took it over is not there at all; after a restart it is whole", async () => {
    const env = { SIM_STEP_MS: "1000" };
    const { path, demo } = await prepared();
    const crashing = await startExchangeProcess(path, { ...env, DERIV_CRASH_AT: "liquidation" });
    const port = crashing.port;
    const s = await session(port);
    const order = { type: "MARKET", symbol: "tBTCF0:USTF0", amount: "0.1", lev: 50 };
    expect(await s.rest("/v2/auth/w/order/submit", order)).not.toContain("error");
    const [pos] = await s.positions();
    expect(pos?.posType).toBe(1);
    const collateral = toUnits(pos?.collateral as number);
    const crash = async (p: number): Promise<number> => {
      const ticker = (await (await fetch(`http://127.0.0.1:${p}/v2/ticker/tBTCUSD`)).json()) as number[];
      const price = Number(((ticker[6] as number) * 0.95).toPrecision(5));
      // The process may die before it answers.
      await fetch(`http://127.0.0.1:${p}/dev/price`, {
        method: "POST",
        headers: DEV,
        body: JSON.stringify({ symbol: "tBTCUSD", price }),
      }).catch(() => null);
      return price;
    };
    await crash(port);
    expect(await exited(crashing)).toBe("SIGKILL");
    inspect(path, (db) => {
      const row = db.prepare("SELECT status, open, collateral FROM positions WHERE id = ?").get(pos?.id) as {
        status: string;
        open: number;
        collateral: number;
      };
      expect(row).toEqual({ status: "ACTIVE", open: 1, collateral });
      const w = db
        .prepare("SELECT balance, reserved FROM wallets WHERE user_id = ? AND type = 'margin' AND currency = 'USTF0'")
        .get(demo) as { balance: number; reserved: number };
      expect(w.reserved).toBe(collateral);
      expect(db.prepare("SELECT COUNT(*) AS n FROM liquidations").get()).toEqual({ n: 0 });
      expect(db.prepare("SELECT COUNT(*) AS n FROM ledgers WHERE description LIKE '%liquidated%'").get()).toEqual({
        n: 0,
      });
      expect(db.prepare("SELECT COUNT(*) AS n FROM deriv_insurance").get()).toEqual({ n: 0 });
      reconciles(db, demo);
    });
    const balanceBefore = inspect(
      path,
      (db) =>
        (
          db
            .prepare("SELECT balance FROM wallets WHERE user_id = ? AND type = 'margin' AND currency = 'USTF0'")
            .get(demo) as { balance: number }
        ).balance,
    );

    const again = await startExchangeProcess(path, env, port);
    const s2 = await session(port);
    expect((await s2.positions()).length).toBe(1);
    const mark = await crash(port);
    await until(async () => ((await s2.positions()).length === 0 ? true : undefined), "the position liquidated");
    await stop(again);
    inspect(path, (db) => {
      expect(db.prepare("SELECT status, open, collateral FROM positions WHERE id = ?").get(pos?.id)).toEqual({
        status: "LIQUIDATED",
        open: 0,
        collateral: 0,
      });
      expect(db.prepare("SELECT COUNT(*) AS n FROM liquidations").get()).toEqual({ n: 1 });
      const w = db
        .prepare("SELECT balance, reserved FROM wallets WHERE user_id = ? AND type = 'margin' AND currency = 'USTF0'")
        .get(demo) as { balance: number; reserved: number };
      expect(w).toEqual({ balance: balanceBefore - collateral, reserved: 0 });
      const ledger = db.prepare("SELECT description FROM ledgers WHERE description LIKE '%liquidated%'").all() as {
        description: string;
      }[];
      expect(ledger.map((l) => l.description)).toEqual([`Position #${pos?.id} BTCF0:USTF0 liquidated @ ${mark}`]);
      const fund = db.prepare("SELECT balance FROM deriv_insurance WHERE currency = 'USTF0'").get() as {
        balance: number;
      };
      const pl = Math.round((pos?.amount as number) * (mark - (pos?.basePrice as number)) * 1e8);
      expect(fund.balance).toBe(toUnits(INSURANCE_FUND_START) + collateral + pl);
      reconciles(db, demo);
    });
  }, 90_000);
});
