/**
 * The soak run (`npm run soak`, not in CI): the embedded exchange in its own process, held for a
 * while under 16 order loops (place, wait for the acknowledgement, cancel, wait) and 200 public
 * sockets on checksummed books. Every 30 s and at the end it reports the exchange's memory (RSS),
 * the order rate, the acknowledgement latency (p50/p99), and the books' checksums verified and
 * failed; at the end, whether anything acknowledged was lost (every acknowledged order either
 * cancelled or still open on the exchange, none open at the end) and whether memory stayed flat
 * (the last third's RSS against the first third's after warm-up).
 *
 *   npm run soak                         10 minutes
 *   npm run soak -- --minutes 2          shorter
 *   npm run soak -- --loops 16 --sockets 200
 */
import { spawn } from "node:child_process";
import { createHmac } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import WebSocket from "ws";
import { messageText } from "../server/ws-text.ts";
import { CONF_FLAGS } from "../src/protocol/index.ts";
import { FeedCore } from "../src/workers/core/index.ts";

const args = process.argv.slice(2);
const arg = (name: string, fallback: number): number => {
  const i = args.indexOf(`--${name}`);
  const v = i >= 0 ? Number(args[i + 1]) : NaN;
  return Number.isFinite(v) && v > 0 ? v : fallback;
};
const MINUTES = arg("minutes", 10);
const LOOPS = arg("loops", 16);
const SOCKETS = arg("sockets", 200);
const PORT = arg("port", 5281);
const REPORT_MS = 30_000;
const DEMO_KEY = { key: "demo-api-key", secret: "demo-api-secret" };
const SYMBOLS = ["tBTCUSD", "tETHUSD", "tLTCUSD", "tXRPUSD", "tSOLUSD"];

const dir = mkdtempSync(join(tmpdir(), "soak-"));
const root = new URL("..", import.meta.url).pathname;
const exchange = spawn(process.execPath, ["--import", "tsx", "server/exchange-main.ts"], {
  cwd: root,
  env: {
    ...process.env,
    EXCHANGE_PORT: String(PORT),
    EXCHANGE_DB: join(dir, "soak.db"),
    // The soak is one address with hundreds of sockets and order loops as fast as acks come.
    WS_LIMITS: `perAddress=${SOCKETS + LOOPS + 10},messagesPerSecond=5000`,
    RATE_LIMITS: "public=1000000,auth=1000000,login=1000",
  },
  stdio: ["ignore", "ignore", "inherit"],
});

function rssMiB(): number {
  try {
    const status = readFileSync(`/proc/${exchange.pid}/status`, "utf8");
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

const wait = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function ready(): Promise<void> {
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${PORT}/v2/platform/status`)).ok) return;
    } catch {
      // not up yet
    }
    await wait(200);
  }
  throw new Error("the exchange did not start");
}

let nonce = Date.now() * 1000;
function keyAuth(): Record<string, unknown> {
  const n = ++nonce;
  const payload = `AUTH${n}`;
  return {
    event: "auth",
    apiKey: DEMO_KEY.key,
    authNonce: n,
    authPayload: payload,
    authSig: createHmac("sha384", DEMO_KEY.secret).update(payload).digest("hex"),
  };
}

// --- public sockets: checksummed books through the worker's own feed core -------------------
const feeds: FeedCore[] = [];
const publicSockets: WebSocket[] = [];
function openPublic(i: number): void {
  const ws = new WebSocket(`ws://127.0.0.1:${PORT}/ws/2`, { perMessageDeflate: false });
  const core = new FeedCore({
    send: (m) => ws.send(JSON.stringify(m)),
    now: () => Date.now(),
    flags: CONF_FLAGS.OB_CHECKSUM,
  });
  core.subscribe({
    channel: "book",
    symbol: SYMBOLS[i % SYMBOLS.length] as string,
    prec: "P0",
    freq: "F0",
    len: "25",
  });
  ws.on("open", () => core.onOpen());
  ws.on("message", (d) => core.onMessage(messageText(d)));
  ws.on("close", () => core.onClose());
  feeds.push(core);
  publicSockets.push(ws);
}

// --- order loops ------------------------------------------------------------------------------
interface LoopStats {
  placed: number;
  acked: number;
  cancelled: number;
  refused: number;
  latencies: number[];
}
const loops: LoopStats[] = [];
const loopSockets: WebSocket[] = [];
const ackedIds = new Set<number>();
const cancelledIds = new Set<number>();
let running = true;

async function orderLoop(i: number): Promise<void> {
  const stats: LoopStats = { placed: 0, acked: 0, cancelled: 0, refused: 0, latencies: [] };
  loops.push(stats);
  const ws = new WebSocket(`ws://127.0.0.1:${PORT + 1}/ws/2`, { perMessageDeflate: false });
  loopSockets.push(ws);
  let waiting: ((n: unknown[]) => void) | null = null;
  ws.on("message", (d) => {
    const f = JSON.parse(messageText(d)) as unknown;
    if (Array.isArray(f) && f[0] === 0 && f[1] === "n" && Array.isArray(f[2])) waiting?.(f[2] as unknown[]);
  });
  await new Promise((r) => ws.once("open", r));
  ws.send(JSON.stringify(keyAuth()));
  await wait(300);
  let cid = i * 1_000_000;
  /**
   * Sends an input and resolves with its `…-req` notification (or null after 10 s). Every loop is
   * the same user, and the exchange tells all of a user's sockets: `mine` picks this loop's own.
   */
  const ask = (input: unknown[], type: string, mine: (data: unknown[]) => boolean): Promise<unknown[] | null> =>
    new Promise((resolve) => {
      const t = setTimeout(() => {
        waiting = null;
        resolve(null);
      }, 10_000);
      waiting = (n) => {
        if (n[1] !== type || !Array.isArray(n[4]) || !mine(n[4] as unknown[])) return;
        clearTimeout(t);
        waiting = null;
        resolve(n);
      };
      ws.send(JSON.stringify(input));
    });
  while (running) {
    const t0 = performance.now();
    stats.placed++;
    const myCid = ++cid;
    const placed = await ask(
      [0, "on", null, { type: "EXCHANGE LIMIT", symbol: "tBTCUSD", amount: "0.001", price: "1000", cid: myCid }],
      "on-req",
      (order) => order[2] === myCid,
    );
    if (!placed || placed[6] !== "SUCCESS") {
      stats.refused++;
      await wait(50);
      continue;
    }
    stats.latencies.push(performance.now() - t0);
    stats.acked++;
    const order = placed[4] as unknown[];
    const id = order[0] as number;
    ackedIds.add(id);
    const cancelled = await ask([0, "oc", null, { id }], "oc-req", (order) => order[0] === id);
    if (cancelled && cancelled[6] === "SUCCESS") {
      stats.cancelled++;
      cancelledIds.add(id);
    }
  }
  ws.close();
}

function quantile(xs: number[], q: number): number {
  if (xs.length === 0) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] as number;
}

const rss: { t: number; mib: number }[] = [];
function report(label: string, t0: number): void {
  const elapsed = (Date.now() - t0) / 1000;
  const acked = loops.reduce((n, l) => n + l.acked, 0);
  const lat = loops.flatMap((l) => l.latencies);
  const ok = feeds.reduce((n, f) => n + f.stats.checksumsOk, 0);
  const failed = feeds.reduce((n, f) => n + f.stats.checksumsFailed, 0);
  const mib = rssMiB();
  console.log(
    `${label.padEnd(6)} ${elapsed.toFixed(0).padStart(4)} s  rss ${mib.toFixed(0)} MiB  orders ${(acked / Math.max(1, elapsed)).toFixed(1)}/s ` +
      `(${acked} acked)  ack p50 ${quantile(lat, 0.5).toFixed(1)} ms p99 ${quantile(lat, 0.99).toFixed(1)} ms  ` +
      `checksums ${ok} ok ${failed} failed`,
  );
}

async function openOrders(): Promise<number> {
  const path = "/v2/auth/r/orders";
  const n = ++nonce;
  const res = await fetch(`http://127.0.0.1:${PORT + 1}${path}`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "bfx-apikey": DEMO_KEY.key,
      "bfx-nonce": String(n),
      "bfx-signature": createHmac("sha384", DEMO_KEY.secret).update(`/api${path}${n}{}`).digest("hex"),
    },
    body: "{}",
  });
  const body = (await res.json()) as unknown[];
  return Array.isArray(body) ? body.filter((o) => Array.isArray(o) && o[3] === "tBTCUSD" && o[16] === 1000).length : -1;
}

async function main(): Promise<void> {
  await ready();
  console.log(`soak: ${MINUTES} min, ${LOOPS} order loops, ${SOCKETS} public sockets, exchange pid ${exchange.pid}`);
  for (let i = 0; i < SOCKETS; i++) openPublic(i);
  const t0 = Date.now();
  const running16 = Array.from({ length: LOOPS }, (_, i) => orderLoop(i));
  const timer = setInterval(() => report("soak", t0), REPORT_MS);
  const sampler = setInterval(() => rss.push({ t: (Date.now() - t0) / 1000, mib: rssMiB() }), 5_000);
  await wait(MINUTES * 60_000);
  running = false;
  clearInterval(timer);
  clearInterval(sampler);
  await Promise.all(running16);
  report("end", t0);
  const lost = [...ackedIds].filter((id) => !cancelledIds.has(id)).length;
  const open = await openOrders();
  // Flat memory: after the first third (warm-up), the last third's mean RSS within 10 % of the middle's.
  const third = Math.max(1, Math.floor(rss.length / 3));
  const mean = (xs: { mib: number }[]): number => xs.reduce((n, x) => n + x.mib, 0) / Math.max(1, xs.length);
  const middle = mean(rss.slice(third, 2 * third));
  const last = mean(rss.slice(2 * third));
  const flat = rss.length < 3 || last <= middle * 1.1;
  const failed = feeds.reduce((n, f) => n + f.stats.checksumsFailed, 0);
  console.log(
    `acknowledged ${ackedIds.size}, cancel acknowledged ${cancelledIds.size}, acknowledged but not cancelled ${lost}, ` +
      `soak orders still open on the exchange ${open}; memory ${middle.toFixed(0)} → ${last.toFixed(0)} MiB (${flat ? "flat" : "GROWING"}); ` +
      `checksum failures ${failed}`,
  );
  for (const ws of publicSockets) ws.close();
  exchange.kill("SIGTERM");
  rmSync(dir, { recursive: true, force: true });
  const ok = open === lost && flat && failed === 0;
  console.log(ok ? "soak: PASS" : "soak: FAIL");
  process.exit(ok ? 0 : 1);
}

main().catch((e: unknown) => {
  console.error(e);
  exchange.kill("SIGKILL");
  process.exit(1);
});
