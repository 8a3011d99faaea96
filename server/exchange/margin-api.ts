/**
 * The margin calls over REST — `r/positions`, `w/position/claim`, `r/position/increase/info` and
 * `w/position/increase` ({symbol, amount}), `r/info/margin/{base|<symbol>|sym_all}`, `calc/order/avail` ({symbol, dir, rate, type: EXCHANGE|MARGIN}) — and the records a
 * socket's `calc` input asks of positions and wallets (docs/protocol.md#authenticated-calls and
 * #account-inputs). The margin model itself is positions.ts.
 */
import { ERROR_CODES, parseSymbol, type WalletType } from "../../src/protocol/index.ts";
import { fromUnits } from "../store/db.ts";
import { fail, notice, num, ok, type Reply } from "../reply.ts";
import type { Balances } from "./balances.ts";
import { round8 } from "./market-data.ts";
import type { Positions } from "./positions.ts";

const { GENERIC, PARAMS } = ERROR_CODES;

/** The margin REST calls; null for any other path. */
export function marginRest(
  p: Positions,
  balances: Balances,
  userId: number,
  path: string,
  body: Record<string, unknown>,
): Reply | null {
  if (path === "/v2/auth/r/positions") return ok(p.wireAll(userId));
  if (path === "/v2/auth/w/position/claim") {
    const r = p.claim(userId, body["id"], body["amount"]);
    return r.ok ? ok(notice(r.mts, "pos_claim", r.position, "SUCCESS", "Position claimed.")) : fail(GENERIC, r.msg);
  }
  if (path === "/v2/auth/r/position/increase/info") {
    const info = p.increaseInfo(userId, body["symbol"], body["amount"]);
    return info ? ok(info) : fail(PARAMS, "symbol: invalid");
  }
  if (path === "/v2/auth/w/position/increase") {
    const r = p.increase(userId, body["symbol"], num(body["amount"]));
    return r.ok ? ok(notice(r.mts, "pmi-req", r.position, "SUCCESS", "Position increased.")) : fail(PARAMS, r.msg);
  }
  const m = /^\/v2\/auth\/r\/info\/margin\/(base|sym_all|t[A-Z0-9:]+)$/.exec(path);
  if (m) {
    const key = m[1] as string;
    if (key === "base") return ok(p.marginBase(userId));
    if (key === "sym_all") {
      const rows = [...new Set(p.wireAll(userId).map((w) => w[0] as string))].map((s) => p.marginSym(userId, s));
      return ok(rows.filter((r) => r !== null));
    }
    const sym = p.marginSym(userId, key);
    return sym ? ok(sym) : fail(PARAMS, "symbol: invalid");
  }
  if (path === "/v2/auth/calc/order/avail") {
    const symbol = typeof body["symbol"] === "string" ? body["symbol"] : "";
    const dir = Number(body["dir"]) >= 0 ? 1 : -1;
    const rate = Number(body["rate"]);
    const info = parseSymbol(symbol);
    if (!info || info.kind !== "trading" || !(rate > 0)) return fail(PARAMS, "params: invalid");
    if ((typeof body["type"] === "string" ? body["type"] : "EXCHANGE").toUpperCase() === "MARGIN") {
      // What the tradable balance buys at `rate`, and what closing the position in that direction frees.
      const sym = p.marginSym(userId, symbol);
      if (!sym) return fail(PARAMS, "symbol: invalid");
      const [tradable] = sym[2] as number[];
      const held = fromUnits(p.get(userId, symbol)?.amount ?? 0);
      const closable = dir > 0 ? Math.max(0, -held) : Math.max(0, held);
      return ok([round8(((tradable as number) / rate + closable) * dir)]);
    }
    const amount =
      dir > 0
        ? fromUnits(balances.available(userId, "exchange", info.quote)) / rate
        : -fromUnits(balances.available(userId, "exchange", info.base));
    return ok([round8(amount)]);
  }
  return null;
}

/**
 * The `calc` input's records of positions and wallets, in request order: `margin_base` and
 * `margin_sym_<symbol>` as `miu`, `position_<symbol>` as `pu`, `wallet_<type>_<currency>` as `wu`
 * (`funding_sym_…` is funding-api.ts's, `balance` the gateway's).
 */
export function marginCalc(p: Positions, balances: Balances, userId: number, requests: unknown): [string, unknown][] {
  if (!Array.isArray(requests)) return [];
  const out: [string, unknown][] = [];
  for (const req of requests.slice(0, 30)) {
    const name: unknown = Array.isArray(req) ? req[0] : req;
    if (typeof name !== "string") continue;
    let m: RegExpExecArray | null;
    if (name === "margin_base") out.push(["miu", p.marginBase(userId)]);
    else if ((m = /^margin_sym_(t[A-Z0-9:]+)$/.exec(name))) {
      const sym = p.marginSym(userId, m[1] as string);
      if (sym) out.push(["miu", sym]);
    } else if ((m = /^position_(t[A-Z0-9:]+)$/.exec(name))) {
      const pos = p.get(userId, m[1] as string);
      if (pos) out.push(["pu", p.wire(pos)]);
    } else if ((m = /^wallet_(exchange|margin|funding)_([A-Z0-9]+)$/.exec(name)))
      out.push(["wu", balances.walletOf(userId, m[1] as WalletType, m[2] as string)]);
  }
  return out;
}
