/**
 * `npm start` entry: the built app and the embedded exchange, on loopback.
 *   app               http://127.0.0.1:PORT/          (default 5180)
 *   public API        http://127.0.0.1:PORT+1/v2/…    and ws://127.0.0.1:PORT+1/ws/2
 *   authenticated API http://127.0.0.1:PORT+2/…       and ws://127.0.0.1:PORT+2/ws/2
 * With BFX_BACKEND=bitfinex the exchange is not started and the app points at the real hosts.
 */
import { mkdirSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { createApiServer, type ApiServer } from "./api-server.ts";
import { servedConfig } from "./config.ts";
import { AccountGateway } from "./exchange/account-gateway.ts";
import { Exchange } from "./exchange/exchange.ts";
import { Trading } from "./exchange/trading.ts";
import { Accounts } from "./store/accounts.ts";
import { nextIdFrom, openDb } from "./store/db.ts";
import { seedDemo } from "./store/seed.ts";
import { createAppServer } from "./static.ts";

const HOST = process.env["HOST"] ?? "127.0.0.1";
const PORT = Number(process.env["PORT"] ?? 5180);
const ROOT = resolve(process.env["APP_DIST"] ?? "dist");
const SIM_STEP_MS = Number(process.env["SIM_STEP_MS"] ?? 250);

function listen(server: { listen(port: number, host: string, cb: () => void): unknown }, port: number): Promise<void> {
  return new Promise((done) => server.listen(port, HOST, done));
}

async function main(): Promise<void> {
  const build = JSON.parse(await readFile(resolve(ROOT, "build.json"), "utf8")) as { build: string };
  const host = HOST === "0.0.0.0" ? "127.0.0.1" : HOST;
  const origin = `http://${host}:${PORT}`;
  const embedded = process.env["BFX_BACKEND"] !== "bitfinex";
  const env = { ...process.env };
  const apis: ApiServer[] = [];
  let stepper: ReturnType<typeof setInterval> | null = null;
  if (embedded) {
    const publicPort = PORT + 1;
    const authPort = PORT + 2;
    env["BFX_REST_PUBLIC"] ??= `http://${host}:${publicPort}`;
    env["BFX_WS_PUBLIC"] ??= `ws://${host}:${publicPort}/ws/2`;
    env["BFX_REST_AUTH"] ??= `http://${host}:${authPort}`;
    env["BFX_WS_AUTH"] ??= `ws://${host}:${authPort}/ws/2`;
    const exchange = new Exchange({ now: () => Date.now(), seed: Number(process.env["SIM_SEED"] ?? 42) });
    const dbPath = resolve(process.env["EXCHANGE_DB"] ?? "server/data/exchange.db");
    mkdirSync(dirname(dbPath), { recursive: true });
    const db = openDb(dbPath);
    const accounts = new Accounts(db);
    let gateway: AccountGateway | null = null;
    const trading = new Trading(
      db,
      exchange,
      () => Date.now(),
      (u, t, p) => gateway?.emit(u, t, p),
      nextIdFrom(db, "order", 0),
    );
    gateway = new AccountGateway(accounts, trading, () => Date.now());
    if (seedDemo(accounts, trading, Date.now()) !== null)
      process.stdout.write("Seeded the demo account (see README).\n");
    const restored = trading.restore();
    if (restored > 0) process.stdout.write(`Restored ${restored} open orders.\n`);
    for (const port of [publicPort, authPort]) {
      const api = createApiServer({
        exchange,
        appOrigin: origin,
        now: () => Date.now(),
        platformStatus: () => 1,
        geoCountry: process.env["GEO_COUNTRY"] ?? "GB",
        account: gateway,
      });
      await listen(api.server, port);
      apis.push(api);
    }
    stepper = setInterval(() => exchange.simulator.step(), SIM_STEP_MS);
    process.stdout.write(
      `Exchange ready: public API http://${host}:${publicPort}/, authenticated API http://${host}:${authPort}/\n`,
    );
  }
  const app = createAppServer({ root: ROOT, config: servedConfig(env, origin, build.build) });
  await listen(app, PORT);
  process.stdout.write(`App ready at ${origin}/\n`);
  const stop = (): void => {
    if (stepper) clearInterval(stepper);
    // Tell connected clients we are going away (info 20051) so they reconnect promptly.
    for (const api of apis) api.sockets.info(20051, "Stopping. Please try to reconnect");
    void Promise.all(apis.map((a) => a.close())).then(() => app.close(() => process.exit(0)));
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

main().catch((err: unknown) => {
  process.stderr.write(`start failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
