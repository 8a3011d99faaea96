/**
 * For the crash tests: the embedded exchange as its own process (`server/exchange-main.ts`), so a
 * test can kill it with SIGKILL mid-stream and start it again on the same database file.
 *
 * Its two ports (public API, authenticated API + 1) are picked below the kernel's ephemeral range
 * (32768 and up on Linux): a port from the ephemeral range can be taken by any outgoing connection
 * between the check and the child's listen, which made these tests fail at random under load.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { afterAll } from "vitest";
import { seededRandom } from "../../src/protocol/index.ts";

const root = new URL("../..", import.meta.url).pathname;
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) c.kill("SIGKILL");
});

const random = seededRandom(process.pid);

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = createServer();
    s.once("error", () => resolve(false));
    s.listen(port, "127.0.0.1", () => s.close(() => resolve(true)));
  });
}

/** A port whose next one is free too, between 20000 and 32000. */
export async function freePortPair(): Promise<number> {
  for (;;) {
    const port = 20_000 + 2 * Math.floor(random() * 6_000);
    if ((await canListen(port)) && (await canListen(port + 1))) return port;
  }
}

export interface ExchangeProcess {
  readonly child: ChildProcess;
  readonly port: number;
}

/**
 * Starts the exchange on `db` with `env` added, on `port` when given (a restart keeps its port),
 * else on a free pair; resolves once it says it is ready. A port lost to another process between
 * the check and the listen is retried on a new pair (never for a given port).
 */
export async function startExchangeProcess(
  db: string,
  env: Readonly<Record<string, string>> = {},
  port?: number,
): Promise<ExchangeProcess> {
  for (let attempt = 0; ; attempt++) {
    const p = port ?? (await freePortPair());
    const child = spawn(process.execPath, ["--import", "tsx", "server/exchange-main.ts"], {
      cwd: root,
      env: { ...process.env, EXCHANGE_PORT: String(p), EXCHANGE_DB: db, NODE_OPTIONS: "", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    children.push(child);
    const started = await new Promise<"ready" | "port-taken">((resolve, reject) => {
      let out = "";
      const timer = setTimeout(() => reject(new Error(`exchange did not start: ${out}`)), 30_000);
      const seen = (d: Buffer): void => {
        out += String(d);
        if (out.includes("Exchange ready")) {
          clearTimeout(timer);
          resolve("ready");
        } else if (out.includes("EADDRINUSE") && port === undefined && attempt < 5) {
          clearTimeout(timer);
          resolve("port-taken");
        }
      };
      child.stdout?.on("data", seen);
      child.stderr?.on("data", seen);
    });
    if (started === "ready") return { child, port: p };
    child.kill("SIGKILL");
  }
}
