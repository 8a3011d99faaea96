/** The embedded exchange alone (no app): EXCHANGE_PORT (public; +1 authenticated), EXCHANGE_DB. */
import { hostOptionsFromEnv, startExchangeHost } from "./exchange-host.ts";
import { logError } from "./log.ts";

// As in main.ts: log what escapes every boundary and keep serving.
process.on("uncaughtException", (err) => logError("uncaught exception (kept serving)", err));
process.on("unhandledRejection", (reason) => logError("unhandled rejection (kept serving)", reason));

const host = process.env["HOST"] ?? "127.0.0.1";
const port = Number(process.env["EXCHANGE_PORT"] ?? 5181);
startExchangeHost({
  host,
  publicPort: port,
  authPort: port + 1,
  appOrigin: process.env["APP_ORIGIN"] ?? "http://127.0.0.1:5180",
  ...hostOptionsFromEnv(process.env),
}).then(
  (h) => {
    const stop = (): void => void h.stop().then(() => process.exit(0));
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  },
  (err: unknown) => {
    process.stderr.write(`exchange failed: ${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(1);
  },
);
