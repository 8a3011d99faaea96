/**
 * The embedded exchange over real loopback sockets: part of `npm run bench`, and on its own
 * `node scripts/run-ts.mjs bench/server-bench.ts [--quick]`. Scenarios (fixed list):
 *   orders-ws      `on` over the authenticated WebSocket: 1000 pipelined (throughput), and one at a
 *                  time (round trip); acknowledgement = the `[0,"on",…]` frame
 *   orders-rest    `/v2/auth/w/order/submit` with a session token: 16 requests in flight, and one
 *                  at a time; acknowledgement = the 200 reply
 *                  both with a WAL database file (what `npm start` runs) and with `:memory:`
 *   fanout         1, 10, 100, 500 clients on book tBTCUSD P0 len 25 with the checksum and timestamp
 *                  flags (as the app subscribes, plus timestamps), while bursts of 8 book changes run
 *                  every 60 ms (the strongest stress intensity), 10 ms and 2 ms
 * The exchange runs in a worker thread, the clients on the main thread: on a 2-core machine each side
 * gets a core, so the clients' parsing never delays the server's event loop (which would charge the
 * clients' work to the server). The rest is the real host (exchange-host.ts): every listed market,
 * the simulator stepping every 250 ms, one API server with accounts; only the rate limits are lifted.
 * Medians of several rounds after a warm-up; raw JSON and a markdown table go to bench/results/.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";
import WebSocket from "ws";
import { CONF_FLAGS } from "../src/protocol/index.ts";
import { createApiServer } from "../server/api-server.ts";
import { openVenue } from "../server/exchange/venue.ts";
import { DEMO } from "../server/store/seed.ts";
import { messageText } from "../server/ws-text.ts";

const quick = process.argv.includes("--quick");
const ROUNDS = quick ? 1 : 5;
const PIPELINED = quick ? 300 : 1000;
const ONE_BY_ONE = quick ? 50 : 200;
const REST_PARALLEL = quick ? 200 : 600;
const REST_IN_FLIGHT = 16;
const FANOUT_CLIENTS = quick ? [1, 100] : [1, 10, 100, 500];
const FANOUT_INTENSITIES = [
  { intervalMs: 60, updates: 8 },
  { intervalMs: 10, updates: 8 },
  { intervalMs: 2, updates: 8 },
];
const FANOUT_ROUNDS = quick ? 1 : 3;
const FANOUT_ROUND_MS = quick ? 500 : 1000;
const FANOUT_WARM_MS = quick ? 300 : 500;
const SIM_STEP_MS = 250; // SIM_STEP_MS's default in server/main.ts
const WAIT_LIMIT_MS = 60_000;

/** Monotonic milliseconds, the same source in every thread of the process (unlike performance.now). */
function hrMs(): number {
  const [s, ns] = process.hrtime();
  return s * 1e3 + ns / 1e6;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

function quantile(xs: Float64Array | number[], q: number): number {
  const s = Float64Array.from(xs).sort();
  return s.length === 0 ? Number.NaN : (s[Math.min(s.length - 1, Math.floor(s.length * q))] as number);
}
const median = (xs: number[]): number => quantile(xs, 0.5);

// --- the exchange thread ----------------------------------------------------------------------

interface ServeOptions {
  readonly dbPath: string;
  /** Date.now() − hrMs() taken on the main thread: both threads read the same clock with it. */
  readonly epochOffset: number;
}

type Request =
  | { readonly id: number; readonly op: "drive"; readonly intervalMs: number; readonly updates: number }
  | { readonly id: number; readonly op: "direct"; readonly orders: number; readonly rounds: number }
  | { readonly id: number; readonly op: "halt" | "mark" | "read" | "close" };

interface Reply {
  readonly id: number;
  readonly port?: number;
  readonly bursts?: number;
  readonly elu?: number;
  readonly perS?: number;
  readonly burstMs?: number;
}

/** A resting buy far below the market: it never trades, and reserves ~$1–2 of the demo's $100 000. */
function restingOrder(cid: number): Record<string, unknown> {
  // Prices spread over 500 levels, so no single level's queue grows long.
  return { type: "EXCHANGE LIMIT", symbol: "tBTCUSD", amount: "0.001", price: String(1000 + (cid % 500)), cid };
}

function serve(o: ServeOptions): void {
  const port = parentPort;
  if (!port) throw new Error("serve() runs in a worker");
  const reply = (r: Reply): void => port.postMessage(r);
  const clock = (): number => hrMs() + o.epochOffset;
  // While a driver runs, the API server's clock reads the moment the driver started: every frame
  // of that burst carries it in its TIMESTAMP suffix (sub-millisecond, on the clock the clients
  // read), so a client measures from the book change to its own receipt, including the time the
  // server spent on the clients served before it. Everything else sees Date.now() as in production.
  let stamp: number | null = null;
  const now = (): number => stamp ?? Date.now();
  const { exchange, db, orders, gateway: account, seeded } = openVenue({ dbPath: o.dbPath, seed: 42 });
  const demo = seeded ?? 0;
  const api = createApiServer({
    exchange,
    appOrigin: "http://127.0.0.1:1",
    now,
    platformStatus: () => 1,
    account,
    limits: { public: 1e9, auth: 1e9, login: 1e9 },
    // The bench measures capacity, not policy: hundreds of sockets from loopback, order bursts, and
    // clients on one busy thread that read late.
    socketLimits: { perAddress: 1e9, messagesPerSecond: 1e9, maxBufferedBytes: 1e9 },
  });
  const step = setInterval(() => {
    stamp = clock();
    exchange.simulator.step();
    stamp = null;
  }, SIM_STEP_MS);
  let driver: ReturnType<typeof setInterval> | null = null;
  let bursts = 0;
  /** How long each burst held the exchange's thread, all its frames written: since the last mark. */
  let burstMs: number[] = [];
  let elu = performance.eventLoopUtilization();
  port.on("message", (m: Request) => {
    switch (m.op) {
      case "drive": {
        if (driver) clearInterval(driver);
        driver = setInterval(() => {
          stamp = clock();
          exchange.simulator.burst("tBTCUSD", m.updates);
          burstMs.push(clock() - stamp);
          stamp = null;
          bursts++;
        }, m.intervalMs);
        return reply({ id: m.id });
      }
      case "direct": {
        // The same input the socket hands over, without a socket: what the core costs per order.
        const rates: number[] = [];
        for (let r = 0; r <= m.rounds; r++) {
          const t0 = hrMs();
          for (let i = 1; i <= m.orders; i++) account.input(demo, "on", restingOrder(i));
          const ms = hrMs() - t0;
          orders.cancelAll(demo);
          if (r > 0) rates.push((m.orders * 1000) / ms); // round 0 warms the JIT
        }
        return reply({ id: m.id, perS: median(rates) });
      }
      case "halt":
        if (driver) clearInterval(driver);
        driver = null;
        return reply({ id: m.id });
      case "mark":
        elu = performance.eventLoopUtilization();
        burstMs = [];
        return reply({ id: m.id, bursts });
      case "read":
        return reply({
          id: m.id,
          bursts,
          elu: performance.eventLoopUtilization(elu).utilization,
          burstMs: median(burstMs),
        });
      case "close":
        if (driver) clearInterval(driver);
        clearInterval(step);
        void api.close().then(() => {
          db.close();
          reply({ id: m.id });
          port.close();
        });
        return;
    }
  });
  api.server.listen(0, "127.0.0.1", () => reply({ id: 0, port: (api.server.address() as AddressInfo).port }));
}

// --- the clients' side ------------------------------------------------------------------------

const epochOffset = Date.now() - hrMs();
const clock = (): number => hrMs() + epochOffset;

class ServerThread {
  readonly #worker: Worker;
  readonly #pending = new Map<number, (r: Reply) => void>();
  #next = 1;
  port = 0;

  private constructor(dbPath: string) {
    const options: ServeOptions = { dbPath, epochOffset };
    this.#worker = new Worker(new URL(import.meta.url), { workerData: options });
    this.#worker.on("message", (r: Reply) => {
      this.#pending.get(r.id)?.(r);
      this.#pending.delete(r.id);
    });
    this.#worker.on("error", (e) => {
      console.error(e);
      process.exit(1);
    });
  }

  static async start(dbPath: string): Promise<ServerThread> {
    const s = new ServerThread(dbPath);
    const ready = await new Promise<Reply>((r) => s.#pending.set(0, r));
    s.port = ready.port ?? 0;
    return s;
  }

  async close(): Promise<void> {
    await this.call("close");
    await this.#worker.terminate();
  }

  call(op: "halt" | "mark" | "read" | "close"): Promise<Reply>;
  call(op: "drive", intervalMs: number, updates: number): Promise<Reply>;
  call(op: "direct", orders: number, rounds: number): Promise<Reply>;
  call(op: Request["op"], a = 0, b = 0): Promise<Reply> {
    const id = this.#next++;
    const req: Request =
      op === "drive"
        ? { id, op, intervalMs: a, updates: b }
        : op === "direct"
          ? { id, op, orders: a, rounds: b }
          : { id, op };
    return new Promise((resolve) => {
      this.#pending.set(id, resolve);
      this.#worker.postMessage(req);
    });
  }
}

function connect(url: string, onMessage: (text: string) => void): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { perMessageDeflate: false });
    ws.on("message", (data) => onMessage(messageText(data)));
    ws.once("open", () => resolve(ws));
    ws.once("error", reject);
  });
}

/** A count that a caller can wait on reaching a target. */
class Counter {
  n = 0;
  #target = Number.POSITIVE_INFINITY;
  #done: (() => void) | null = null;

  add(): void {
    if (++this.n >= this.#target && this.#done) {
      const done = this.#done;
      this.#done = null;
      done();
    }
  }

  reach(target: number, what: string): Promise<void> {
    if (this.n >= target) return Promise.resolve();
    this.#target = target;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), WAIT_LIMIT_MS);
      this.#done = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }
}

// --- order rate -------------------------------------------------------------------------------

/** One way of placing orders: acknowledged orders per second, and how busy each side's loop was. */
interface OrderFigure {
  perS: number;
  /** Median send-to-acknowledgement time, one order at a time (NaN for pipelined runs). */
  roundTripMs: number;
  serverBusy: number;
  clientBusy: number;
}

const ORDER_MODES = ["wsPipelined", "wsOneByOne", "restParallel", "restOneByOne"] as const;
type OrderMode = (typeof ORDER_MODES)[number];

interface OrderResult {
  /** `on` handed to the account gateway inside the exchange thread: the ceiling without a socket. */
  inProcessPerS: number;
  modes: Record<OrderMode, OrderFigure>;
  rounds: Record<OrderMode, OrderFigure>[];
}

async function measureOrders(dbPath: string): Promise<OrderResult> {
  const srv = await ServerThread.start(dbPath);
  // Before any socket is authenticated, so no event of it goes anywhere.
  const inProcessPerS = (await srv.call("direct", PIPELINED, ROUNDS)).perS ?? Number.NaN;
  const base = `http://127.0.0.1:${srv.port}`;
  const login = await fetch(`${base}/v2/login`, {
    method: "POST",
    body: JSON.stringify({ login: DEMO.username, password: DEMO.password }),
  });
  const [token] = (await login.json()) as [string];
  const acks = new Counter();
  const cancels = new Counter();
  let authed: (ok: boolean) => void = () => {};
  const ws = await connect(`ws://127.0.0.1:${srv.port}/ws/2`, (s) => {
    // Prefix checks, not JSON.parse: the client's thread is the other half of the machine.
    if (s.startsWith('[0,"on",')) acks.add();
    else if (s.startsWith('[0,"oc",')) cancels.add();
    else if (s.startsWith('[0,"n",') && s.includes('"ERROR"')) throw new Error(`order refused: ${s}`);
    else if (s.startsWith('{"event":"auth"')) authed(s.includes('"OK"'));
  });
  const ok = await new Promise<boolean>((r) => {
    authed = r;
    ws.send(JSON.stringify({ event: "auth", token }));
  });
  if (!ok) throw new Error("auth failed");
  let cid = 1_000_000; // above the in-process run's cids
  let sent = 0;
  // Every mode ends with the account's orders cancelled, so open orders never pile up (settlement
  // and the stop checks walk them) and the balance is never the limit.
  let cancelled = 0;
  const cancelAll = async (): Promise<void> => {
    // REST orders announce themselves on the socket too: all of them are in before the cancel.
    await acks.reach(sent, "acknowledgements on the socket");
    const target = cancels.n + (sent - cancelled);
    cancelled = sent;
    ws.send(JSON.stringify([0, "oc_multi", null, { all: 1 }]));
    await cancels.reach(target, "cancels");
  };
  const wsOrder = (): void => {
    sent++;
    ws.send(JSON.stringify([0, "on", null, restingOrder(cid++)]));
  };
  const submit = async (): Promise<void> => {
    sent++;
    const res = await fetch(`${base}/v2/auth/w/order/submit`, {
      method: "POST",
      headers: { "content-type": "application/json", "bfx-token": token },
      body: JSON.stringify(restingOrder(cid++)),
    });
    if (res.status !== 200) throw new Error(`submit: ${res.status} ${await res.text()}`);
    await res.arrayBuffer();
  };
  /** Runs `n` orders the given way; times each one when they go one at a time. */
  const run = async (mode: OrderMode, n: number): Promise<OrderFigure> => {
    const trips: number[] = [];
    await srv.call("mark");
    const elu0 = performance.eventLoopUtilization();
    const t0 = hrMs();
    if (mode === "wsPipelined") {
      // Everything sent at once: the server takes one frame after another off the socket.
      const target = acks.n + n;
      for (let i = 0; i < n; i++) wsOrder();
      await acks.reach(target, "pipelined acknowledgements");
    } else if (mode === "wsOneByOne") {
      for (let i = 0; i < n; i++) {
        const t = hrMs();
        const target = acks.n + 1;
        wsOrder();
        await acks.reach(target, "acknowledgement");
        trips.push(hrMs() - t);
      }
    } else if (mode === "restParallel") {
      // Keep-alive connections from fetch's pool, REST_IN_FLIGHT requests outstanding at any time.
      let left = n;
      await Promise.all(
        Array.from({ length: REST_IN_FLIGHT }, async () => {
          while (left-- > 0) await submit();
        }),
      );
    } else {
      for (let i = 0; i < n; i++) {
        const t = hrMs();
        await submit();
        trips.push(hrMs() - t);
      }
    }
    const ms = hrMs() - t0;
    const clientBusy = performance.eventLoopUtilization(elu0).utilization;
    const serverBusy = (await srv.call("read")).elu ?? Number.NaN;
    await cancelAll();
    return {
      perS: (n * 1000) / ms,
      roundTripMs: trips.length > 0 ? median(trips) : Number.NaN,
      serverBusy,
      clientBusy,
    };
  };
  const counts: Record<OrderMode, number> = {
    wsPipelined: PIPELINED,
    wsOneByOne: ONE_BY_ONE,
    restParallel: REST_PARALLEL,
    restOneByOne: ONE_BY_ONE,
  };
  const rounds: Record<OrderMode, OrderFigure>[] = [];
  for (let r = 0; r <= ROUNDS; r++) {
    const round = {} as Record<OrderMode, OrderFigure>;
    for (const mode of ORDER_MODES) round[mode] = await run(mode, counts[mode]);
    if (r > 0) rounds.push(round); // round 0 warms the JIT on both sides
  }
  ws.close();
  await srv.close();
  const pick = (mode: OrderMode, k: keyof OrderFigure): number => median(rounds.map((x) => x[mode][k]));
  const modes = Object.fromEntries(
    ORDER_MODES.map((mode) => [
      mode,
      {
        perS: pick(mode, "perS"),
        roundTripMs: pick(mode, "roundTripMs"),
        serverBusy: pick(mode, "serverBusy"),
        clientBusy: pick(mode, "clientBusy"),
      },
    ]),
  ) as Record<OrderMode, OrderFigure>;
  return { inProcessPerS, modes, rounds };
}

// --- fan-out ----------------------------------------------------------------------------------

interface FanoutRow {
  clients: number;
  intervalMs: number;
  updates: number;
  /** Book changes per second the server actually ran (the driver falls behind when saturated). */
  changesPerS: number;
  /** Frames per second received by all clients together (updates and `cs`). */
  framesPerS: number;
  /** Book update frames per second one client received. */
  updatesPerClientPerS: number;
  /** Median time one burst held the exchange's thread (its frames to every client written). */
  burstMs: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  serverElu: number;
  clientElu: number;
}

/** What every fan-out client's frames go into: one thread, so one shared recorder. */
const rec = {
  on: false,
  total: 0,
  frames: 0,
  updates: 0,
  n: 0,
  latency: new Float64Array(4_000_000),
};

function onBookFrame(s: string): void {
  rec.total++;
  if (!rec.on || s.charCodeAt(0) !== 0x5b /* [ */) return;
  // [chanId,[p,c,a],ts] or [chanId,"cs",n,ts] or [chanId,"hb",ts]: the timestamp is the last number.
  const first = s.indexOf(",");
  const isText = s.charCodeAt(first + 1) === 0x22; /* " */
  if (isText && s.charCodeAt(first + 2) === 0x68 /* h */) return;
  const ts = Number(s.slice(s.lastIndexOf(",") + 1, s.length - 1));
  rec.frames++;
  if (!isText) rec.updates++;
  if (rec.n < rec.latency.length) rec.latency[rec.n++] = clock() - ts;
}

async function openBookClient(port: number): Promise<WebSocket> {
  let subscribed: () => void = () => {};
  const ready = new Promise<void>((r) => (subscribed = r));
  const ws = await connect(`ws://127.0.0.1:${port}/ws/2`, (s) => {
    if (s.startsWith('{"event":"subscribed"')) subscribed();
    onBookFrame(s);
  });
  ws.send(JSON.stringify({ event: "conf", flags: CONF_FLAGS.OB_CHECKSUM | CONF_FLAGS.TIMESTAMP }));
  ws.send(JSON.stringify({ event: "subscribe", channel: "book", symbol: "tBTCUSD", prec: "P0", len: "25" }));
  await ready;
  return ws;
}

/** Waits until no frame has arrived for 200 ms: what the server queued is delivered. */
async function drain(): Promise<void> {
  let last = -1;
  while (rec.total !== last) {
    last = rec.total;
    await sleep(200);
  }
}

async function measureFanout(): Promise<FanoutRow[]> {
  const srv = await ServerThread.start(":memory:");
  const clients: WebSocket[] = [];
  const rows: FanoutRow[] = [];
  for (const n of FANOUT_CLIENTS) {
    while (clients.length < n) {
      const batch = Math.min(50, n - clients.length);
      clients.push(...(await Promise.all(Array.from({ length: batch }, () => openBookClient(srv.port)))));
    }
    for (const { intervalMs, updates } of FANOUT_INTENSITIES) {
      await srv.call("drive", intervalMs, updates);
      await sleep(FANOUT_WARM_MS);
      const rounds: FanoutRow[] = [];
      for (let r = 0; r < FANOUT_ROUNDS; r++) {
        rec.frames = rec.updates = rec.n = 0;
        const b0 = (await srv.call("mark")).bursts ?? 0;
        const elu0 = performance.eventLoopUtilization();
        const t0 = hrMs();
        rec.on = true;
        await sleep(FANOUT_ROUND_MS);
        rec.on = false;
        const s = (hrMs() - t0) / 1000;
        const end = await srv.call("read");
        const lat = rec.latency.subarray(0, rec.n);
        rounds.push({
          clients: n,
          intervalMs,
          updates,
          changesPerS: (((end.bursts ?? 0) - b0) * updates) / s,
          framesPerS: rec.frames / s,
          updatesPerClientPerS: rec.updates / n / s,
          burstMs: end.burstMs ?? Number.NaN,
          latencyP50Ms: quantile(lat, 0.5),
          latencyP99Ms: quantile(lat, 0.99),
          serverElu: end.elu ?? Number.NaN,
          clientElu: performance.eventLoopUtilization(elu0).utilization,
        });
      }
      await srv.call("halt");
      await drain();
      const pick = (k: keyof FanoutRow): number => median(rounds.map((x) => x[k]));
      const row: FanoutRow = {
        clients: n,
        intervalMs,
        updates,
        changesPerS: pick("changesPerS"),
        framesPerS: pick("framesPerS"),
        updatesPerClientPerS: pick("updatesPerClientPerS"),
        burstMs: pick("burstMs"),
        latencyP50Ms: pick("latencyP50Ms"),
        latencyP99Ms: pick("latencyP99Ms"),
        serverElu: pick("serverElu"),
        clientElu: pick("clientElu"),
      };
      rows.push(row);
      process.stdout.write(
        `fanout, ${n} clients at ${intervalMs} ms/${updates}: ${row.framesPerS.toFixed(0)} frames/s\n`,
      );
    }
  }
  for (const ws of clients) ws.terminate();
  await srv.close();
  return rows;
}

// --- report -----------------------------------------------------------------------------------

async function main(): Promise<void> {
  const started = hrMs();
  const dir = mkdtempSync(join(tmpdir(), "bench-exchange-"));
  let wal: OrderResult;
  let memory: OrderResult;
  try {
    wal = await measureOrders(join(dir, "exchange.db"));
    process.stdout.write(`orders, WAL file: ${wal.modes.wsPipelined.perS.toFixed(0)}/s over WS pipelined\n`);
    memory = await measureOrders(":memory:");
    process.stdout.write(`orders, :memory:: ${memory.modes.wsPipelined.perS.toFixed(0)}/s over WS pipelined\n`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const fanout = await measureFanout();
  const results = {
    date: new Date().toISOString(),
    node: process.version,
    cpus: `${cpus().length} × ${cpus()[0]?.model ?? "?"}`,
    rounds: ROUNDS,
    fanoutRounds: FANOUT_ROUNDS,
    fanoutRoundMs: FANOUT_ROUND_MS,
    seconds: (hrMs() - started) / 1000,
    quick,
    orders: { walFile: wal, memory },
    fanout,
  };
  const f0 = (x: number): string => x.toFixed(0);
  const f2 = (x: number): string => (Number.isNaN(x) ? "–" : `${x.toFixed(2)} ms`);
  const pct = (x: number): string => `${(x * 100).toFixed(0)}%`;
  const label: Record<OrderMode, string> = {
    wsPipelined: `WS \`on\`, ${PIPELINED} pipelined`,
    wsOneByOne: "WS `on`, one at a time",
    restParallel: `REST submit, ${REST_IN_FLIGHT} in flight`,
    restOneByOne: "REST submit, one at a time",
  };
  const table = [
    `# Server bench ${results.date}`,
    "",
    `### orders (median of ${ROUNDS} rounds; acknowledged orders per second)`,
    "",
    "| path | WAL file | round trip | exchange loop busy | bench client busy | :memory: |",
    "|---|---:|---:|---:|---:|---:|",
    `| in-process \`on\` (no socket), ${PIPELINED} | ${f0(wal.inProcessPerS)} | – | – | – | ${f0(memory.inProcessPerS)} |`,
    ...ORDER_MODES.map((m) => {
      const w = wal.modes[m];
      return `| ${label[m]} | ${f0(w.perS)} | ${f2(w.roundTripMs)} | ${pct(w.serverBusy)} | ${pct(w.clientBusy)} | ${f0(memory.modes[m].perS)} |`;
    }),
    "",
    `### fanout (book tBTCUSD P0 25, checksum + timestamp flags; median of ${FANOUT_ROUNDS} × ${FANOUT_ROUND_MS} ms)`,
    "",
    "| clients | driver | book changes/s run | frames/s (all clients) | updates/s per client | one burst in the exchange | latency p50 | p99 | exchange loop busy | clients' loop busy |",
    "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ...fanout.map(
      (r) =>
        `| ${r.clients} | ${r.intervalMs} ms/${r.updates} | ${f0(r.changesPerS)} | ${f0(r.framesPerS)} | ${f0(r.updatesPerClientPerS)} | ${f2(r.burstMs)} | ${f2(r.latencyP50Ms)} | ${f2(r.latencyP99Ms)} | ${pct(r.serverElu)} | ${pct(r.clientElu)} |`,
    ),
  ];
  // BENCH_RESULTS_DIR: elsewhere (the smoke run of npm test keeps the committed results as they are).
  const out =
    process.env["BENCH_RESULTS_DIR"] ??
    join(process.env["ENTRY_DIR"] ?? new URL(".", import.meta.url).pathname, "results");
  mkdirSync(out, { recursive: true });
  // Only the latest run is kept: the dated core-*.json files are git-ignored, server ones are not.
  writeFileSync(join(out, "server-latest.json"), `${JSON.stringify(results, null, 2)}\n`);
  writeFileSync(join(out, "server-latest.md"), `${table.join("\n")}\n`);
  process.stdout.write(
    `${table.join("\n")}\n\n${results.seconds.toFixed(0)} s; results written to ${join(out, "server-latest.json")}\n`,
  );
}

if (isMainThread) {
  main().then(
    () => process.exit(0),
    (e: unknown) => {
      console.error(e);
      process.exit(1);
    },
  );
} else serve(workerData as ServeOptions);
