/**
 * API-key creation survives `kill -9`: the exchange process is killed (SIGKILL) while several
 * clients generate and verify keys. After a restart on the same database every key the API
 * acknowledged (key and secret sent) is listed whole — label, permissions, IP allowlist — and signs
 * calls; no key is half-written or created twice; and a request that was waiting for its code is
 * either still waiting (its mailed code still works, once) or became its key, never both.
 * (As exchange/durability.test.ts does for orders.)
 */
import { createHmac } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { apiKeyRowCodec, permissionRowCodec } from "../src/protocol/index.ts";
import { DEMO } from "./store/seed.ts";
import { startExchangeProcess } from "./test-support/exchange-process.ts";

// The clients below make far more key calls a minute than a person would.
const ENV = { RATE_LIMITS: "auth=100000,login=1000,public=100000" };
const PERMISSIONS = "orders-read,wallets-read";
const IPS = ["127.0.0.1"];

interface Attempt {
  readonly label: string;
  id: string | null;
  code: string | null;
  created: { key: string; secret: string } | null;
}

describe("API-key creation and SIGKILL", () => {
  it("leaves every key whole or absent, and every waiting request usable once", async () => {
    const db = join(mkdtempSync(join(tmpdir(), "apikeys-")), "exchange.db");
    const { child: first, port } = await startExchangeProcess(db, ENV);
    const auth = `http://127.0.0.1:${port + 1}`;

    const login = async (): Promise<string> => {
      const res = await fetch(`${auth}/v2/login`, {
        method: "POST",
        body: JSON.stringify({ login: DEMO.username, password: DEMO.password }),
      });
      return ((await res.json()) as string[])[0] as string;
    };
    const post = async (path: string, body: unknown, token: string): Promise<[number, unknown]> => {
      const res = await fetch(auth + path, {
        method: "POST",
        headers: { "bfx-token": token },
        body: JSON.stringify(body),
      });
      return [res.status, await res.json()];
    };
    const codeFor = async (label: string): Promise<string | null> => {
      const mails = (await (await fetch(`${auth}/dev/outbox`)).json()) as { body: string }[];
      const mail = mails.find((m) => m.body.includes(`"${label}"`));
      return /\b(\d{6})\b/.exec(mail?.body ?? "")?.[1] ?? null;
    };

    const token = await login();
    const attempts: Attempt[] = [];
    let killed = false;
    // Four clients, each generating and verifying keys back to back until the process dies.
    const client = async (c: number): Promise<void> => {
      for (let n = 0; !killed; n++) {
        const a: Attempt = { label: `c${c}-${n}`, id: null, code: null, created: null };
        attempts.push(a);
        try {
          const [gs, gen] = await post(
            "/v2/auth/w/api/key/generate",
            { label: a.label, permissions: PERMISSIONS, ips: IPS },
            token,
          );
          if (gs !== 200) throw new Error(JSON.stringify(gen));
          a.id = (gen as { id: string }).id;
          a.code = await codeFor(a.label);
          const [vs, done] = await post("/v2/auth/w/api/key/verify", { id: a.id, code: a.code }, token);
          if (vs !== 200) throw new Error(JSON.stringify(done));
          const [key, secret] = done as [string, string];
          a.created = { key, secret };
        } catch {
          return; // the process is gone (or going): this client stops.
        }
      }
    };
    const running = [0, 1, 2, 3].map(client);
    const t0 = Date.now();
    while (attempts.filter((a) => a.created).length < 12 && Date.now() - t0 < 20_000)
      await new Promise((r) => setTimeout(r, 2));
    killed = true;
    first.kill("SIGKILL");
    await new Promise((r) => first.once("exit", r));
    await Promise.all(running);
    const acked = attempts.filter((a) => a.created);
    expect(acked.length).toBeGreaterThanOrEqual(12);

    // The file itself is sound, and no request sits beside the key it became.
    const file = new Database(db, { readonly: true });
    expect(file.pragma("integrity_check", { simple: true })).toBe("ok");
    const both = file
      .prepare(
        "SELECT COUNT(*) AS n FROM api_key_requests r JOIN api_keys k ON k.label = r.label AND k.user_id = r.user_id",
      )
      .get() as { n: number };
    expect(both.n).toBe(0);
    file.close();

    await startExchangeProcess(db, ENV, port);
    const again = await login();
    const listKeys = async () => {
      const [, body] = await post("/v2/auth/r/api/keys", {}, again);
      const rows = apiKeyRowCodec.decodeList(body);
      if (!rows.ok) throw new Error(JSON.stringify(body));
      return rows.value.filter((r) => /^c\d+-\d+$/.test(r.label));
    };
    const keys = await listKeys();
    const labels = keys.map((k) => k.label);
    expect(new Set(labels).size, "no key created twice").toBe(labels.length);
    for (const k of keys) {
      // Whole: the permissions and the allowlist asked for, nothing more or less.
      const perms = (k.permissions as unknown[])
        .map((p) => permissionRowCodec.decode(p))
        .filter((p) => p.ok && (p.value.read || p.value.write))
        .map((p) => (p.ok ? `${p.value.scope}:${p.value.read ? 1 : 0}${p.value.write ? 1 : 0}` : ""));
      expect(perms.sort()).toEqual(["orders:10", "wallets:10"]);
      expect(k.ipAllowlist).toEqual(IPS);
    }
    let nonce = Date.now() * 1000;
    for (const a of acked) {
      expect(labels, `acknowledged key ${a.label}`).toContain(a.label);
      const { key, secret } = a.created as { key: string; secret: string };
      const n = String(++nonce);
      const sig = createHmac("sha384", secret).update(`/api/v2/auth/r/wallets${n}{}`).digest("hex");
      const res = await fetch(`${auth}/v2/auth/r/wallets`, {
        method: "POST",
        headers: { "bfx-apikey": key, "bfx-nonce": n, "bfx-signature": sig },
        body: "{}",
      });
      expect(res.status, `key ${a.label} signs after the restart`).toBe(200);
    }
    // The ones the kill interrupted: the key exists and its request is gone, or the request still
    // waits and its mailed code makes the key now — once.
    for (const a of attempts.filter((x) => !x.created && x.id && x.code)) {
      const existed = labels.includes(a.label);
      const [status, body] = await post("/v2/auth/w/api/key/verify", { id: a.id, code: a.code }, again);
      if (existed) expect(body).toEqual(["error", 10001, "id: invalid or expired"]);
      else
        expect([status, body], `interrupted request ${a.label}`).toEqual([
          200,
          [expect.any(String), expect.any(String)],
        ]);
    }
    const after = (await listKeys()).map((k) => k.label);
    expect(new Set(after).size).toBe(after.length);
  }, 90_000);
});
