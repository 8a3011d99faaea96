/**
 * The authenticated side of the WebSocket (PROTOCOL.md 4): `auth` by token or API-key signature,
 * the channel-0 snapshots after it (`ps`, `ws`, `os`, `fos`, `fcs`, `fls`), the order inputs
 * `on`, `ou`, `oc`, `oc_multi`, `ox_multi`, and the account events Trading emits, routed to the user's sockets.
 */
import { ERROR_CODES } from "../../src/protocol/index.ts";
import { guarded } from "../log.ts";
import { Funds } from "./funds.ts";
import type { FundingLoans } from "./funding-loans.ts";
import type { FundingOffers } from "./funding-offers.ts";
import type { Accounts, AuthCheck } from "../store/accounts.ts";
import type { Trading, WalletType } from "./trading.ts";

/** The most ops one `ox_multi` / `w/order/multi` may carry (PROTOCOL.md 4.3, 6). */
export const MAX_MULTI_OPS = 75;
const MULTI_OPS = new Set(["on", "oc", "oc_multi", "ou"]);

/** Credit and loan events: each changes the funding info (`fiu`) of the record's currency. */
const FUNDING_RECORD_EVENTS = new Set(["fcn", "fcu", "fcc", "fln", "flu", "flc"]);

export type AccountListener = (userId: number, type: string, payload: unknown) => void;

export class AccountGateway {
  readonly #listeners = new Set<AccountListener>();

  /** Transfers, deposit addresses, withdrawals and movements. */
  readonly funds: Funds;

  /** Funding offers and credits (venue.ts attaches them: they need the funding markets). */
  funding: FundingOffers | null = null;

  /** Funding loans, manual and backing positions (venue.ts attaches them). */
  loans: FundingLoans | null = null;

  constructor(
    readonly accounts: Accounts,
    readonly trading: Trading,
    readonly now: () => number,
  ) {
    this.funds = new Funds(accounts.db, trading, now);
  }

  /** Users whose balance (`bu`) is due on the next microtask, and the last one each was sent. */
  readonly #balanceDue = new Set<number>();
  readonly #balanceSent = new Map<number, string>();
  /** `${userId} ${fSYMBOL}` whose funding info (`fiu`) is due on the next microtask. */
  readonly #fundingInfoDue = new Set<string>();

  /**
   * Trading's emit target. Like the real account channel, a wallet change (`wu`) is followed by the
   * account's balance (`bu` [AUM, AUM_NET]) and a change of a funding credit or loan by the funding
   * info of its currency (`fiu`), unasked (Bitfinex documents both as feeds every authenticated
   * connection gets; a `calc: 1` socket gets neither until it asks, ws-public.ts). One of each per
   * microtask, after the batch of changes that caused it, and a `bu` only when it differs from
   * the last one sent.
   */
  emit(userId: number, type: string, payload: unknown): void {
    for (const l of this.#listeners) l(userId, type, payload);
    if (type === "wu") this.#schedule(this.#balanceDue, userId);
    else if (FUNDING_RECORD_EVENTS.has(type) && Array.isArray(payload) && typeof payload[1] === "string")
      this.#schedule(this.#fundingInfoDue, `${userId} ${payload[1]}`);
  }

  /** Whether a flush is queued: one per microtask, whatever the last one did. */
  #flushQueued = false;

  #schedule<T>(due: Set<T>, key: T): void {
    due.add(key);
    if (this.#flushQueued) return;
    this.#flushQueued = true;
    queueMicrotask(() => {
      this.#flushQueued = false;
      this.#flushInfo();
    });
  }

  /**
   * Sends what is due. The sets are emptied before any work and each user's record is built and
   * sent under its own guard: one account whose record throws loses that one push, never every
   * account's pushes from then on.
   */
  #flushInfo(): void {
    const balances = [...this.#balanceDue];
    const fundingInfo = [...this.#fundingInfoDue];
    this.#balanceDue.clear();
    this.#fundingInfoDue.clear();
    for (const userId of balances) {
      guarded("balance update", () => {
        const record = this.trading.positions.balanceRecord(userId, this.trading.walletsWire(userId));
        const text = JSON.stringify(record);
        if (this.#balanceSent.get(userId) === text) return;
        this.#balanceSent.set(userId, text);
        for (const l of this.#listeners) l(userId, "bu", record);
      })();
    }
    for (const key of fundingInfo) {
      guarded("funding info update", () => {
        const [user, symbol] = key.split(" ");
        const info = this.funding?.infoWire(Number(user), symbol as string);
        if (info) for (const l of this.#listeners) l(Number(user), "fiu", info);
      })();
    }
  }

  onEvent(listener: AccountListener): void {
    this.#listeners.add(listener);
  }

  authenticate(m: Record<string, unknown>): AuthCheck {
    if (typeof m["token"] === "string") return this.accounts.checkToken(m["token"], this.now());
    const key = m["apiKey"];
    const sig = m["authSig"];
    const nonce = m["authNonce"];
    const payload = m["authPayload"];
    // The signed payload must be exactly "AUTH" + the nonce sent beside it: the signature then covers
    // the nonce, so a captured frame replayed with a larger authNonce fails the signature check
    // instead of passing as a fresh login (docs/protocol.md#authentication).
    const nonceText = typeof nonce === "number" && Number.isSafeInteger(nonce) ? String(nonce) : nonce;
    if (
      typeof key !== "string" ||
      typeof sig !== "string" ||
      typeof payload !== "string" ||
      typeof nonceText !== "string" ||
      !/^[0-9]{1,16}$/.test(nonceText) ||
      payload !== `AUTH${nonceText}`
    ) {
      return { ok: false, code: ERROR_CODES.AUTH_FAILED, msg: "apikey: invalid" };
    }
    return this.accounts.checkSignature(key, payload, sig, Number(nonceText), this.now());
  }

  snapshots(userId: number): [string, unknown][] {
    return [
      ["ps", this.trading.positions.wireAll(userId)],
      ["ws", this.trading.walletsWire(userId)],
      ["os", this.trading.openOrdersWire(userId)],
      ...(this.funding?.snapshots(userId) ?? [
        ["fos", []],
        ["fcs", []],
      ]),
      ...(this.loans?.snapshots(userId) ?? [["fls", []]]),
      // Margin info after the snapshots, as the live server pushes it (no `calc` needed to start).
      ...this.trading.positions.marginInfoAll(userId).map((m): [string, unknown] => ["miu", m]),
    ];
  }

  /**
   * The records a `calc` input asks for (PROTOCOL.md 4.3), in request order: `miu`, `pu`, `wu`,
   * `fiu`, and `bu` for `balance`. The socket sends them to the asking client only.
   */
  calc(userId: number, payload: unknown): [string, unknown][] {
    return [
      ...this.trading.positions.calcRecords(userId, payload, (wallet, ccy) =>
        this.trading.walletOf(userId, wallet as WalletType, ccy),
      ),
      ...(this.funding?.calcRecords(userId, payload) ?? []),
      ...(Array.isArray(payload) && payload.slice(0, 30).some((r) => Array.isArray(r) && r[0] === "balance")
        ? [["bu", this.trading.positions.balanceRecord(userId, this.trading.walletsWire(userId))] as [string, unknown]]
        : []),
    ];
  }

  /**
   * `ox_multi` / `w/order/multi` (PROTOCOL.md 4.3, 6): `[[OP, BODY], …]` with OP one of `on`, `oc`,
   * `oc_multi`, `ou`, at most 75. The whole batch is checked first — anything malformed and no op
   * runs (`ok: false`). Then each op runs in order exactly as its single form does (its own
   * notifications and order events go out as usual), and the answer is the `ox_multi-req`
   * notification whose data is the array of per-op notifications, in the REST single-call shapes.
   */
  orderMulti(userId: number, ops: unknown): { ok: true; note: unknown[] } | { ok: false; msg: string } {
    if (!Array.isArray(ops) || ops.length === 0) return { ok: false, msg: "Invalid ops: a non-empty array required" };
    if (ops.length > MAX_MULTI_OPS) return { ok: false, msg: `Invalid ops: at most ${MAX_MULTI_OPS} allowed` };
    const parsed: [string, Record<string, unknown>][] = [];
    for (const op of ops) {
      const [name, body] = Array.isArray(op) ? (op as unknown[]) : [];
      if (
        typeof name !== "string" ||
        !MULTI_OPS.has(name) ||
        typeof body !== "object" ||
        body === null ||
        Array.isArray(body)
      )
        return { ok: false, msg: "Invalid ops: each must be [on|oc|oc_multi|ou, {…}]" };
      parsed.push([name, body as Record<string, unknown>]);
    }
    const t = this.trading;
    const note = (type: string, data: unknown, ok: boolean, text: string): unknown[] => [
      this.now(),
      type,
      null,
      null,
      data,
      null,
      ok ? "SUCCESS" : "ERROR",
      text,
    ];
    const notes = parsed.map(([name, body]): unknown[] => {
      switch (name) {
        case "on": {
          const r = t.place(userId, body);
          return r.ok
            ? note("on-req", r.legs ?? [r.order], true, "Submitting order.")
            : note("on-req", null, false, r.msg);
        }
        case "ou": {
          const r = t.update(userId, body);
          return r.ok
            ? note("ou-req", r.order, true, "Submitting update to order.")
            : note("ou-req", null, false, r.msg);
        }
        case "oc": {
          const r = t.cancelInput(userId, body);
          return r.ok
            ? note("oc-req", r.order, true, "Submitted for cancellation.")
            : note("oc-req", null, false, r.msg);
        }
        default: {
          const r = t.cancelMulti(userId, body);
          return r !== null
            ? note("oc_multi-req", r, true, "Submitted for cancellation.")
            : note("oc_multi-req", null, false, "Invalid cancel: id, cid, gid or all required");
        }
      }
    });
    return { ok: true, note: note("ox_multi-req", notes, true, `Submitting ${notes.length} order operations.`) };
  }

  input(userId: number, type: string, payload: unknown): void {
    const p = (typeof payload === "object" && payload !== null ? payload : {}) as Record<string, unknown>;
    switch (type) {
      case "on":
        this.trading.place(userId, p);
        return;
      case "ou":
        this.trading.update(userId, p);
        return;
      case "oc":
        this.trading.cancelInput(userId, p);
        return;
      case "fon":
        this.funding?.submit(userId, p);
        return;
      case "foc":
        this.funding?.cancel(userId, p["id"]);
        return;
      case "oc_multi":
        this.trading.cancelMulti(userId, p);
        return;
      case "ox_multi": {
        const r = this.orderMulti(userId, payload);
        this.emit(userId, "n", r.ok ? r.note : [this.now(), "ox_multi-req", null, null, null, null, "ERROR", r.msg]);
        return;
      }
      case "calc":
        for (const [t, p] of this.calc(userId, payload)) this.emit(userId, t, p);
        return;
      default:
        return;
    }
  }
}
