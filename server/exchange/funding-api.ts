/**
 * The funding calls over REST (docs/protocol.md#authenticated-calls): `r/funding/offers|credits|
 * loans[/SYM][/hist]`, `r/funding/trades[/SYM]/hist`, `r/info/funding/SYM`, `w/funding/offer/
 * submit|cancel|cancel/all`, `w/funding/close` (a loan or a credit, closed early) and
 * `w/funding/auto` (and `r/funding/auto`, this exchange's read of it); the socket's `fon`/`foc` inputs, the `calc` input's `funding_sym_…` records and
 * the channel-0 snapshots `fos fcs fls`. The funding logic itself is funding-offers.ts,
 * funding-credits.ts and funding-loans.ts; this is only the requests' shapes and their answers.
 */
import {
  ERROR_CODES,
  fundingAutoCodec,
  fundingOfferCodec,
  HISTORY_LIMIT_MAX,
  parseRangeQuery,
} from "../../src/protocol/index.ts";
import { fail, notice, num, ok, type Reply } from "../reply.ts";
import { fromUnits, toUnits } from "../store/db.ts";
import type { FundingCredits } from "./funding-credits.ts";
import { fundingCsv, fundingPage, type FundingKind } from "./funding-history.ts";
import type { FundingLoans } from "./funding-loans.ts";
import { MAX_PERIOD, MIN_PERIOD } from "./funding-market.ts";
import type { FundingOffers } from "./funding-offers.ts";
import { amountText, MAX_RATE } from "./funding-records.ts";

/** The account's funding parts (venue.ts wires them). */
export interface FundingParts {
  readonly funding: FundingOffers;
  readonly credits: FundingCredits;
  readonly loans: FundingLoans;
}

const { GENERIC, PARAMS } = ERROR_CODES;

/** The funding REST calls; null for any other path. */
export function fundingRest(
  f: FundingParts,
  userId: number,
  path: string,
  body: Record<string, unknown>,
): Reply | null {
  const now = f.funding.now();
  const m = /^\/v2\/auth\/r\/funding\/(offers|credits|loans|trades)(?:\/(f[A-Z0-9]+))?(?:\/(hist|export))?$/.exec(path);
  if (m) {
    const [, what, symbol = null, kind] = m;
    // The histories and their CSV exports (funding-history.ts; docs/protocol.md#history-paging).
    if (kind !== undefined) {
      const q = parseRangeQuery(body, kind === "export" ? null : HISTORY_LIMIT_MAX);
      if (!q.ok) return fail(PARAMS, q.message, 400);
      const db = f.funding.db;
      const k = what as FundingKind;
      return ok(
        kind === "export"
          ? fundingCsv(db, k, userId, symbol, q.query, now)
          : fundingPage(db, k, userId, symbol, q.query),
      );
    }
    if (what === "trades") return null;
    if (what === "offers") return ok(f.funding.offersWire(userId, symbol));
    return ok(what === "credits" ? f.credits.creditsWire(userId, symbol) : f.loans.loansWire(userId, symbol));
  }
  const info = /^\/v2\/auth\/r\/info\/funding\/(f[A-Z0-9]+)$/.exec(path)?.[1];
  if (info !== undefined)
    return f.funding.fx.markets.has(info) ? ok(f.credits.infoWire(userId, info)) : fail(PARAMS, "symbol: invalid");
  switch (path) {
    case "/v2/auth/w/funding/offer/submit": {
      const r = f.funding.submit(userId, body);
      if (!r.ok) return fail(r.code, r.msg);
      const d = fundingOfferCodec.decode(r.offer);
      const text = d.ok
        ? `Submitting funding offer of ${amountText(d.value.amountOrig ?? d.value.amount)} ${d.value.symbol.slice(1)} at ${(d.value.rate * 100).toFixed(3)} for ${d.value.period} days.`
        : "Submitting funding offer.";
      return ok(notice(now, "fon-req", r.offer, "SUCCESS", text));
    }
    case "/v2/auth/w/funding/offer/cancel": {
      const r = f.funding.cancel(userId, body["id"]);
      return r.ok ? ok(notice(now, "foc-req", r.offer, "SUCCESS", "Submitted for cancellation.")) : fail(r.code, r.msg);
    }
    case "/v2/auth/w/funding/offer/cancel/all":
      f.funding.cancelAll(userId, typeof body["currency"] === "string" ? body["currency"] : null);
      return ok(notice(now, "foc_all-req", null, "SUCCESS", "Submitted for cancellation."));
    case "/v2/auth/w/funding/close": {
      // A loan (the borrower repays it) or a credit (the lender takes it back; a borrowing account
      // keeps its loan, the simulated lenders take the credit's place).
      const id = body["id"];
      if (typeof id !== "number" || !Number.isInteger(id)) return fail(PARAMS, "id: invalid");
      const record = f.loans.closeByBorrower(userId, id) ?? f.credits.closeByLender(userId, id);
      return record
        ? ok(notice(now, "fclose-req", record, "SUCCESS", "Funding closed."))
        : fail(GENERIC, "Funding not found.");
    }
    case "/v2/auth/w/funding/auto":
      return autoRenew(f, userId, body, now);
    case "/v2/auth/r/funding/auto": {
      // The currency's auto-renew settings as `w/funding/auto` answers them, or null when off: an
      // addition of this exchange (docs/protocol.md#funding-auto-renew), so the setting can be shown.
      const currency = typeof body["currency"] === "string" ? body["currency"] : "";
      if (!f.funding.fx.markets.has(`f${currency}`)) return fail(PARAMS, "currency: invalid");
      const auto = f.credits.autoRenew(userId, currency);
      return ok(
        auto
          ? fundingAutoCodec.encode({
              currency,
              period: auto.period,
              rate: auto.rate,
              threshold: fromUnits(auto.amount),
            })
          : null,
      );
    }
    default:
      return null;
  }
}

/**
 * `w/funding/auto` `{status: 1|0, currency, amount?, rate?, period?}`: with status 1 what comes
 * back from the currency's credits is offered again (up to `amount`, 0 = all; `rate` 0 = at the
 * FRR; `period` default 2); status 0 turns it off. Answers `[CURRENCY, PERIOD, RATE, AMOUNT]`.
 */
function autoRenew(f: FundingParts, userId: number, body: Record<string, unknown>, now: number): Reply {
  const bad = (msg: string): Reply => fail(PARAMS, msg);
  const currency = typeof body["currency"] === "string" ? body["currency"] : "";
  if (!f.funding.fx.markets.has(`f${currency}`)) return bad("currency: invalid");
  const status = num(body["status"]);
  if (status === 0) {
    f.credits.setAutoRenew(userId, currency, null);
    return ok(notice(now, "fa-req", null, "SUCCESS", "Auto-renew disabled."));
  }
  if (status !== 1) return bad("status: invalid");
  const amount = body["amount"] === undefined ? 0 : num(body["amount"]);
  const rate = body["rate"] === undefined ? 0 : num(body["rate"]);
  const period = body["period"] === undefined ? MIN_PERIOD : num(body["period"]);
  if (!Number.isFinite(amount) || amount < 0) return bad("amount: invalid");
  if (!Number.isFinite(rate) || rate < 0 || rate > MAX_RATE) return bad("rate: invalid");
  if (!Number.isInteger(period) || period < MIN_PERIOD || period > MAX_PERIOD) return bad("period: invalid");
  f.credits.setAutoRenew(userId, currency, { amount: toUnits(amount), rate, period });
  const settings = fundingAutoCodec.encode({ currency, period, rate, threshold: amount });
  return ok(notice(now, "fa-req", settings, "SUCCESS", "Auto-renew enabled."));
}

/** A funding input of the account socket (`fon`, `foc`); false when `type` is not one. */
export function fundingInput(f: FundingParts, userId: number, type: string, body: Record<string, unknown>): boolean {
  if (type === "fon") f.funding.submit(userId, body);
  else if (type === "foc") f.funding.cancel(userId, body["id"]);
  else return false;
  return true;
}

/** `calc` requests for `funding_sym_fUSD`: a `fiu` record each (other requests are not funding's). */
export function fundingCalc(f: FundingParts, userId: number, requests: unknown): [string, unknown][] {
  if (!Array.isArray(requests)) return [];
  const out: [string, unknown][] = [];
  for (const req of requests.slice(0, 30)) {
    const name: unknown = Array.isArray(req) ? req[0] : null;
    const m = typeof name === "string" ? /^funding_sym_(f[A-Z0-9]+)$/.exec(name) : null;
    if (m && f.funding.fx.markets.has(m[1] as string)) out.push(["fiu", f.credits.infoWire(userId, m[1] as string)]);
  }
  return out;
}

/** The channel-0 funding snapshots after `auth`. */
export function fundingSnapshots(f: FundingParts, userId: number): [string, unknown][] {
  return [
    ["fos", f.funding.offersWire(userId)],
    ["fcs", f.credits.creditsWire(userId)],
    ["fls", f.loans.loansWire(userId)],
  ];
}
