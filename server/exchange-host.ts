/**
 * Starts the embedded exchange: storage, accounts, trading, the simulator and the API hosts.
 * Used by `npm start` (server/main.ts) and on its own by server/exchange-main.ts.
 */
import { mkdirSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { dirname, resolve } from "node:path";
import { DERIV_FUNDING_INTERVAL_MS, INFO_CODES } from "../src/protocol/index.ts";
import { createApiServer, type ApiServer } from "./api-server.ts";
import type { Exchange } from "./exchange/exchange.ts";
import { replayFromFile } from "./exchange/replay.ts";
import { openVenue } from "./exchange/venue.ts";
import type { CrashPoint } from "./exchange/derivatives.ts";
import { reportsOf } from "./exchange/reports.ts";
import { DEFAULT_LIMITS, type LimitGroup } from "./rate-limit.ts";
import { Identity } from "./identity.ts";
import { PasswordReset } from "./password-reset.ts";
import { Signup } from "./signup.ts";
import { guarded } from "./log.ts";
import { socketLimitsFromEnv, type SocketLimits } from "./socket-guard.ts";

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
  /** `DEV_ENDPOINTS`: the development endpoints (/dev/outbox, /dev/maintenance); api-server.ts guards them. */
  readonly devEndpoints?: boolean;
  /** Requests per minute per address and group; absent, the real exchange's defaults. */
  readonly limits?: Readonly<Record<LimitGroup, number>>;
  /** Sign-ups per address per hour before the captcha (signup.ts); `SIGNUP_CAPTCHA_AFTER` in the environment. */
  readonly signupCaptchaAfter?: number;
  /** Socket limits (socket-guard.ts); `WS_LIMITS` in the environment. */
  readonly socketLimits?: Partial<SocketLimits>;
  /** The simulated block interval deposits confirm at (exchange/deposits.ts); `DEPOSIT_BLOCK_MS`. */
  readonly depositBlockMs?: number;
  /** The time between a withdrawal's steps (exchange/withdrawals.ts); `WITHDRAW_STEP_MS`. */
  readonly withdrawStepMs?: number;
  /** The length of the funding day credits pay interest by (exchange/funding-credits.ts); `FUNDING_DAY_MS`. */
  readonly fundingDayMs?: number;
  /** The perpetuals' funding interval (exchange/derivatives.ts); `DERIV_FUNDING_MS`. */
  readonly derivFundingMs?: number;
  /** Crash tests only: where the process kills itself mid-transaction (exchange/derivatives.ts); `DERIV_CRASH_AT`. */
  readonly derivCrashAt?: CrashPoint;
  /** Stress mode: every `intervalMs`, `updates` book changes in each of `symbols`. */
  readonly stress?: { readonly intervalMs: number; readonly updates: number; readonly symbols: readonly string[] };
  /** Replay mode: a recorded stream drives one market's book, `steps` recorded changes every `stepMs`. */
  readonly replay?: {
    readonly path: string;
    readonly symbol?: string;
    readonly stepMs: number;
    readonly steps: number;
  };
}

/**
 * Reads the stress and replay modes from the environment: `STRESS=60/8` (interval ms / updates,
 * `STRESS_SYMBOLS` default tBTCUSD), `REPLAY=<recording>` (`REPLAY_SYMBOL`, `REPLAY_STEP_MS`,
 * `REPLAY_STEPS`). Refuses values that do not parse rather than running something else.
 */
export function modesFromEnv(env: NodeJS.ProcessEnv): Pick<ExchangeHostOptions, "stress" | "replay"> {
  const out: { -readonly [K in "stress" | "replay"]?: NonNullable<ExchangeHostOptions[K]> } = {};
  const stress = env["STRESS"];
  if (stress) {
    const m = /^(\d+)\s*(?:ms)?\s*[/:]\s*(\d+)$/.exec(stress.trim());
    if (!m || Number(m[1]) < 1 || Number(m[2]) < 1)
      throw new Error(`STRESS must look like 60/8 (ms/updates), got ${stress}`);
    out.stress = {
      intervalMs: Number(m[1]),
      updates: Number(m[2]),
      symbols: (env["STRESS_SYMBOLS"] ?? "tBTCUSD").split(",").map((x) => x.trim()),
    };
  }
  const replay = env["REPLAY"];
  if (replay) {
    const stepMs = Number(env["REPLAY_STEP_MS"] ?? 100);
    const steps = Number(env["REPLAY_STEPS"] ?? 5);
    if (!(stepMs >= 1 && steps >= 1)) throw new Error("REPLAY_STEP_MS and REPLAY_STEPS must be positive numbers");
    out.replay = { path: replay, stepMs, steps, ...(env["REPLAY_SYMBOL"] ? { symbol: env["REPLAY_SYMBOL"] } : {}) };
  }
  return out;
}

export interface ExchangeHost {
  readonly exchange: Exchange;
  /** host:port of the public and the authenticated API, as listening. */
  readonly hosts: readonly string[];
  /** Enters (true) or leaves (false) maintenance; false when already in that state. */
  maintenance(on: boolean): boolean;
  stop(): Promise<void>;
}

/** EXCHANGE_DB as a path; `:memory:` stays SQLite's in-memory database, not a file of that name. */
export function dbPathFrom(value: string | undefined): string {
  if (value === ":memory:") return value;
  return resolve(value ?? "server/data/exchange.db");
}

/** Everything but the addresses, from the environment (README: the embedded exchange). */
export function hostOptionsFromEnv(
  env: NodeJS.ProcessEnv,
): Omit<ExchangeHostOptions, "host" | "publicPort" | "authPort" | "appOrigin"> {
  return {
    dbPath: dbPathFrom(env["EXCHANGE_DB"]),
    simStepMs: Number(env["SIM_STEP_MS"] ?? 250),
    seed: Number(env["SIM_SEED"] ?? 42),
    geoCountry: env["GEO_COUNTRY"] ?? "GB",
    log: (line) => process.stdout.write(`${line}\n`),
    devEndpoints: devEndpointsFromEnv(env),
    ...limitsFromEnv(env),
    socketLimits: socketLimitsFromEnv(env["WS_LIMITS"]),
    ...signupCaptchaFromEnv(env),
    ...modesFromEnv(env),
    ...depositBlockFromEnv(env),
    ...withdrawStepFromEnv(env),
    ...derivativesFromEnv(env),
    ...fundingDayFromEnv(env),
  };
}

/**
 * `DEPOSIT_BLOCK_MS=N`: one simulated block (a deposit's confirmation) every N ms, 10 ms to an
 * hour; the default is deposits.ts's `DEFAULT_BLOCK_MS`. Anything else is refused.
 */
export function depositBlockFromEnv(env: NodeJS.ProcessEnv): Pick<ExchangeHostOptions, "depositBlockMs"> {
  const v = env["DEPOSIT_BLOCK_MS"];
  if (v === undefined) return {};
  if (!/^\d+$/.test(v) || Number(v) < 10 || Number(v) > 3_600_000)
    throw new Error(`DEPOSIT_BLOCK_MS must be a whole number of ms from 10 to 3600000, got ${v}`);
  return { depositBlockMs: Number(v) };
}

/**
 * `WITHDRAW_STEP_MS=N`: a confirmed withdrawal is PROCESSING N ms after its confirmation and
 * COMPLETED N ms later, 10 ms to an hour; the default is withdrawals.ts's `DEFAULT_STEP_MS`.
 * Anything else is refused.
 */
export function withdrawStepFromEnv(env: NodeJS.ProcessEnv): Pick<ExchangeHostOptions, "withdrawStepMs"> {
  const v = env["WITHDRAW_STEP_MS"];
  if (v === undefined) return {};
  if (!/^\d+$/.test(v) || Number(v) < 10 || Number(v) > 3_600_000)
    throw new Error(`WITHDRAW_STEP_MS must be a whole number of ms from 10 to 3600000, got ${v}`);
  return { withdrawStepMs: Number(v) };
}

/**
 * `FUNDING_DAY_MS=N`: the funding day — a credit's interest payment falls due once a day, and its
 * period counts in days — lasts N ms, 1 s to a real day (the default); anything else is refused.
 */
export function fundingDayFromEnv(env: NodeJS.ProcessEnv): Pick<ExchangeHostOptions, "fundingDayMs"> {
  const v = env["FUNDING_DAY_MS"];
  if (v === undefined) return {};
  if (!/^\d+$/.test(v) || Number(v) < 1000 || Number(v) > 86_400_000)
    throw new Error(`FUNDING_DAY_MS must be a whole number of ms from 1000 to 86400000, got ${v}`);
  return { fundingDayMs: Number(v) };
}

/**
 * `DERIV_FUNDING_MS=N`: the perpetuals pay funding every N ms, 1 s to 8 hours (the default, as the
 * real venue); `DERIV_CRASH_AT=funding|liquidation` (crash tests only) makes the process kill itself
 * in the middle of that transaction. Anything else is refused.
 */
export function derivativesFromEnv(
  env: NodeJS.ProcessEnv,
): Pick<ExchangeHostOptions, "derivFundingMs" | "derivCrashAt"> {
  const out: { derivFundingMs?: number; derivCrashAt?: CrashPoint } = {};
  const v = env["DERIV_FUNDING_MS"];
  if (v !== undefined) {
    if (!/^\d+$/.test(v) || Number(v) < 1000 || Number(v) > DERIV_FUNDING_INTERVAL_MS)
      throw new Error(
        `DERIV_FUNDING_MS must be a whole number of ms from 1000 to ${DERIV_FUNDING_INTERVAL_MS}, got ${v}`,
      );
    out.derivFundingMs = Number(v);
  }
  const crash = env["DERIV_CRASH_AT"];
  if (crash !== undefined) {
    if (crash !== "funding" && crash !== "liquidation")
      throw new Error(`DERIV_CRASH_AT must be funding or liquidation, got ${crash}`);
    out.derivCrashAt = crash;
  }
  return out;
}

/**
 * `SIGNUP_CAPTCHA_AFTER=N`: sign-ups one address makes in an hour before the captcha (the E2E
 * suite opens more accounts from loopback than a person would). A whole number or refused.
 */
export function signupCaptchaFromEnv(env: NodeJS.ProcessEnv): Pick<ExchangeHostOptions, "signupCaptchaAfter"> {
  const v = env["SIGNUP_CAPTCHA_AFTER"];
  if (v === undefined) return {};
  if (!/^\d+$/.test(v)) throw new Error(`SIGNUP_CAPTCHA_AFTER must be a whole number, got ${v}`);
  return { signupCaptchaAfter: Number(v) };
}

/**
 * `DEV_ENDPOINTS=1` (the default, for the local demo: sign-up mail arrives in /dev/outbox) or `0`
 * (off: 404). Anything else is refused rather than guessed.
 */
export function devEndpointsFromEnv(env: NodeJS.ProcessEnv): boolean {
  const v = env["DEV_ENDPOINTS"] ?? "1";
  if (v !== "0" && v !== "1") throw new Error(`DEV_ENDPOINTS must be 0 or 1, got ${v}`);
  return v === "1";
}

/**
 * `RATE_LIMITS=login=60,public=300` overrides the per-minute limits of some groups (end-to-end
 * runs sign in more often than a person does from one address); anything that does not parse is
 * refused rather than ignored.
 */
export function limitsFromEnv(env: NodeJS.ProcessEnv): Pick<ExchangeHostOptions, "limits"> {
  const raw = env["RATE_LIMITS"];
  if (!raw) return {};
  const limits: Record<LimitGroup, number> = { ...DEFAULT_LIMITS };
  for (const part of raw.split(",")) {
    const m = /^\s*(public|auth|login)\s*=\s*(\d+)\s*$/.exec(part);
    if (!m || Number(m[2]) < 1) throw new Error(`RATE_LIMITS: "${part}" is not group=count (public, auth, login)`);
    limits[m[1] as LimitGroup] = Number(m[2]);
  }
  return { limits };
}

/** The live server's texts (ws-message-examples.jsonl). */
const MAINTENANCE_START =
  "Entering in Maintenance mode. Please pause any activity and resume after receiving the info message 20061 (it should take 120 seconds at most).";
const MAINTENANCE_END =
  "Maintenance ended. You can resume normal activity. It is advised to unsubscribe/subscribe again all channels.";

export async function startExchangeHost(o: ExchangeHostOptions): Promise<ExchangeHost> {
  if (o.dbPath !== ":memory:") mkdirSync(dirname(o.dbPath), { recursive: true });
  const venue = openVenue({ dbPath: o.dbPath, seed: o.seed });
  const { exchange, db, gateway, seeded } = venue;
  if (seeded !== null) o.log("Seeded the demo account (see README).");
  const restored = venue.restore();
  if (restored > 0) o.log(`Restored ${restored} open orders.`);
  const deposits = venue.funds.deposits;
  if (o.depositBlockMs !== undefined) deposits.blockMs = o.depositBlockMs;
  const withdrawals = venue.funds.withdrawals;
  const reports = reportsOf(gateway);
  if (o.withdrawStepMs !== undefined) withdrawals.stepMs = o.withdrawStepMs;
  const derivatives = venue.derivatives;
  if (o.derivFundingMs !== undefined) derivatives.fundingMs = o.derivFundingMs;
  if (o.derivCrashAt !== undefined) derivatives.crashAt = o.derivCrashAt;
  if (o.fundingDayMs !== undefined) venue.credits.dayMs = o.fundingDayMs;
  const apis: ApiServer[] = [];
  // Maintenance (docs/protocol.md#info-codes): platform status 0 for REST and new sockets, info 20060 to every
  // connected socket on entry and 20061 on exit, and trading refused in between.
  let status = 1;
  const setMaintenance = (on: boolean): boolean => {
    if ((status === 0) === on) return false;
    status = on ? 0 : 1;
    for (const api of apis)
      api.sockets.info(
        on ? INFO_CODES.MAINTENANCE_START : INFO_CODES.MAINTENANCE_END,
        on ? MAINTENANCE_START : MAINTENANCE_END,
      );
    o.log(on ? "Maintenance started." : "Maintenance ended.");
    return true;
  };
  // One sign-in state for both hosts: failed logins counted on one count on the other (the
  // captcha cannot be dodged by switching hosts), and a login may be verified on either.
  const identity = new Identity(gateway, () => Date.now());
  // Sign-ups and reset requests counted per address on both hosts alike.
  const opening = {
    signup: new Signup(gateway, () => Date.now(), identity.captcha, {
      ...(o.signupCaptchaAfter !== undefined ? { captchaAfter: o.signupCaptchaAfter } : {}),
    }),
    reset: new PasswordReset(gateway.accounts, () => Date.now()),
  };
  for (const port of [o.publicPort, o.authPort]) {
    const api = createApiServer({
      identity,
      opening,
      exchange,
      appOrigin: o.appOrigin,
      now: () => Date.now(),
      platformStatus: () => status,
      maintenance: setMaintenance,
      geoCountry: o.geoCountry,
      account: gateway,
      devEndpoints: o.devEndpoints ?? false,
      ...(o.limits ? { limits: o.limits } : {}),
      ...(o.socketLimits ? { socketLimits: o.socketLimits } : {}),
    });
    await new Promise<void>((done) => api.server.listen(port, o.host, done));
    apis.push(api);
  }
  // Timers have no caller to report to: what throws in a step is logged and the next step runs.
  const timers = [
    setInterval(
      guarded("simulator", () => exchange.simulator.step()),
      o.simStepMs,
    ),
    // Deposits confirm on the clock; a tick at a quarter block shows each confirmation soon after
    // it is due, and the first tick carries on what was pending before a restart.
    setInterval(
      guarded("deposits", () => deposits.tick()),
      Math.max(10, Math.min(1000, deposits.blockMs / 4)),
    ),
    // Withdrawals move on the clock too (and, after a restart, from their stored times).
    setInterval(
      guarded("withdrawals", () => withdrawals.tick()),
      Math.max(10, Math.min(1000, withdrawals.stepMs / 4)),
    ),
    // Mailed reports are generated a slice at a time (exchange/reports.ts); the first tick after a
    // restart carries on the ones still queued.
    setInterval(
      guarded("reports", () => reports.tick()),
      50,
    ),
    // The perpetuals' funding clock: premium samples and funding events (exchange/derivatives.ts);
    // the first tick after a restart pays an event that fell due while the exchange was stopped.
    setInterval(
      guarded("derivatives", () => derivatives.tick()),
      Math.max(20, Math.min(1000, derivatives.fundingMs / 50)),
    ),
  ];
  if (o.stress) {
    const { intervalMs, updates, symbols } = o.stress;
    for (const s of symbols) if (!exchange.markets.has(s)) throw new Error(`STRESS_SYMBOLS: ${s} is not listed`);
    timers.push(
      setInterval(
        guarded("stress", () => symbols.forEach((s) => exchange.simulator.burst(s, updates))),
        intervalMs,
      ),
    );
    o.log(`Stress mode: ${updates} book updates every ${intervalMs} ms on ${symbols.join(", ")}.`);
  }
  if (o.replay) {
    const r = replayFromFile(exchange, o.replay.path, o.replay.symbol);
    const { steps, stepMs } = o.replay;
    r.advance(1);
    timers.push(
      setInterval(
        guarded("replay", () => r.advance(steps)),
        stepMs,
      ),
    );
    o.log(
      `Replay mode: ${r.symbol} from ${o.replay.path} (${r.steps.length} recorded changes, ${steps} every ${stepMs} ms).`,
    );
  }
  o.log(
    `Exchange ready: public API http://${o.host}:${o.publicPort}/, authenticated API http://${o.host}:${o.authPort}/`,
  );
  return {
    exchange,
    hosts: apis.map((a) => `${o.host}:${(a.server.address() as AddressInfo).port}`),
    maintenance: setMaintenance,
    async stop() {
      for (const t of timers) clearInterval(t);
      // Tell connected clients we are going away (info 20051) so they reconnect promptly.
      for (const api of apis) api.sockets.info(INFO_CODES.RECONNECT, "Stopping. Please try to reconnect");
      await Promise.all(apis.map((a) => a.close()));
      db.close();
    },
  };
}
