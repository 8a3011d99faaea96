/**
 * The account side of the socket (docs/protocol.md#authentication, #account-inputs): `auth` by
 * token or API-key signature, the channel-0 snapshots after it (`ps`, `ws`, `os`, `fos`, `fcs`,
 * `fls`, then `miu`), the `calc` input's records, and the inputs routed to orders-api.ts and
 * funding-api.ts; and the balance (`bu`) and funding info (`fiu`) every authenticated socket gets
 * after wallet and credit or loan changes. It holds the account's parts, which venue.ts wires.
 */
import { ERROR_CODES, PAPER_LIVE_ONLY_MESSAGE } from "../../src/protocol/index.ts";
import { guarded } from "../log.ts";
import { notice } from "../reply.ts";
import type { Accounts, AuthCheck } from "../store/accounts.ts";
import type { Balances } from "./balances.ts";
import type { AccountEvents } from "./events.ts";
import type { Exchange } from "./exchange.ts";
import { fundingCalc, fundingInput, fundingSnapshots } from "./funding-api.ts";
import type { FundingCredits } from "./funding-credits.ts";
import type { FundingLoans } from "./funding-loans.ts";
import type { FundingOffers } from "./funding-offers.ts";
import type { Funds } from "./funds.ts";
import { marginCalc } from "./margin-api.ts";
import { orderInput } from "./orders-api.ts";
import { isPaperAccount } from "./paper-accounts.ts";
import type { Orders } from "./orders.ts";
import type { Positions } from "./positions.ts";

/** Credit and loan events: each changes the funding info (`fiu`) of the record's currency. */
const FUNDING_RECORD_EVENTS = new Set(["fcn", "fcu", "fcc", "fln", "flu", "flc"]);

export class AccountGateway {
  constructor(
    readonly exchange: Exchange,
    readonly accounts: Accounts,
    readonly events: AccountEvents,
    readonly balances: Balances,
    readonly orders: Orders,
    readonly positions: Positions,
    /** Funding offers. */
    readonly funding: FundingOffers,
    readonly credits: FundingCredits,
    readonly loans: FundingLoans,
    /** Transfers, deposit addresses, withdrawals and movements. */
    readonly funds: Funds,
    readonly now: () => number,
  ) {
    this.events.onEvent((userId, type, payload) => this.#follow(userId, type, payload));
  }

  /** Users whose balance (`bu`) is due on the next microtask, and the last one each was sent. */
  readonly #balanceDue = new Set<number>();
  readonly #balanceSent = new Map<number, string>();
  /** `${userId} ${fSYMBOL}` whose funding info (`fiu`) is due on the next microtask. */
  readonly #fundingInfoDue = new Set<string>();

  /**
   * Like the real account channel, a wallet change (`wu`) is followed by the account's balance
   * (`bu` [AUM, AUM_NET]) and a change of a funding credit or loan by the funding info of its
   * currency (`fiu`), unasked (Bitfinex documents both as feeds every authenticated connection
   * gets; a `calc: 1` socket gets neither until it asks, ws-public.ts). One of each per microtask,
   * after the batch of changes that caused it, and a `bu` only when it differs from the last one sent.
   */
  #follow(userId: number, type: string, payload: unknown): void {
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
        const record = this.positions.balanceRecord(userId, this.balances.walletsWire(userId));
        const text = JSON.stringify(record);
        if (this.#balanceSent.get(userId) === text) return;
        this.#balanceSent.set(userId, text);
        this.events.emit(userId, "bu", record);
      })();
    }
    for (const key of fundingInfo) {
      guarded("funding info update", () => {
        const [user, symbol] = key.split(" ");
        const info = this.credits.infoWire(Number(user), symbol as string);
        if (info) this.events.emit(Number(user), "fiu", info);
      })();
    }
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
      ["ps", this.positions.wireAll(userId)],
      ["ws", this.balances.walletsWire(userId)],
      ["os", this.orders.openOrdersWire(userId)],
      ...fundingSnapshots(this, userId),
      // Margin info after the snapshots, as the live server pushes it (no `calc` needed to start).
      ...this.positions.marginInfoAll(userId).map((m): [string, unknown] => ["miu", m]),
    ];
  }

  /**
   * The records a `calc` input asks for, in request order: `miu`, `pu`, `wu`, `fiu`, and `bu` for
   * `balance`. The socket sends them to the asking client only.
   */
  calc(userId: number, payload: unknown): [string, unknown][] {
    const balance =
      Array.isArray(payload) && payload.slice(0, 30).some((r) => Array.isArray(r) && r[0] === "balance")
        ? [["bu", this.positions.balanceRecord(userId, this.balances.walletsWire(userId))] as [string, unknown]]
        : [];
    return [
      ...marginCalc(this.positions, this.balances, userId, payload),
      ...fundingCalc(this, userId, payload),
      ...balance,
    ];
  }

  input(userId: number, type: string, payload: unknown): void {
    const body = (typeof payload === "object" && payload !== null ? payload : {}) as Record<string, unknown>;
    if (type === "calc") for (const [t, p] of this.calc(userId, payload)) this.events.emit(userId, t, p);
    else if (orderInput(this.orders, this.events, userId, type, payload, this.now())) return;
    // A paper account never meets live money on the funding markets (src/protocol `paperLiveOnly`,
    // as its REST calls are refused).
    else if ((type === "fon" || type === "foc") && isPaperAccount(this.accounts.db, userId))
      this.events.emit(userId, "n", notice(this.now(), `${type}-req`, null, "ERROR", PAPER_LIVE_ONLY_MESSAGE));
    else fundingInput(this, userId, type, body);
  }
}
