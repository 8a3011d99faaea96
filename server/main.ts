/**
 * `npm start` entry: the built app and the embedded exchange, on loopback.
 *   app               http://127.0.0.1:PORT/          (default 5180)
 *   public API        http://127.0.0.1:PORT+1/v2/…    and ws://127.0.0.1:PORT+1/ws/2
 *   authenticated API http://127.0.0.1:PORT+2/…       and ws://127.0.0.1:PORT+2/ws/2
 * With BFX_BACKEND=bitfinex the exchange is not started and the app points at the real hosts.
 */
import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { servedConfig } from "./config.ts";
import { hostOptionsFromEnv, startExchangeHost, type ExchangeHost } from "./exchange-host.ts";
import { logError } from "./log.ts";
import { createAppServer } from "./static.ts";

const HOST = process.env["HOST"] ?? "127.0.0.1";
const PORT = Number(process.env["PORT"] ?? 5180);
const ROOT = resolve(process.env["APP_DIST"] ?? "dist");

/**
 * Last line of defence. Every boundary of the exchange (socket messages, requests, timers, the
 * microtasks that fire stops) catches and logs its own errors; anything that still escapes is a
 * bug in one request or one order, and the process serves every other account, the public feeds
 * and the app. Exiting would drop every connection and, under `npm start`, leave nothing to
 * reconnect to — so log it loudly and keep serving. SQLite keeps each change atomic (a failed
 * transaction rolls back), so what is served afterwards is still what was committed.
 */
process.on("uncaughtException", (err) => logError("uncaught exception (kept serving)", err));
process.on("unhandledRejection", (reason) => logError("unhandled rejection (kept serving)", reason));

async function main(): Promise<void> {
  const build = JSON.parse(await readFile(resolve(ROOT, "build.json"), "utf8")) as { build: string };
  const host = HOST === "0.0.0.0" ? "127.0.0.1" : HOST;
  const origin = `http://${host}:${PORT}`;
  const env = { ...process.env };
  let exchange: ExchangeHost | null = null;
  if (process.env["BFX_BACKEND"] !== "bitfinex") {
    const publicPort = PORT + 1;
    const authPort = PORT + 2;
    env["BFX_REST_PUBLIC"] ??= `http://${host}:${publicPort}`;
    env["BFX_WS_PUBLIC"] ??= `ws://${host}:${publicPort}/ws/2`;
    env["BFX_REST_AUTH"] ??= `http://${host}:${authPort}`;
    env["BFX_WS_AUTH"] ??= `ws://${host}:${authPort}/ws/2`;
    exchange = await startExchangeHost({
      host,
      publicPort,
      authPort,
      appOrigin: origin,
      ...hostOptionsFromEnv(process.env),
    });
  }
  const app = createAppServer({
    root: ROOT,
    config: servedConfig(env, origin, build.build),
    // The public origin the prerendered pages' canonical and hreflang links name (a deployment
    // behind a proxy sets SITE_ORIGIN); by default the address this process serves.
    siteOrigin: process.env["SITE_ORIGIN"] ?? origin,
  });
  await new Promise<void>((done) => app.listen(PORT, HOST, done));
  process.stdout.write(`App ready at ${origin}/\n`);
  const stop = (): void => {
    // A browser's keep-alive connections would hold app.close() open for good: close them, and
    // exit after a grace period whatever is still pending, so a stopped server never lingers on
    // its ports (an E2E run or a restart would find them taken).
    setTimeout(() => process.exit(0), 3000).unref();
    void (exchange?.stop() ?? Promise.resolve()).then(() => {
      app.close(() => process.exit(0));
      app.closeAllConnections();
    });
  };
  // SIGUSR2 toggles maintenance (20060 / 20061), for trying the app's maintenance handling.
  process.on("SIGUSR2", () => {
    if (exchange && !exchange.maintenance(true)) exchange.maintenance(false);
  });
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

main().catch((err: unknown) => {
  process.stderr.write(`start failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
