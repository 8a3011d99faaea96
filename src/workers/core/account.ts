/**
 * Channel-0 reconciliation (docs/protocol.md#account-channel): the account's open orders, order
 * history per pair, positions, wallets, balance, funding offers/credits/loans, own trades,
 * notifications, margin and funding info — kept from snapshots (`os`, `ps`, `ws`, …) and updates,
 * with the product's rules (docs/product-rules.md#account-records):
 *  - a closed order (`oc`) moves from the open set to its pair's history;
 *  - a closed position (`pc`, or status CLOSED) is removed;
 *  - funding offers count while ACTIVE or PARTIALLY FILLED; credits and loans are kept only while
 *    their status contains ACTIVE;
 *  - a wallet's available falls back to the stored value (or the balance) when the wire sends null;
 *  - own trades are deduplicated by id (`tu` refines `te`);
 *  - notifications are stored only when their payload is an object.
 * Malformed records are counted and skipped; nothing here throws. The socket's sign-in state
 * (`setAuth`, from `AccountAuth`) travels with the records, so a refused re-auth reaches the UI on
 * the same path as the account itself.
 */
import {
  authTradeCodec,
  balanceCodec,
  decodeFundingInfo,
  decodeMarginInfo,
  fundingCreditCodec,
  fundingLoanCodec,
  fundingOfferCodec,
  fundingTradeCodec,
  isActiveFundingStatus,
  keepCredit,
  notificationCodec,
  orderCodec,
  positionCodec,
  storableNotificationPayload,
  decodeWalletUpdate,
  walletCodec,
  type AuthTrade,
  type BalanceUpdate,
  type DecodeResult,
  type FundingCredit,
  type FundingInfo,
  type FundingLoan,
  type FundingOffer,
  type FundingTrade,
  type MarginInfoBase,
  type MarginInfoSymbol,
  type Notification,
  type Order,
  type Position,
  type Wallet,
  type AccountAuthState,
  type AccountView,
} from "../../protocol";
import { SIGNED_OUT } from "./auth";

export const HISTORY_PER_PAIR = 100;
export const OWN_TRADES_KEPT = 200;
export const NOTIFICATIONS_KEPT = 50;

export type AccountSnapshot = AccountView;

export class AccountCore {
  readonly orders = new Map<number, Order>();
  readonly history = new Map<string, Order[]>();
  readonly positions = new Map<string, Position>();
  readonly wallets = new Map<string, Wallet>();
  balance: BalanceUpdate | null = null;
  readonly fundingOffers = new Map<number, FundingOffer>();
  readonly credits = new Map<number, FundingCredit>();
  readonly loans = new Map<number, FundingLoan>();
  trades: AuthTrade[] = [];
  fundingTrades: FundingTrade[] = [];
  notifications: Notification[] = [];
  marginBase: MarginInfoBase | null = null;
  readonly marginSymbols = new Map<string, MarginInfoSymbol>();
  readonly fundingInfo = new Map<string, FundingInfo>();
  /** Kept across reset(): a reconnect rebuilds the records, not the sign-in. */
  auth: AccountAuthState = SIGNED_OUT;
  /** The wallet snapshot (`ws`) of this connection arrived: `wallets` are the account's, not empty yet. */
  walletsKnown = false;
  version = 0;
  malformed = 0;
  /** Called with every notification stored (toasts, sounds). */
  onNotification: ((n: Notification) => void) | null = null;

  reset(): void {
    this.orders.clear();
    this.history.clear();
    this.positions.clear();
    this.wallets.clear();
    this.walletsKnown = false;
    this.balance = null;
    this.fundingOffers.clear();
    this.credits.clear();
    this.loans.clear();
    this.trades = [];
    this.fundingTrades = [];
    this.notifications = [];
    this.marginBase = null;
    this.marginSymbols.clear();
    this.fundingInfo.clear();
    this.version++;
  }

  setAuth(state: AccountAuthState): void {
    if (state === this.auth) return;
    this.auth = state;
    this.version++;
  }

  #ok<T>(d: DecodeResult<T>): T | null {
    if (d.ok) return d.value;
    this.malformed++;
    return null;
  }

  /** One channel-0 message: `type` as in docs/protocol.md#account-channel, `payload` the record(s). */
  apply(type: string, payload: unknown): void {
    this.version++;
    switch (type) {
      case "os": {
        const list = this.#ok(orderCodec.decodeList(payload));
        if (!list) return;
        this.orders.clear();
        for (const o of list) this.orders.set(o.id, o);
        return;
      }
      case "on":
      case "ou": {
        const o = this.#ok(orderCodec.decode(payload));
        if (o) this.orders.set(o.id, o);
        return;
      }
      case "oc": {
        const o = this.#ok(orderCodec.decode(payload));
        if (!o) return;
        this.orders.delete(o.id);
        const list = this.history.get(o.symbol) ?? [];
        this.history.set(o.symbol, [o, ...list.filter((h) => h.id !== o.id)].slice(0, HISTORY_PER_PAIR));
        return;
      }
      case "ps": {
        const list = this.#ok(positionCodec.decodeList(payload));
        if (!list) return;
        this.positions.clear();
        for (const p of list) if (p.status !== "CLOSED") this.positions.set(p.pair, p);
        return;
      }
      case "pn":
      case "pu":
      case "pc": {
        const p = this.#ok(positionCodec.decode(payload));
        if (!p) return;
        if (type === "pc" || p.status === "CLOSED") this.positions.delete(p.pair);
        else this.positions.set(p.pair, p);
        return;
      }
      case "ws": {
        const list = this.#ok(walletCodec.decodeList(payload));
        if (!list) return;
        this.wallets.clear();
        for (const w of list) this.wallets.set(`${w.type}:${w.currency}`, w);
        this.walletsKnown = true;
        return;
      }
      case "wu": {
        // A null available on the wire keeps the one we had (docs/product-rules.md#derived-fields).
        const w = this.#ok(
          decodeWalletUpdate(payload, (type, currency) => this.wallets.get(`${type}:${currency}`)?.available ?? null),
        );
        if (w) this.wallets.set(`${w.type}:${w.currency}`, w);
        return;
      }
      case "bu": {
        const b = this.#ok(balanceCodec.decode(payload));
        if (b) this.balance = b;
        return;
      }
      case "te":
      case "tu": {
        const t = this.#ok(authTradeCodec.decode(payload));
        if (!t) return;
        const i = this.trades.findIndex((x) => x.id === t.id);
        if (i >= 0) this.trades[i] = t;
        else this.trades = [t, ...this.trades].slice(0, OWN_TRADES_KEPT);
        return;
      }
      case "fte":
      case "ftu": {
        const t = this.#ok(fundingTradeCodec.decode(payload));
        if (!t) return;
        const i = this.fundingTrades.findIndex((x) => x.id === t.id);
        if (i >= 0) this.fundingTrades[i] = t;
        else this.fundingTrades = [t, ...this.fundingTrades].slice(0, OWN_TRADES_KEPT);
        return;
      }
      case "fos":
        this.#replace(this.fundingOffers, this.#ok(fundingOfferCodec.decodeList(payload)), (o) => o.active);
        return;
      case "fon":
      case "fou":
      case "foc":
        this.#upsert(
          this.fundingOffers,
          this.#ok(fundingOfferCodec.decode(payload)),
          (o) => type !== "foc" && isActiveFundingStatus(o.status),
        );
        return;
      case "fcs":
        this.#replace(this.credits, this.#ok(fundingCreditCodec.decodeList(payload)), keepCredit);
        return;
      case "fcn":
      case "fcu":
      case "fcc":
        this.#upsert(
          this.credits,
          this.#ok(fundingCreditCodec.decode(payload)),
          (c) => type !== "fcc" && keepCredit(c),
        );
        return;
      case "fls":
        this.#replace(this.loans, this.#ok(fundingLoanCodec.decodeList(payload)), keepCredit);
        return;
      case "fln":
      case "flu":
      case "flc":
        this.#upsert(this.loans, this.#ok(fundingLoanCodec.decode(payload)), (l) => type !== "flc" && keepCredit(l));
        return;
      case "miu": {
        const m = this.#ok(decodeMarginInfo(payload));
        if (!m) return;
        if (m.kind === "base") this.marginBase = m;
        else this.marginSymbols.set(m.symbol, m);
        return;
      }
      case "fiu": {
        const f = this.#ok(decodeFundingInfo(payload));
        if (f) this.fundingInfo.set(f.symbol, f);
        return;
      }
      case "n": {
        const n = this.#ok(notificationCodec.decode(payload));
        if (!n || !storableNotificationPayload(n.data)) return;
        this.notifications = [n, ...this.notifications].slice(0, NOTIFICATIONS_KEPT);
        this.onNotification?.(n);
        return;
      }
      default:
        this.version--; // types we do not keep (hos, hfos, uac, …) change nothing
    }
  }

  #replace<T extends { id: number }>(map: Map<number, T>, list: T[] | null, keep: (t: T) => boolean): void {
    if (!list) return;
    map.clear();
    for (const t of list) if (keep(t)) map.set(t.id, t);
  }

  #upsert<T extends { id: number }>(map: Map<number, T>, item: T | null, keep: (t: T) => boolean): void {
    if (!item) return;
    if (keep(item)) map.set(item.id, item);
    else map.delete(item.id);
  }

  snapshot(): AccountSnapshot {
    return {
      orders: [...this.orders.values()].sort((a, b) => b.mts_create - a.mts_create),
      history: Object.fromEntries(this.history),
      positions: [...this.positions.values()],
      wallets: [...this.wallets.values()],
      balance: this.balance,
      fundingOffers: [...this.fundingOffers.values()],
      credits: [...this.credits.values()],
      loans: [...this.loans.values()],
      trades: this.trades,
      fundingTrades: this.fundingTrades,
      notifications: this.notifications,
      marginBase: this.marginBase,
      marginSymbols: Object.fromEntries(this.marginSymbols),
      fundingInfo: Object.fromEntries(this.fundingInfo),
      auth: this.auth,
      version: this.version,
    };
  }
}
