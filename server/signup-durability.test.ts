/**
 * A sign-up is written whole or not at all: the exchange process is killed (SIGKILL) while
 * sign-ups stream in, and the database it leaves has every acknowledged account, and no account
 * without its paper balances, its confirmation link and the mail that carries it — nor a mail or
 * a link for an account that is not there (signup.ts runs all of it in one transaction).
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { NEW_ACCOUNT_BALANCES } from "./signup.ts";
import { startExchangeProcess } from "./test-support/exchange-process.ts";

const ENV = { SIGNUP_CAPTCHA_AFTER: "100000", RATE_LIMITS: "public=100000" };
describe("sign-up durability", () => {
  it("leaves no half-created account when the process is killed mid-sign-up", async () => {
    const dir = mkdtempSync(join(tmpdir(), "signup-kill-"));
    const dbPath = join(dir, "exchange.db");
    const { child, port } = await startExchangeProcess(dbPath, ENV);
    const acknowledged: string[] = [];
    let stop = false;
    // Four clients sign up back to back; the kill lands while several are inside the exchange.
    const client = async (lane: number): Promise<void> => {
      for (let i = 0; !stop; i++) {
        const name = `k${lane}_${i}`;
        try {
          const res = await fetch(`http://127.0.0.1:${port}/v2/signup`, {
            method: "POST",
            body: JSON.stringify({
              email: `${name}@example.test`,
              username: name,
              password: "Kill-nine-safe-1",
              country: "DE",
              tosVersion: "1.0",
              prohibitedPerson: false,
              newsletter: i % 2 === 0,
            }),
          });
          if (res.status === 200) acknowledged.push(`${name}@example.test`);
        } catch {
          return; // the process is gone
        }
      }
    };
    let running = 4;
    const lanes = [0, 1, 2, 3].map((lane) => client(lane).finally(() => running--));
    while (acknowledged.length < 12 && running > 0) await new Promise((r) => setTimeout(r, 5));
    expect(acknowledged.length, "sign-ups acknowledged before the kill").toBeGreaterThanOrEqual(12);
    // Listened for before the kill: the lanes below may take longer than the exit does.
    const exited = new Promise((r) => child.once("exit", r));
    child.kill("SIGKILL");
    stop = true;
    await Promise.all(lanes);
    await exited;

    // The database as the killed process left it (WAL recovery on open), and as a restart serves it.
    const { child: restarted } = await startExchangeProcess(dbPath, ENV, port);
    restarted.kill("SIGKILL");
    await new Promise((r) => restarted.once("exit", r));
    const db = new Database(dbPath, { readonly: true });
    const users = db.prepare("SELECT id, email FROM users WHERE username LIKE 'k%'").all() as {
      id: number;
      email: string;
    }[];
    const emails = new Set(users.map((u) => u.email));
    for (const email of acknowledged) expect(emails.has(email), `acknowledged ${email}`).toBe(true);
    for (const u of users) {
      const wallets = db.prepare("SELECT currency FROM wallets WHERE user_id = ?").all(u.id) as { currency: string }[];
      expect(wallets.map((w) => w.currency).sort(), u.email).toEqual(Object.keys(NEW_ACCOUNT_BALANCES).sort());
      const links = db.prepare("SELECT COUNT(*) AS n FROM email_verifications WHERE user_id = ?").get(u.id) as {
        n: number;
      };
      expect(links.n, u.email).toBe(1);
      const mails = db.prepare("SELECT COUNT(*) AS n FROM outbox WHERE recipient = ?").get(u.email) as { n: number };
      expect(mails.n, u.email).toBe(1);
    }
    // No mail or link without its account.
    const orphanMails = db
      .prepare(
        "SELECT COUNT(*) AS n FROM outbox WHERE recipient LIKE 'k%@example.test' AND recipient NOT IN (SELECT email FROM users)",
      )
      .get() as { n: number };
    expect(orphanMails.n).toBe(0);
    const orphanLinks = db
      .prepare("SELECT COUNT(*) AS n FROM email_verifications WHERE user_id NOT IN (SELECT id FROM users)")
      .get() as { n: number };
    expect(orphanLinks.n).toBe(0);
    db.close();
  }, 60_000);
});
