/**
 * Starts the embedded exchange: storage, accounts, trading, the simulator and the API hosts.
 * Used by `npm start` (server/main.ts) and on its own by server/exchange-main.ts.
 */
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { createApiServer, type ApiServer } from "./api-server.ts";
import { AccountGateway } from "./exchange/account-gateway.ts";
import { Exchange } from "./exchange/exchange.ts";
import { Trading } from "./exchange/trading.ts";
import { Accounts } from "./store/accounts.ts";
import { nextIdFrom, openDb } from "./store/db.ts";
import { seedDemo } from "./store/seed.ts";

export interface ExchangeHostOptions {
  readonly host: string;
  readonly publicPort: number;
  readonly authPort: number;
  readonly appOrigin: string;
  readonly dbPath: string;
  readonly simStepMs: number;
  readonly seed: number;
  readonly geoCountry: string;
  readonly log: (line: string) => void;
}

export interface ExchangeHost {
  readonly exchange: Exchange;
  stop(): Promise<void>;
}

export async function startExchangeHost(o: ExchangeHostOptions): Promise<ExchangeHost> {
  const exchange = new Exchange({ now: () => Date.now(), seed: o.seed });
  if (o.dbPath !== ":memory:") mkdirSync(dirname(o.dbPath), { recursive: true });
  const db = openDb(o.dbPath);
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
  if (seedDemo(accounts, trading, Date.now()) !== null) o.log("Seeded the demo account (see README).");
  const restored = trading.restore();
  if (restored > 0) o.log(`Restored ${restored} open orders.`);
  const apis: ApiServer[] = [];
  for (const port of [o.publicPort, o.authPort]) {
    const api = createApiServer({
      exchange,
      appOrigin: o.appOrigin,
      now: () => Date.now(),
      platformStatus: () => 1,
      geoCountry: o.geoCountry,
      account: gateway,
    });
    await new Promise<void>((done) => api.server.listen(port, o.host, done));
    apis.push(api);
  }
  const stepper = setInterval(() => exchange.simulator.step(), o.simStepMs);
  o.log(
    `Exchange ready: public API http://${o.host}:${o.publicPort}/, authenticated API http://${o.host}:${o.authPort}/`,
  );
  return {
    exchange,
    async stop() {
      clearInterval(stepper);
      // Tell connected clients we are going away (info 20051) so they reconnect promptly.
      for (const api of apis) api.sockets.info(20051, "Stopping. Please try to reconnect");
      await Promise.all(apis.map((a) => a.close()));
      db.close();
    },
  };
}
