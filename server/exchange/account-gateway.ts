/**
 * The authenticated side of the WebSocket (PROTOCOL.md 4): `auth` by token or API-key signature,
 * the channel-0 snapshots after it (`ps`, `ws`, `os`, `fos`, `fcs`, `fls`), the order inputs
 * `on`, `oc`, `oc_multi`, and the account events Trading emits, routed to the user's sockets.
 */
import { Funds } from "./funds.ts";
import type { FundingLoans } from "./funding-loans.ts";
import type { FundingOffers } from "./funding-offers.ts";
import type { Accounts, AuthCheck } from "../store/accounts.ts";
import type { Trading, WalletType } from "./trading.ts";

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

  /** Trading's emit target. */
  emit(userId: number, type: string, payload: unknown): void {
    for (const l of this.#listeners) l(userId, type, payload);
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
    // The server checks the signature over the payload and the nonce's monotonicity, and that the
    // payload is an AUTH payload (PROTOCOL.md 4.1 quirk: some clients repeat the nonce in it).
    if (
      typeof key !== "string" ||
      typeof sig !== "string" ||
      typeof payload !== "string" ||
      !payload.startsWith("AUTH")
    ) {
      return { ok: false, code: 10100, msg: "apikey: invalid" };
    }
    const n = typeof nonce === "number" ? nonce : Number(nonce);
    return this.accounts.checkSignature(key, payload, sig, n);
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
        if (typeof p["id"] === "number") this.trading.cancel(userId, p["id"]);
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
      case "calc":
        for (const [t, p] of this.calc(userId, payload)) this.emit(userId, t, p);
        return;
      default:
        return;
    }
  }
}
