/**
 * Withdrawals on the embedded exchange (docs/product-rules.md#withdrawals, wire in
 * docs/protocol.md#withdrawals): the request with its checks, the mailed confirmation, cancelling,
 * and the life of a withdrawal on the exchange's clock. There is no blockchain, so "sending" is two
 * steps of `stepMs` after the confirmation and a transaction id derived from the record.
 *
 * - A request is checked whole before anything moves (src/protocol/withdrawals.ts: the amount rules,
 *   fees and minimums, limits, the travel rule), the second factor last so a form with a mistake
 *   does not spend a one-time code. An accepted one debits the wallet (its ledger row), stores the
 *   movement UNCONFIRMED with its confirmation link's SHA-256 and mails the link — or, with
 *   `no_enforce_withdrawal_check` on, stores it PENDING — in one transaction.
 * - A session's token must carry the account's second factor (its authenticator code, else a code
 *   texted to its SMS number); an API key with the withdraw permission is its own proof. Wrong codes
 *   count among the owner's wrong proofs (owner-proof.ts).
 * - Statuses follow from stored times, so a restart loses nothing: the next `tick` moves PENDING to
 *   PROCESSING `stepMs` after the confirmation and to COMPLETED `stepMs` later, and cancels (with
 *   the refund) what stayed UNCONFIRMED past its link's hour. Every change is a conditional UPDATE
 *   in the transaction of its money, so a refund or a completion happens once; its `n` and `wu` go
 *   out after COMMIT.
 * - A freeze (Accounts.onFreeze) cancels and refunds what is UNCONFIRMED or PENDING in its own
 *   transaction, and nothing of a frozen account moves on with the clock. From the margin wallet
 *   only what the positions leave free may leave (Positions.spendable).
 *
 * A withdrawal's movement has a negative amount (what arrives, −(amount − fee)); deposits' rows are
 * positive, which is how the two lifecycles keep to their own rows.
 *
 * Over the ~500 lines a module here aims for, on purpose: the request, the confirmation, the refund
 * and the clock all write the same rows under the same conditional updates, and reading them side by
 * side is how a reviewer checks that money moves exactly once.
 */
import { createHash, randomBytes } from "node:crypto";
import {
  checkAddress,
  checkPaymentId,
  checkWithdrawalAmount,
  ERROR_CODES,
  isWithdrawRequestId,
  readTravelRule,
  TRAVEL_RULE_THRESHOLD_USD,
  travelRuleInfoCodec,
  VASPS,
  WITHDRAW_LEVEL,
  WITHDRAW_PAGE,
  WITHDRAW_REFUSALS,
  WITHDRAWAL_CONFIRM_TTL_MS,
  WITHDRAWAL_LIMIT_WINDOW_MS,
  WITHDRAWAL_NOTE_MAX,
  WITHDRAWAL_NOTIFICATIONS,
  WITHDRAWAL_STATUS,
  withdrawalCancellable,
  withdrawalCodec,
  withdrawalConfirmCheckCodec,
  withdrawalDailyLimitUsd,
  withdrawalMethodInfo,
  withdrawalStateCodec,
  withdrawInfoCodec,
  type WalletType,
  REQUEST_WALLETS,
} from "../../src/protocol/index.ts";
import { confirmedEntryOf, withdrawalGate } from "../address-book.ts";
import { sendMail } from "../mail.ts";
import { wantsMail } from "../notification-prefs.ts";
import { fail, notice, num, ok, own, type Reply } from "../reply.ts";
import type { Accounts } from "../store/accounts.ts";
import { fromUnits, toUnits, type Db } from "../store/db.ts";
import { withdrawalCheckEnforced } from "../store/security-settings.ts";
import type { Balances } from "./balances.ts";
import type { Positions } from "./positions.ts";
import { movementWire, type MovementDbRow } from "./deposits.ts";
import { accountFacts, withdrawRefusal } from "./verification.ts";
import { WithdrawalProof } from "./withdrawal-proof.ts";

/** The time between a withdrawal's steps when none is configured (`WITHDRAW_STEP_MS`). */
const DEFAULT_STEP_MS = 10_000;

const R = WITHDRAW_REFUSALS;
const S = WITHDRAWAL_STATUS;
const err = (msg: string): Reply => fail(ERROR_CODES.GENERIC, msg);
/** Malformed input is the client's error: 400 (as transfers answer it). */
const bad = (msg: string): Reply => fail(ERROR_CODES.GENERIC, msg, 400);
const digest = (token: string): string => createHash("sha256").update(token).digest("hex");

/** The credential a call came with (rest-auth.ts): an API key's (`keyId`) or a token limited to `caps`. */
export interface Caller {
  readonly keyId?: string | undefined;
  readonly caps?: readonly string[] | undefined;
}

/** A session's own token: no key behind it, no capabilities narrowing it. */
const isSession = (c: Caller): boolean => c.keyId === undefined && c.caps === undefined;

/** The paths answered here besides `w/withdraw` (docs/protocol.md#withdrawals). */
const WITHDRAWAL_PATHS = {
  info: "/v2/auth/r/int/movements/withdraw/info",
  travelRule: "/v2/auth/r/int/movements/travel-rule",
  sms: "/v2/auth/w/int/movements/withdraw/sms",
  confirm: "/v2/auth/w/int/movements/confirm",
  confirmCheck: "/v2/auth/r/int/movements/confirm/check",
  cancel: "/v2/auth/w/int/movements/cancel",
} as const;

interface LiveRow {
  readonly id: number;
  readonly user_id: number;
  readonly currency: string;
  readonly wallet: WalletType;
  readonly status: string;
  readonly amount: number;
  readonly fees: number;
  readonly confirm_expires: number | null;
  readonly confirmed_at: number | null;
}

/** A withdrawal's wallet, method, amount and destination, read and checked; or the refusal. */
type Target =
  | {
      readonly ok: true;
      readonly wallet: WalletType;
      readonly method: NonNullable<ReturnType<typeof withdrawalMethodInfo>>;
      readonly units: number;
      readonly address: string;
      readonly paymentId: string;
      /** What makes two requests the same withdrawal: what leaves which wallet for where. */
      readonly fingerprint: string;
    }
  | { readonly ok: false; readonly reply: Reply };

/** The part of a withdrawal request (or of its SMS code's request) that says what leaves for where. */
function readTarget(body: Record<string, unknown>): Target {
  const no = (reply: Reply): Target => ({ ok: false, reply });
  const wallet = own(REQUEST_WALLETS, body["wallet"]);
  const method = withdrawalMethodInfo(body["method"]);
  if (!wallet) return no(bad(R.wallet));
  if (!method) return no(bad(R.method));
  const amountProblem = checkWithdrawalAmount(body["amount"], method);
  if (amountProblem === "invalid") return no(bad(R.amount));
  if (amountProblem === "precision") return no(bad(R.precision));
  if (amountProblem === "below-minimum") return no(err(R.belowMinimum));
  // The destination by its network's real format and checksum (`/v1/ui_check_address` tells why).
  const checked = checkAddress(method.method, typeof body["address"] === "string" ? body["address"] : "");
  if (!checked.ok) return no(err(R.address));
  const paymentId = typeof body["payment_id"] === "string" ? body["payment_id"].trim() : "";
  if (checkPaymentId(method.method, paymentId) !== null) return no(err(R.paymentId));
  const amount = body["amount"];
  const units = toUnits(num(typeof amount === "string" ? amount.trim() : amount));
  const fingerprint = JSON.stringify([wallet, method.method, units, checked.address, paymentId]);
  return { ok: true, wallet, method, units, address: checked.address, paymentId, fingerprint };
}

export class Withdrawals {
  /** The time from a confirmation to PROCESSING, and from PROCESSING to COMPLETED. */
  stepMs = DEFAULT_STEP_MS;
  readonly #proof: WithdrawalProof;

  constructor(
    readonly db: Db,
    readonly balances: Balances,
    readonly accounts: Accounts,
    /**
     * One unit of a currency in USD at the guarded settlement rate (derived.ts `settlementRate`), not
     * the last-price rate `/v2/calc/fx` answers, which one account can push; null when unknown or
     * when no rate is reliable now — a withdrawal is then refused, never valued at 0.
     */
    readonly usdRate: (currency: string) => number | null,
    readonly now: () => number,
    /** What may leave a wallet: in margin, a losing position's collateral stays (Positions.spendable). */
    readonly positions: Positions,
  ) {
    // The movements table is funds.ts's (deposits.ts adds method, wallet, payment id): a withdrawal
    // adds its USD value, travel-rule details, confirmation link and confirmation time.
    const columns = new Set(
      (db.prepare("PRAGMA table_info(movements)").all() as { name: string }[]).map((c) => c.name),
    );
    for (const [name, type] of [
      ["usd_value", "REAL"],
      ["travel_rule", "TEXT"],
      ["confirm_hash", "TEXT"],
      ["confirm_expires", "INTEGER"],
      ["confirmed_at", "INTEGER"],
    ] as const)
      if (!columns.has(name)) db.exec(`ALTER TABLE movements ADD COLUMN ${name} ${type}`);
    db.exec(`
CREATE INDEX IF NOT EXISTS movements_confirm ON movements (confirm_hash) WHERE confirm_hash IS NOT NULL;
CREATE INDEX IF NOT EXISTS movements_withdrawals ON movements (user_id, mts_started) WHERE amount < 0;
CREATE TABLE IF NOT EXISTS withdrawal_requests (
  user_id INTEGER NOT NULL REFERENCES users(id),
  request_id TEXT NOT NULL,
  fingerprint TEXT NOT NULL,
  reply TEXT NOT NULL,
  mts INTEGER NOT NULL,
  PRIMARY KEY (user_id, request_id)
);`);
    this.#proof = new WithdrawalProof(accounts, now);
    // A freeze stops what has not left yet, in the freeze's own transaction (docs/product-rules.md#withdrawals).
    accounts.onFreeze(
      (userId) => this.#cancelAllOf(userId),
      (fn) => balances.events.atomically(fn),
    );
  }

  /** The withdrawal calls; null for any other path. */
  handle(userId: number, path: string, body: Record<string, unknown>, caller: Caller): Reply | null {
    switch (path) {
      case "/v2/auth/w/withdraw":
        return this.#request(userId, body, caller);
      case WITHDRAWAL_PATHS.info:
        return this.#info(userId, body);
      case WITHDRAWAL_PATHS.travelRule:
        return this.#travelRule(userId, body);
      case WITHDRAWAL_PATHS.sms:
        return this.#textCode(userId, body, caller);
      case WITHDRAWAL_PATHS.confirm:
        return this.#confirm(userId, body, caller);
      case WITHDRAWAL_PATHS.confirmCheck:
        return this.#confirmCheck(userId, body, caller);
      case WITHDRAWAL_PATHS.cancel:
        return this.#cancel(userId, body);
      default:
        return null;
    }
  }

  /** USD requested by the account in the 24 hours before `now`, CANCELED ones left out. */
  #usedUsd(userId: number, now: number): number {
    const row = this.db
      .prepare(
        "SELECT COALESCE(SUM(usd_value), 0) AS usd FROM movements WHERE user_id = ? AND amount < 0 AND mts_started > ? AND status <> 'CANCELED'",
      )
      .get(userId, now - WITHDRAWAL_LIMIT_WINDOW_MS) as { usd: number };
    return row.usd;
  }

  #info(userId: number, body: Record<string, unknown>): Reply {
    const method = withdrawalMethodInfo(body["method"]);
    if (!method) return bad(R.method);
    const user = this.accounts.byId(userId);
    if (!user) return fail(ERROR_CODES.AUTH_FAILED, "token: invalid");
    const now = this.now();
    const level = accountFacts(this.db, userId).level;
    const limit = withdrawalDailyLimitUsd(level);
    const used = this.#usedUsd(userId, now);
    const rate = this.usdRate(method.currency);
    const free = (w: WalletType): number => fromUnits(this.positions.spendable(userId, w, method.currency));
    return ok(
      withdrawInfoCodec.encode({
        method: method.method,
        currency: method.currency,
        fee: method.fee,
        minimum: method.minimum,
        level: { current: level, needed: WITHDRAW_LEVEL },
        dailyLimitUsd: limit,
        usedUsd: Math.round(used * 100) / 100,
        // Rounded down to the unit: what is shown as still allowed must be allowed.
        remaining: rate === null ? null : Math.floor((Math.max(0, limit - used) / rate) * 1e8) / 1e8,
        usdRate: rate,
        travelRuleThresholdUsd: TRAVEL_RULE_THRESHOLD_USD,
        secondFactor: this.#proof.factor(user),
        mailConfirmation: withdrawalCheckEnforced(this.db, userId),
        available: { exchange: free("exchange"), margin: free("margin"), funding: free("funding") },
      }),
    );
  }

  #travelRule(userId: number, body: Record<string, unknown>): Reply {
    const method = withdrawalMethodInfo(body["method"]);
    if (!method) return bad(R.method);
    const checked = checkAddress(method.method, typeof body["address"] === "string" ? body["address"] : "");
    if (!checked.ok) return err(R.address);
    const entry = confirmedEntryOf(this.db, userId, method.method, checked.address);
    return ok(travelRuleInfoCodec.encode({ entry, vasps: VASPS }));
  }

  /**
   * `w/withdraw` (docs/product-rules.md#withdrawals): the checks in the order the rules give, each
   * refusal moving nothing, then one transaction for the debit, the movement, the request id and the
   * mail.
   */
  /**
   * `w/int/movements/withdraw/sms`: the code is texted for the withdrawal the body describes (as
   * `w/withdraw` will send it), names its amount and address, and proves only that withdrawal.
   */
  #textCode(userId: number, body: Record<string, unknown>, caller: Caller): Reply {
    const target = readTarget(body);
    if (!target.ok) return target.reply;
    const { method, units, address, paymentId } = target;
    const tag = paymentId === "" ? "" : ` (tag ${paymentId})`;
    return this.#proof.send(userId, caller, {
      fingerprint: target.fingerprint,
      what: `${fromUnits(units)} ${method.currency} to ${address}${tag}`,
    });
  }

  #request(userId: number, body: Record<string, unknown>, caller: Caller): Reply {
    const target = readTarget(body);
    if (!target.ok) return target.reply;
    const { wallet, method, units, paymentId, fingerprint } = target;
    const checked = { address: target.address };
    const requestId = body["request_id"];
    if (requestId !== undefined && !isWithdrawRequestId(requestId)) return bad(R.requestId);
    if (typeof requestId === "string") {
      // A repeat answers the first reply and moves nothing, whatever the balance or limit say now.
      const seen = this.db
        .prepare("SELECT fingerprint, reply FROM withdrawal_requests WHERE user_id = ? AND request_id = ?")
        .get(userId, requestId) as { fingerprint: string; reply: string } | undefined;
      if (seen) return seen.fingerprint === fingerprint ? ok(JSON.parse(seen.reply)) : err(R.requestReused);
    }
    const level = withdrawRefusal(this.db, userId);
    if (level) return err(level);
    const gate = withdrawalGate(this.db, userId, method.currency, method.method, checked.address, paymentId);
    if (gate === "disabled") return err(R.withdrawalsOff);
    if (gate === "whitelist") return err(R.whitelist);
    if (this.positions.spendable(userId, wallet, method.currency) < units) return err(R.insufficient);
    const now = this.now();
    const rate = this.usdRate(method.currency);
    if (rate === null) return err(R.noRate);
    const usd = fromUnits(units) * rate;
    const limit = withdrawalDailyLimitUsd(accountFacts(this.db, userId).level);
    if (this.#usedUsd(userId, now) + usd > limit) return err(R.dailyLimit);
    let travelRule: string | null = null;
    if (body["travel_rule"] !== undefined && body["travel_rule"] !== null) {
      const rule = readTravelRule(body["travel_rule"]);
      if (rule === "invalid") return err(R.travelRuleInvalid);
      if (rule === "vasp") return err(R.travelRuleVasp);
      travelRule = JSON.stringify(rule);
    } else if (usd >= TRAVEL_RULE_THRESHOLD_USD) return err(R.travelRuleRequired);
    const user = this.accounts.byId(userId);
    if (!user) return fail(ERROR_CODES.AUTH_FAILED, "token: invalid");
    const proof = this.#proof.check(user, body["code"], caller, now, fingerprint);
    if (proof !== null) return err(proof);

    const mailed = withdrawalCheckEnforced(this.db, userId);
    const token = randomBytes(32).toString("hex");
    const feeUnits = toUnits(method.fee);
    const note = typeof body["note"] === "string" ? body["note"].trim().slice(0, WITHDRAWAL_NOTE_MAX) : "";
    const shown = `${fromUnits(units)} ${method.currency}`;
    const text = mailed
      ? `Your withdrawal request of ${shown} has been submitted. Confirm it with the link mailed to you within one hour.`
      : `Your withdrawal request of ${shown} has been submitted and queued.`;
    const answer = this.balances.funds((move) => {
      // Checked again inside the write: nothing can slip in between the check and the debit.
      if (this.positions.spendable(userId, wallet, method.currency) < units) return err(R.insufficient);
      move(userId, wallet, method.currency, -units, `${method.network} withdrawal to ${checked.address}`);
      const r = this.db
        .prepare(
          `INSERT INTO movements (user_id, currency, mts_started, mts_updated, status, amount, fees, address, payment_id, note,
             method, wallet, usd_value, travel_rule, confirm_hash, confirm_expires, confirmed_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(
          userId,
          method.currency,
          now,
          now,
          mailed ? S.unconfirmed : S.pending,
          -(units - feeUnits),
          -feeUnits,
          checked.address,
          paymentId === "" ? null : paymentId,
          note === "" ? null : note,
          method.method,
          wallet,
          usd,
          travelRule,
          mailed ? digest(token) : null,
          mailed ? now + WITHDRAWAL_CONFIRM_TTL_MS : null,
          mailed ? null : now,
        );
      const id = Number(r.lastInsertRowid);
      const withdrawal = withdrawalCodec.encode({
        id,
        method: method.method,
        paymentId: paymentId === "" ? null : paymentId,
        wallet,
        amount: fromUnits(units),
        fee: method.fee,
      });
      const reply = notice(now, "acc_wd-req", withdrawal, "SUCCESS", text);
      if (typeof requestId === "string")
        this.db
          .prepare(
            "INSERT INTO withdrawal_requests (user_id, request_id, fingerprint, reply, mts) VALUES (?, ?, ?, ?, ?)",
          )
          .run(userId, requestId, fingerprint, JSON.stringify(reply), now);
      if (mailed)
        sendMail(
          this.db,
          user.email,
          "Confirm your withdrawal",
          `You asked to withdraw ${shown} (${method.network}) to ${checked.address}` +
            `${paymentId === "" ? "" : ` (tag ${paymentId})`}. Nothing is sent until you confirm it: sign in and open ` +
            `${WITHDRAW_PAGE}?confirm=${token} within one hour (the link works once). Unconfirmed, it is canceled ` +
            "and the amount returns to your wallet. If this was not you, do not open it: cancel the withdrawal, " +
            "change your password and freeze your account.",
          now,
        );
      else
        // No link to wait for: the owner still hears of it at once, so a withdrawal by whoever holds
        // the session is never silent (the freeze link cancels it while it is PENDING).
        sendMail(
          this.db,
          user.email,
          "Withdrawal requested",
          `A withdrawal of ${shown} (${method.network}) to ${checked.address}` +
            `${paymentId === "" ? "" : ` (tag ${paymentId})`} was requested and will be sent shortly. ` +
            `If this was not you, freeze your account now: that cancels it. Otherwise you can cancel it at ${WITHDRAW_PAGE}.`,
          now,
        );
      return ok(reply);
    });
    // What the margin wallet can trade changed: margin info follows, as after a transfer.
    if (wallet === "margin") this.positions.marginChanged(userId, method.currency);
    return answer;
  }

  /** The UNCONFIRMED withdrawal of `userId` a live link's token names, or undefined. */
  #byLink(userId: number, token: unknown, now: number): (MovementDbRow & LiveRow) | undefined {
    if (typeof token !== "string" || !/^[0-9a-f]{64}$/.test(token)) return undefined;
    return this.db
      .prepare(
        "SELECT * FROM movements WHERE user_id = ? AND confirm_hash = ? AND confirm_expires > ? AND status = 'UNCONFIRMED' AND amount < 0",
      )
      .get(userId, digest(token), now) as (MovementDbRow & LiveRow) | undefined;
  }

  /**
   * What a mailed link would confirm, read only: a mail scanner fetching the page changes nothing.
   * Like confirming, only for the account's own session; a bad link is `link: invalid`, never a
   * message naming a token (the app takes those for a dead session).
   */
  #confirmCheck(userId: number, body: Record<string, unknown>, caller: Caller): Reply {
    if (!isSession(caller)) return fail(ERROR_CODES.AUTH_FAILED, R.sessionRequired);
    const row = this.#byLink(userId, body["token"], this.now());
    if (!row) return err(R.confirmLink);
    return ok(
      withdrawalConfirmCheckCodec.encode({
        id: row.id,
        currency: row.currency,
        amount: fromUnits(-row.amount - row.fees),
        address: row.address ?? "",
        status: S.unconfirmed,
      }),
    );
  }

  #confirm(userId: number, body: Record<string, unknown>, caller: Caller): Reply {
    if (!isSession(caller)) return fail(ERROR_CODES.AUTH_FAILED, R.sessionRequired);
    const now = this.now();
    const row = this.#byLink(userId, body["token"], now);
    if (!row) return err(R.confirmLink);
    // Conditional on the link still being unused: two presses confirm once.
    const done = this.db
      .prepare(
        "UPDATE movements SET status = 'PENDING', confirmed_at = ?, mts_updated = ?, confirm_hash = NULL WHERE id = ? AND status = 'UNCONFIRMED' AND confirm_hash IS NOT NULL",
      )
      .run(now, now, row.id).changes;
    return done === 1 ? ok(withdrawalStateCodec.encode({ id: row.id, status: S.pending })) : err(R.confirmLink);
  }

  #cancel(userId: number, body: Record<string, unknown>): Reply {
    const id = body["id"];
    if (typeof id !== "number" || !Number.isSafeInteger(id)) return bad(R.notFound);
    const row = this.db
      .prepare("SELECT * FROM movements WHERE id = ? AND user_id = ? AND amount < 0")
      .get(id, userId) as LiveRow | undefined;
    if (!row) return err(R.notFound);
    // A withdrawal from before the lifecycle (no wallet stored) completed when it was made.
    if (!withdrawalCancellable(row.status) || row.wallet === null) return err(R.cancelTooLate);
    return this.#refund(row, `Canceled withdrawal #${row.id}`, "Withdrawal canceled.")
      ? ok(withdrawalStateCodec.encode({ id: row.id, status: S.canceled }))
      : err(R.cancelTooLate);
  }

  /**
   * CANCELED and the whole amount back in its wallet, in one transaction, only while the withdrawal
   * may still be canceled (so once); the `n` after COMMIT. False when it was too late.
   */
  #refund(row: LiveRow, ledgerText: string, message: string): boolean {
    const now = this.now();
    return this.balances.funds((move) => {
      const done = this.db
        .prepare(
          "UPDATE movements SET status = 'CANCELED', mts_updated = ?, confirm_hash = NULL WHERE id = ? AND status IN ('UNCONFIRMED', 'PENDING')",
        )
        .run(now, row.id).changes;
      if (done !== 1) return false;
      move(row.user_id, row.wallet, row.currency, -row.amount - row.fees, ledgerText);
      this.#notify(row.id, row.user_id, WITHDRAWAL_NOTIFICATIONS.canceled, message, now);
      if (row.wallet === "margin") this.positions.marginChanged(row.user_id, row.currency);
      return true;
    });
  }

  /**
   * Cancels and refunds every withdrawal of a freezing account that has not left yet (UNCONFIRMED
   * or PENDING): whoever made the owner freeze it may have asked for them.
   */
  #cancelAllOf(userId: number): void {
    const live = this.db
      .prepare(
        "SELECT * FROM movements WHERE user_id = ? AND amount < 0 AND wallet IS NOT NULL AND status IN ('UNCONFIRMED', 'PENDING') ORDER BY id",
      )
      .all(userId) as LiveRow[];
    for (const w of live)
      this.#refund(w, `Canceled withdrawal #${w.id}`, "Withdrawal canceled: the account was frozen.");
  }

  #notify(id: number, userId: number, type: string, message: string, now: number): void {
    const r = this.db.prepare("SELECT * FROM movements WHERE id = ?").get(id) as MovementDbRow & LiveRow;
    this.balances.events.emit(userId, "n", notice(now, type, movementWire(r), "SUCCESS", message));
    // The wallet as it stands, so a page showing it needs no other read.
    this.balances.events.emit(userId, "wu", this.balances.walletOf(userId, r.wallet, r.currency));
  }

  /**
   * Carries every live withdrawal on to where the clock puts it: UNCONFIRMED past its link's hour
   * canceled and refunded; PENDING to PROCESSING one step after its confirmation, to COMPLETED one
   * more step on. Called on the host's timer; safe at any rate and after a restart.
   */
  tick(): void {
    const now = this.now();
    const step = Math.max(1, this.stepMs);
    const live = this.db
      .prepare(
        // A frozen account's withdrawals stand still (nothing is sent while it is frozen); only support lifts it.
        `SELECT m.* FROM movements m JOIN users u ON u.id = m.user_id
         WHERE m.amount < 0 AND m.status IN ('UNCONFIRMED', 'PENDING', 'PROCESSING') AND u.frozen = 0 ORDER BY m.id`,
      )
      .all() as LiveRow[];
    for (const w of live) {
      if (w.status === S.unconfirmed) {
        if ((w.confirm_expires ?? 0) <= now)
          this.#refund(w, `Canceled withdrawal #${w.id}`, "Withdrawal canceled: it was not confirmed within one hour.");
        continue;
      }
      const confirmed = w.confirmed_at ?? now;
      if (w.status === S.pending && now >= confirmed + step) this.#advance(w, S.processing, confirmed + step);
      if (now >= confirmed + 2 * step) this.#advance(w, S.completed, confirmed + 2 * step);
    }
  }

  /** One status step (PENDING → PROCESSING, PROCESSING → COMPLETED) with its `n`, and the completion mail. */
  #advance(w: LiveRow, to: typeof S.processing | typeof S.completed, at: number): void {
    const from = to === S.processing ? S.pending : S.processing;
    const shown = `${fromUnits(-w.amount)} ${w.currency}`;
    this.balances.events.atomically(() => {
      const done = this.db
        .prepare(
          `UPDATE movements SET status = ?, mts_updated = ?${to === S.completed ? ", tx_id = ?" : ""} WHERE id = ? AND status = ?`,
        )
        .run(...(to === S.completed ? [to, at, txIdOf(w.id), w.id, from] : [to, at, w.id, from])).changes;
      if (done !== 1) return;
      if (to === S.processing) {
        this.#notify(w.id, w.user_id, WITHDRAWAL_NOTIFICATIONS.processing, `Withdrawal of ${shown} is being sent.`, at);
        return;
      }
      const message = `Withdrawal of ${shown} completed.`;
      this.#notify(w.id, w.user_id, WITHDRAWAL_NOTIFICATIONS.completed, message, at);
      if (wantsMail(this.db, w.user_id, "withdrawal_completed")) {
        const user = this.accounts.byId(w.user_id);
        const r = this.db.prepare("SELECT address FROM movements WHERE id = ?").get(w.id) as { address: string | null };
        if (user)
          sendMail(
            this.db,
            user.email,
            "Withdrawal completed",
            `${message} ${shown} was sent to ${r.address ?? ""}; transaction id ${txIdOf(w.id)}.`,
            this.now(),
          );
      }
    });
  }
}

/** A withdrawal's transaction id: derived from its record, as a chain shows one (64 hex digits). */
function txIdOf(id: number): string {
  return createHash("sha256").update(`withdraw:${id}`).digest("hex");
}
