/**
 * First-start seeding: the demo account (documented in the README) with balances to trade with,
 * and an API key for it. Runs only when the database has no users.
 */
import type { Funds } from "../exchange/funds.ts";
import type { Accounts } from "./accounts.ts";

export const DEMO = {
  email: "demo@orderflow.local",
  username: "demo",
  password: "demo-password",
  apiKey: "demo-api-key",
  apiSecret: "demo-api-secret",
} as const;

export const DEMO_BALANCES: Readonly<Record<string, number>> = {
  USD: 100_000,
  EUR: 100_000,
  JPY: 15_000_000,
  TRY: 4_000_000,
  BRL: 500_000,
  BTC: 2,
  ETH: 30,
  LTC: 200,
  XRP: 50_000,
  SOL: 500,
  TESTUSD: 100_000,
  TESTBTC: 2,
};

export function seedDemo(accounts: Accounts, funds: Funds, now: number): number | null {
  const count = (accounts.db.prepare("SELECT COUNT(*) AS n FROM users").get() as { n: number }).n;
  if (count > 0) return null;
  const id = accounts.createUser(DEMO.email, DEMO.username, DEMO.password, now, true);
  // Deposits, not bare credits: the opening balances show in the movements history as well as the ledger.
  for (const [ccy, amount] of Object.entries(DEMO_BALANCES)) funds.deposit(id, ccy, amount, "Demo account deposit");
  accounts.createApiKey(id, "demo", ["a", "o", "p", "f", "s", "w", "wd"], now, {
    key: DEMO.apiKey,
    secret: DEMO.apiSecret,
  });
  return id;
}
