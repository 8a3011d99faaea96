/**
 * The money property tests' operations (server/exchange/money-property.test.ts): each a row of
 * `MONEY_OPS` (name, weight, run), drawn by the seeded generator. An operation makes its calls,
 * writes what the exchange acknowledged into the journal (money-world.ts) and reports on the spot
 * what it saw wrong (a repeat that moved money again, more than a wallet held accepted). A new kind
 * of money movement is one more row, plus its terms in money-checks.ts when it moves money in or out.
 */
import {
  agreementOf,
  agreementRefusalCurrency,
  conversionCodec,
  conversionQuoteCodec,
  conversionTargets,
  depositAddressCodec,
  depositMethod,
  isConvertibleCurrency,
  LEDGER_CATEGORY,
  ledgerCategoryOf,
  ledgerCodec,
  movementRowCodec,
  notificationCodec,
  orderCodec,
  unitsToDecimal,
  withdrawalCodec,
  withdrawalConfirmCheckCodec,
  withdrawalMethodInfo,
  withdrawalStateCodec,
  WITHDRAW_REFUSALS,
  type DepositMethod as ProtocolDepositMethod,
  type LedgerEntry,
  type Order,
  type Wallet,
  type WithdrawalMethodInfo,
} from "../../src/protocol/index.ts";
import { mailsTo } from "./api.ts";
import {
  call,
  decoded,
  pick,
  requestId,
  send,
  sendDeposit,
  succeeded,
  units,
  walletsOf,
  type MoneyAccount,
  type MoneyWorld,
  type Random,
  type Reply,
} from "./money-world.ts";

export interface MoneyOp {
  readonly name: string;
  /** How often it is drawn, relative to the others. */
  readonly weight: number;
  /**
   * Runs once; answers its outcome (counted in the journal). Throws only when the exchange is
   * unreachable.
   */
  readonly run: (w: MoneyWorld, r: Random) => Promise<string>;
}

/** A deposit method of the stream: the method, and the most one deposit brings. */
type DepositMethod = ProtocolDepositMethod & { readonly max: number };

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * The methods deposits arrive by in the stream, with the most one brings (the minimum, the
 * currency and the kind are the method's own, src/protocol deposits.ts): the currencies the markets
 * trade, those conversions take, and SOL, which only comes in and goes out.
 */
const DEPOSIT_USES: readonly DepositMethod[] = (
  [
    ["bitcoin", 2],
    ["litecoin", 300],
    ["wireusd", 80_000],
    ["solana", 50],
    ["wireeur", 30_000],
    ["tethersol", 20_000],
  ] as const
).map(([name, max]) => {
  const m = depositMethod(name);
  if (!m) throw new Error(`no deposit method ${name}`);
  return { ...m, max };
});

const WALLET_NAMES = ["exchange", "margin", "funding"] as const;

async function destination(w: MoneyWorld, a: MoneyAccount, method: string, wallet: string): Promise<string> {
  const key = `${a.id}:${method}:${wallet}`;
  const known = w.destinations.get(key);
  if (known) return known;
  const data = succeeded(await call(w, a, "/v2/auth/w/deposit/address", { wallet, method }));
  const address = decoded("deposit address", depositAddressCodec.decode(data)).address;
  w.destinations.set(key, address);
  return address;
}

/**
 * A deposit arriving at one of the account's addresses (sometimes below the minimum, sometimes its
 * chain transaction sent twice).
 */
const deposit: MoneyOp = {
  name: "deposit",
  weight: 12,
  run: async (w, r) => {
    const a = pick(r, w.accounts);
    const use = pick(r, DEPOSIT_USES);
    const wire = use.kind === "wire";
    const wallet = r() < 0.8 ? "exchange" : pick(r, WALLET_NAMES);
    const below = r() < 0.08;
    // Log-uniform between the minimum and `max`; a wire in whole cents.
    const amount = below ? use.minimum / 2 : use.minimum * Math.exp(r() * Math.log(use.max / use.minimum));
    const text = unitsToDecimal(wire ? Math.round(amount * 100) * 1e6 : units(amount));
    const address = await destination(w, a, use.method, wallet);
    // A wire names no chain transaction: sent twice it is two wires.
    const twice = !wire && r() < 0.1;
    const txId = twice
      ? Array.from({ length: 8 }, () =>
          Math.floor(r() * 2 ** 32)
            .toString(16)
            .padStart(8, "0"),
        ).join("")
      : null;
    const body: Record<string, unknown> = wire
      ? { method: use.method, reference: address, amount: text }
      : { method: use.method, address, amount: text, ...(txId ? { tx_id: txId } : {}) };
    const reply = await sendDeposit(w, body);
    const got = isRecord(reply.body) ? reply.body : {};
    const id = got["id"];
    const state = got["state"];
    if (reply.status !== 200 || typeof id !== "number") {
      w.problems.push(`deposit ${JSON.stringify(body)} not recorded: ${reply.status} ${JSON.stringify(reply.body)}`);
      return "unrecorded";
    }
    w.journal.deposits.set(id, {
      account: a.id,
      id,
      currency: use.currency,
      units: units(Number(text)),
      below: state === "BELOW MINIMUM",
      credited: false,
      method: use.method,
      address,
      txId,
    });
    if (below !== (state === "BELOW MINIMUM"))
      w.problems.push(`deposit #${id} of ${text} ${use.currency}: ${String(state)}`);
    if (txId) {
      // The same chain transaction arriving again must not be a second deposit.
      const again = await sendDeposit(w, body);
      if (again.status !== 409)
        w.problems.push(`deposit tx ${txId} sent twice: ${again.status} ${JSON.stringify(again.body)}`);
      return "deposit+repeat";
    }
    return below ? "below-minimum" : "deposit";
  },
};

/** Every pending deposit confirmed and credited; the journal learns which are. */
const confirm: MoneyOp = {
  name: "confirm",
  weight: 3,
  run: async (w) => {
    await w.host.settleDeposits();
    await learnCredits(w);
    return "confirmed";
  },
};

/**
 * Which deposits are credited, from the movements. A deposit the journal does not know (sent by an
 * operation a kill cut before its reply) joins it, so what it may still credit is reckoned with.
 */
export async function learnCredits(w: MoneyWorld): Promise<void> {
  for (const a of w.accounts) {
    const rows = decoded(
      "movements",
      movementRowCodec.decodeList((await call(w, a, "/v2/auth/r/movements/hist", { limit: 1000 })).body),
    );
    for (const m of rows) {
      if (m.amount <= 0) continue;
      const d = w.journal.deposits.get(m.id);
      if (d) d.credited ||= m.status === "COMPLETED";
      else
        w.journal.deposits.set(m.id, {
          account: a.id,
          id: m.id,
          currency: m.currency,
          units: units(m.amount),
          below: m.status === "BELOW MINIMUM",
          credited: m.status === "COMPLETED",
          method: "",
          address: "",
          txId: null,
        });
    }
  }
}

/** Whether every deposit the journal knows, not below its minimum, is credited. */
export function allCredited(w: MoneyWorld): boolean {
  return [...w.journal.deposits.values()].every((d) => d.below || d.credited);
}

/**
 * Units not yet credited of the deposits sent to an account in a currency: what its balance may still
 * gain at any moment.
 */
function uncredited(w: MoneyWorld, account: number, currency: string): number {
  let sum = 0;
  for (const d of w.journal.deposits.values())
    if (d.account === account && d.currency === currency && !d.credited && !d.below) sum += d.units;
  return sum;
}

/**
 * A random wallet with something available, and the amount to move: mostly a share of it, sometimes
 * more than there is.
 */
async function fundsToMove(
  w: MoneyWorld,
  a: MoneyAccount,
  r: Random,
  share: () => number,
): Promise<{ wallet: Wallet; amount: number; over: boolean } | null> {
  const held = (await walletsOf(w, a)).filter((x) => x.available > 0);
  if (held.length === 0) return null;
  const wallet = pick(r, held);
  const over = r() < 0.1;
  const amount = over
    ? units(wallet.available) + 1 + Math.floor(r() * units(wallet.available))
    : Math.max(1, Math.floor(units(wallet.available) * share()));
  return { wallet, amount, over };
}

/**
 * A transfer sent once; one for more than the wallet had (`room`: with what deposits may credit
 * meanwhile) must be refused.
 */
async function transferOnce(
  w: MoneyWorld,
  a: MoneyAccount,
  body: Record<string, unknown>,
  f: { readonly wallet: Wallet; readonly amount: number; readonly over: boolean },
  label: string,
): Promise<string> {
  const { over, amount } = f;
  const reply = await call(w, a, "/v2/auth/w/transfer", body);
  if (succeeded(reply) !== null) {
    if (over && amount > units(f.wallet.available) + uncredited(w, a.id, f.wallet.currency))
      w.problems.push(`${label}: ${JSON.stringify(body)} exceeded the wallet and was accepted`);
    w.journal.transfers.push({ account: a, body, reply: reply.body });
    return label;
  }
  if (!over)
    w.problems.push(`${label}: ${JSON.stringify(body)} refused: ${reply.status} ${JSON.stringify(reply.body)}`);
  return `${label}-refused`;
}

/** Between two wallets of one account, once per request id. */
const transfer: MoneyOp = {
  name: "transfer",
  weight: 12,
  run: async (w, r) => {
    const a = pick(r, w.accounts);
    const f = await fundsToMove(w, a, r, () => 0.05 + r() * 0.85);
    if (!f) return "nothing-to-move";
    const to = pick(
      r,
      WALLET_NAMES.filter((x) => x !== f.wallet.type),
    );
    const body = {
      from: f.wallet.type,
      to,
      currency: f.wallet.currency,
      amount: unitsToDecimal(f.amount),
      request_id: requestId(r),
    };
    return transferOnce(w, a, body, f, "transfer");
  },
};

/** Between a master and its sub-account, either way. */
const groupTransfer: MoneyOp = {
  name: "group-transfer",
  weight: 5,
  run: async (w, r) => {
    const sub = w.accounts.find((x) => x.master !== null);
    const master = w.accounts.find((x) => x.id === sub?.master);
    if (!sub || !master) return "no-group";
    const [a, b] = r() < 0.5 ? [master, sub] : [sub, master];
    const f = await fundsToMove(w, a, r, () => 0.05 + r() * 0.6);
    if (!f) return "nothing-to-move";
    const body = {
      from: f.wallet.type,
      to: pick(r, WALLET_NAMES),
      currency: f.wallet.currency,
      amount: unitsToDecimal(f.amount),
      user_id_dst: b.id,
      request_id: requestId(r),
    };
    return transferOnce(w, a, body, f, "group-transfer");
  },
};

/**
 * The newest ledger id of an account (0 when none), to see afterwards what a call wrote. Rows are
 * read newest first; a deposit credited meanwhile may add a row, so callers look at categories.
 */
async function newestLedgerId(w: MoneyWorld, a: MoneyAccount): Promise<number> {
  const rows = decoded(
    "ledgers",
    ledgerCodec.decodeList((await call(w, a, "/v2/auth/r/ledgers/hist", { limit: 1 })).body),
  );
  return rows[0]?.id ?? 0;
}

async function ledgerSince(w: MoneyWorld, a: MoneyAccount, after: number): Promise<LedgerEntry[]> {
  const rows = decoded(
    "ledgers",
    ledgerCodec.decodeList((await call(w, a, "/v2/auth/r/ledgers/hist", { limit: 100 })).body),
  );
  return rows.filter((l) => l.id > after);
}

/** An acknowledged transfer sent again with its request id: the first reply, and nothing moves. */
const repeatTransfer: MoneyOp = {
  name: "repeat-transfer",
  weight: 4,
  run: async (w, r) => {
    if (w.journal.transfers.length === 0) return "none-yet";
    const t = pick(r, w.journal.transfers);
    const before = await newestLedgerId(w, t.account);
    const reply = await call(w, t.account, "/v2/auth/w/transfer", t.body);
    if (reply.status !== 200 || JSON.stringify(reply.body) !== JSON.stringify(t.reply))
      w.problems.push(
        `repeated transfer ${JSON.stringify(t.body)} answered ${JSON.stringify(reply.body)}, first ${JSON.stringify(t.reply)}`,
      );
    const moved = (await ledgerSince(w, t.account, before)).filter(
      (l) => ledgerCategoryOf(l.description) === LEDGER_CATEGORY.TRANSFER,
    );
    if (moved.length > 0)
      w.problems.push(`repeated transfer ${JSON.stringify(t.body)} moved money again: ${JSON.stringify(moved)}`);
    return "repeat-transfer";
  },
};

/** Several transfers of 60 % of one wallet at once: one at most goes through. */
const raceTransfers: MoneyOp = {
  name: "race-transfers",
  weight: 3,
  run: async (w, r) => {
    const a = pick(r, w.accounts);
    const f = await fundsToMove(w, a, r, () => 0.6);
    if (!f || f.over) return "nothing-to-move";
    const n = 2 + Math.floor(r() * 4);
    const bodies = Array.from({ length: n }, () => ({
      from: f.wallet.type,
      to: pick(
        r,
        WALLET_NAMES.filter((x) => x !== f.wallet.type),
      ),
      currency: f.wallet.currency,
      amount: unitsToDecimal(f.amount),
      request_id: requestId(r),
    }));
    const replies = await Promise.all(bodies.map((b) => call(w, a, "/v2/auth/w/transfer", b)));
    let accepted = 0;
    replies.forEach((reply, i) => {
      if (succeeded(reply) === null) return;
      accepted++;
      w.journal.transfers.push({ account: a, body: bodies[i] as Record<string, unknown>, reply: reply.body });
    });
    const room = units(f.wallet.available) + uncredited(w, a.id, f.wallet.currency);
    if (accepted * f.amount > room)
      w.problems.push(`${accepted} of ${n} concurrent transfers of ${f.amount} units from ${room} went through`);
    return accepted === 0 ? "race-none" : "race-one";
  },
};

/**
 * Base units an order can take: a share of what the wallet holds (a buy at its price), at least the
 * minimum size.
 */
function orderSize(available: number, price: number, side: "buy" | "sell", share: number): number {
  const base = side === "sell" ? available * share : (available * share) / price;
  // 1e-5 base is the smallest order (orders.ts MIN_ORDER_SIZE); sizes kept to its grid.
  return Math.floor(base * 1e5) * 1000;
}

function learnOrder(w: MoneyWorld, account: number, data: unknown): Order | null {
  const list = Array.isArray(data) ? data : [];
  const o = orderCodec.decode(list[0]);
  if (!o.ok) return null;
  const executed = units(Math.abs(o.value.original_amount - o.value.amount));
  const known = w.journal.orders.get(o.value.id);
  if (known) known.executed = Math.max(known.executed, executed);
  else w.journal.orders.set(o.value.id, { account, id: o.value.id, symbol: o.value.symbol, executed, canceled: false });
  return o.value;
}

/**
 * A limit, IOC or FOK order inside the spread: it rests, or crosses another account's order and both
 * pay their fees.
 */
const order: MoneyOp = {
  name: "order",
  weight: 30,
  run: async (w, r) => {
    const a = pick(r, w.accounts);
    const m = pick(r, w.markets);
    const side = r() < 0.5 ? "buy" : "sell";
    const ccy = side === "buy" ? m.quote : m.base;
    const wallet = (await walletsOf(w, a)).find((x) => x.type === "exchange" && x.currency === ccy);
    const over = r() < 0.08;
    const available = wallet?.available ?? 0;
    const roll = r();
    const type = roll < 0.7 ? "EXCHANGE LIMIT" : roll < 0.85 ? "EXCHANGE IOC" : "EXCHANGE FOK";
    const price = pick(r, m.prices);
    const size = orderSize(available, price, side, over ? 1.3 : 0.02 + r() * 0.5);
    if (size < 1000) return "nothing-to-trade";
    const amount = side === "buy" ? unitsToDecimal(size) : `-${unitsToDecimal(size)}`;
    const full = { type, symbol: m.symbol, amount, price: String(price) };
    const reply = await call(w, a, "/v2/auth/w/order/submit", full, r() < 0.3 ? 0 : "token");
    const data = succeeded(reply);
    if (data === null) {
      if (!over) w.problems.push(`order ${JSON.stringify(full)} refused: ${JSON.stringify(reply.body)}`);
      return "order-refused";
    }
    const o = learnOrder(w, a.id, data);
    const need = side === "sell" ? size : Math.round((size / 1e8) * price * 1e8);
    if (over && need > units(available) + uncredited(w, a.id, ccy))
      w.problems.push(
        `order ${JSON.stringify(full)} needing ${need} units of ${ccy} accepted with ${available} available`,
      );
    return o && o.amount !== o.original_amount ? "order-filled" : "order-rested";
  },
};

/** Several buys of 60 % of one quote wallet at once: one at most is accepted. */
const raceOrders: MoneyOp = {
  name: "race-orders",
  weight: 3,
  run: async (w, r) => {
    const a = pick(r, w.accounts);
    const m = pick(r, w.markets);
    const wallet = (await walletsOf(w, a)).find((x) => x.type === "exchange" && x.currency === m.quote);
    const price = Math.max(...m.prices);
    const size = orderSize(wallet?.available ?? 0, price, "buy", 0.6);
    if (!wallet || size < 1000) return "nothing-to-trade";
    const n = 2 + Math.floor(r() * 3);
    const body = { type: "EXCHANGE LIMIT", symbol: m.symbol, amount: unitsToDecimal(size), price: String(price) };
    const replies = await Promise.all(Array.from({ length: n }, () => call(w, a, "/v2/auth/w/order/submit", body)));
    let accepted = 0;
    for (const reply of replies) {
      const data = succeeded(reply);
      if (data === null) continue;
      accepted++;
      learnOrder(w, a.id, data);
    }
    const room = units(wallet.available) + uncredited(w, a.id, m.quote);
    if (accepted * Math.round((size / 1e8) * price * 1e8) > room)
      w.problems.push(
        `${accepted} of ${n} concurrent buys of ${size} units at ${price} went through with ${room} ${m.quote} units`,
      );
    return accepted === 0 ? "race-none" : "race-one";
  },
};

/** One of an account's open orders cancelled: its reservation released. */
const cancel: MoneyOp = {
  name: "cancel",
  weight: 10,
  run: async (w, r) => {
    const a = pick(r, w.accounts);
    const open = decoded("open orders", orderCodec.decodeList((await call(w, a, "/v2/auth/r/orders")).body));
    if (open.length === 0) return "nothing-open";
    const o = pick(r, open);
    const reply = await call(w, a, "/v2/auth/w/order/cancel", { id: o.id }, r() < 0.3 ? 0 : "token");
    const data = succeeded(reply);
    if (data === null) return "cancel-refused";
    const known = w.journal.orders.get(o.id);
    if (known) known.canceled = true;
    return "cancel";
  },
};

/** The last signed request sent again byte for byte (same nonce): refused, and it runs no second time. */
const replaySigned: MoneyOp = {
  name: "replay-signed",
  weight: 3,
  run: async (w) => {
    const last = w.journal.lastSigned;
    if (!last) return "none-yet";
    const reply = await send(last.url, last.headers, last.raw);
    const body = reply.body as unknown[];
    if (reply.status === 200 || !Array.isArray(body) || body[1] !== 10114)
      w.problems.push(
        `a signed request replayed with its nonce answered ${reply.status} ${JSON.stringify(reply.body)}`,
      );
    return "replay-refused";
  },
};

/**
 * A withdrawal method of the stream (its currency, fee and minimum are src/protocol
 * withdrawals.ts's) and the most one withdrawal takes: the level's daily limit (50 000 USD) must
 * last the stream.
 */
type WithdrawUse = WithdrawalMethodInfo & { readonly cap: number };

const WITHDRAW_USES: readonly WithdrawUse[] = (
  [
    ["bitcoin", 0.02],
    ["litecoin", 20],
    ["solana", 10],
  ] as const
).map(([name, cap]) => {
  const m = withdrawalMethodInfo(name);
  if (!m) throw new Error(`no withdrawal method ${name}`);
  return { ...m, cap };
});

/** The travel-rule details every request carries: to the owner's own wallet (needed from 1000 USD). */
const TRAVEL_RULE = { beneficiary: { type: "self" }, destination: { type: "self_hosted", attested: true } };

function learnWithdrawal(w: MoneyWorld, a: MoneyAccount, currency: string, units: number, reply: Reply): number | null {
  const data = succeeded(reply);
  const d = withdrawalCodec.decode(data);
  if (!d.ok) return null;
  const text = notificationCodec.decode(reply.body);
  // The reply says whether a mailed link must confirm it (the account's `no_enforce_withdrawal_check`).
  const mailed = text.ok && /mail/i.test(text.value.message);
  if (!w.journal.withdrawals.has(d.value.id))
    w.journal.withdrawals.set(d.value.id, {
      account: a.id,
      id: d.value.id,
      currency,
      units,
      status: mailed ? "UNCONFIRMED" : "PENDING",
      confirmed: false,
      canceled: false,
    });
  return d.value.id;
}

const refusalOf = (r: Reply): string => (Array.isArray(r.body) ? String(r.body[2]) : JSON.stringify(r.body));

/**
 * A withdrawal asked for with an API key (sometimes more than the wallet holds, sometimes sent twice
 * with its request id).
 */
const withdraw: MoneyOp = {
  name: "withdraw",
  weight: 8,
  run: async (w, r) => {
    const a = pick(r, w.accounts);
    const use = pick(r, WITHDRAW_USES);
    const held = (await walletsOf(w, a)).filter((x) => x.currency === use.currency && x.available > 0);
    if (held.length === 0) return "nothing-to-withdraw";
    const wallet = pick(r, held);
    const over = r() < 0.1;
    const amount = over
      ? units(wallet.available) + 1 + Math.floor(r() * units(wallet.available))
      : Math.min(Math.floor(units(wallet.available) * (0.02 + r() * 0.3)), units(use.cap));
    if (amount < units(use.minimum)) return "nothing-to-withdraw";
    const body = {
      wallet: wallet.type,
      method: use.method,
      amount: unitsToDecimal(amount),
      address: await destination(w, a, use.method, "exchange"),
      request_id: requestId(r),
      travel_rule: TRAVEL_RULE,
    };
    const reply = await call(w, a, "/v2/auth/w/withdraw", body, Math.floor(r() * a.keys.length));
    const id = learnWithdrawal(w, a, use.currency, amount, reply);
    const room = units(wallet.available) + uncredited(w, a.id, use.currency);
    if (id === null) {
      // Refused: rightly when it was more than the wallet, or past the level's daily limit.
      if (!over && refusalOf(reply) !== WITHDRAW_REFUSALS.dailyLimit)
        w.problems.push(`withdrawal ${JSON.stringify(body)} refused: ${reply.status} ${JSON.stringify(reply.body)}`);
      return "withdraw-refused";
    }
    if (over && amount > room)
      w.problems.push(`withdrawal ${JSON.stringify(body)} of more than ${room} units accepted`);
    if (r() < 0.25) {
      // The same request again (a retry after a lost reply): the first reply, and no second withdrawal.
      const again = await call(w, a, "/v2/auth/w/withdraw", body, Math.floor(r() * a.keys.length));
      if (JSON.stringify(again.body) !== JSON.stringify(reply.body))
        w.problems.push(`withdrawal ${JSON.stringify(body)} repeated answered ${JSON.stringify(again.body)}`);
      const rows = decoded(
        "movements",
        movementRowCodec.decodeList((await call(w, a, "/v2/auth/r/movements/hist", { limit: 5 })).body),
      );
      const extra = rows.filter((m) => m.amount < 0 && m.id > id);
      if (extra.length > 0)
        w.problems.push(`withdrawal ${JSON.stringify(body)} repeated made ${JSON.stringify(extra)}`);
      return "withdraw+repeat";
    }
    return "withdraw";
  },
};

/** Several withdrawals of 60 % of one wallet at once, each with its own key: one at most is accepted. */
const raceWithdrawals: MoneyOp = {
  name: "race-withdrawals",
  weight: 2,
  run: async (w, r) => {
    const a = pick(r, w.accounts);
    const use = pick(r, WITHDRAW_USES);
    const wallet = (await walletsOf(w, a)).find((x) => x.type === "exchange" && x.currency === use.currency);
    if (!wallet) return "nothing-to-withdraw";
    const amount = Math.floor(units(wallet.available) * 0.6);
    if (amount < units(use.minimum)) return "nothing-to-withdraw";
    const address = await destination(w, a, use.method, "exchange");
    const body = {
      wallet: "exchange",
      method: use.method,
      amount: unitsToDecimal(amount),
      address,
      travel_rule: TRAVEL_RULE,
    };
    const replies = await Promise.all(a.keys.map((_, k) => call(w, a, "/v2/auth/w/withdraw", body, k)));
    const accepted = replies.filter((reply) => learnWithdrawal(w, a, use.currency, amount, reply) !== null).length;
    const room = units(wallet.available) + uncredited(w, a.id, use.currency);
    if (accepted * amount > room)
      w.problems.push(
        `${accepted} of ${replies.length} concurrent withdrawals of ${amount} units from ${room} went through`,
      );
    return accepted === 0 ? "race-none" : "race-one";
  },
};

/** An unconfirmed withdrawal confirmed with the link mailed for it (read from the development outbox). */
const confirmWithdrawal: MoneyOp = {
  name: "confirm-withdrawal",
  weight: 4,
  run: async (w, r) => {
    const waiting = [...w.journal.withdrawals.values()].filter((x) => x.status === "UNCONFIRMED" && !x.canceled);
    if (waiting.length === 0) return "none-waiting";
    const x = pick(r, waiting);
    const a = w.accounts.find((y) => y.id === x.account) as MoneyAccount;
    for (const mail of await mailsTo(w.host.base, `${a.name}@example.com`)) {
      const token = /confirm=([0-9a-f]{64})/.exec(mail.body)?.[1];
      if (mail.subject !== "Confirm your withdrawal" || !token || w.journal.links.has(token)) continue;
      // What the link confirms, read only (as the page shows it before the button is pressed).
      const check = withdrawalConfirmCheckCodec.decode(
        (await call(w, a, "/v2/auth/r/int/movements/confirm/check", { token })).body,
      );
      w.journal.links.set(token, check?.id ?? -1);
    }
    const token = [...w.journal.links].find(([, id]) => id === x.id)?.[0];
    if (!token) {
      w.problems.push(`no confirmation link mailed for withdrawal ${x.id}`);
      return "no-link";
    }
    const reply = await call(w, a, "/v2/auth/w/int/movements/confirm", { token });
    const state = withdrawalStateCodec.decode(reply.body);
    if (reply.status !== 200 || state?.id !== x.id || state.status !== "PENDING") {
      w.problems.push(`confirming withdrawal ${x.id} answered ${reply.status} ${JSON.stringify(reply.body)}`);
      return "confirm-refused";
    }
    x.status = "PENDING";
    x.confirmed = true;
    // The link works once.
    const again = await call(w, a, "/v2/auth/w/int/movements/confirm", { token });
    if (again.status === 200)
      w.problems.push(`withdrawal ${x.id}'s link confirmed twice: ${JSON.stringify(again.body)}`);
    return "confirmed";
  },
};

/** A withdrawal cancelled while it still may be: refunded once; too late once it is processing. */
const cancelWithdrawal: MoneyOp = {
  name: "cancel-withdrawal",
  weight: 3,
  run: async (w, r) => {
    const live = [...w.journal.withdrawals.values()].filter(
      (x) => !x.canceled && (x.status === "UNCONFIRMED" || x.status === "PENDING"),
    );
    if (live.length === 0) return "none-live";
    const x = pick(r, live);
    const a = w.accounts.find((y) => y.id === x.account) as MoneyAccount;
    const reply = await call(w, a, "/v2/auth/w/int/movements/cancel", { id: x.id }, r() < 0.5 ? "token" : 0);
    const state = withdrawalStateCodec.decode(reply.body);
    if (reply.status === 200 && state?.status === "CANCELED") {
      x.canceled = true;
      x.status = "CANCELED";
      const again = await call(w, a, "/v2/auth/w/int/movements/cancel", { id: x.id });
      if (refusalOf(again) !== WITHDRAW_REFUSALS.cancelTooLate)
        w.problems.push(`withdrawal ${x.id} cancelled twice: ${JSON.stringify(again.body)}`);
      return "cancelled";
    }
    if (refusalOf(reply) !== WITHDRAW_REFUSALS.cancelTooLate)
      w.problems.push(`cancelling withdrawal ${x.id} answered ${reply.status} ${JSON.stringify(reply.body)}`);
    return "too-late";
  },
};

/** Confirmed withdrawals go through PROCESSING to COMPLETED. */
const completeWithdrawals: MoneyOp = {
  name: "complete-withdrawals",
  weight: 2,
  run: async (w) => {
    await w.host.settleWithdrawals();
    await learnWithdrawals(w);
    return "completed";
  },
};

/** An hour on the exchange's clock: every unconfirmed withdrawal expires, refunded. */
const hourPasses: MoneyOp = {
  name: "hour-passes",
  weight: 0.5,
  run: async (w) => {
    if (!w.host.passHour) return "not-here";
    await w.host.passHour();
    await learnWithdrawals(w);
    return "hour-passed";
  },
};

/** The withdrawals' statuses as the movements show them now. */
export async function learnWithdrawals(w: MoneyWorld): Promise<void> {
  for (const a of w.accounts) {
    const rows = decoded(
      "movements",
      movementRowCodec.decodeList((await call(w, a, "/v2/auth/r/movements/hist", { limit: 1000 })).body),
    );
    for (const m of rows) {
      const x = w.journal.withdrawals.get(m.id);
      if (x && m.status) x.status = m.status;
    }
  }
}

/**
 * Whether every withdrawal confirmed (or queued without a confirmation) and not cancelled is
 * COMPLETED, as far as the journal knows.
 */
export function allWithdrawn(w: MoneyWorld): boolean {
  return [...w.journal.withdrawals.values()].every((x) => x.status !== "PENDING" && x.status !== "PROCESSING");
}

/**
 * A quote for converting `amount` units, accepting the currency agreement it asks for first; the
 * refusal's reply when there is none.
 */
async function quoteFor(
  w: MoneyWorld,
  a: MoneyAccount,
  body: Record<string, unknown>,
): Promise<{ id: string; receive: number } | Reply> {
  for (let tries = 0; ; tries++) {
    const reply = await call(w, a, "/v2/auth/w/int/convert/quote", body);
    const q = conversionQuoteCodec.decode(reply.body);
    if (reply.status === 200 && q) return { id: q.id, receive: units(q.receive) };
    const currency = agreementRefusalCurrency(refusalOf(reply));
    const agreement = currency === null ? null : agreementOf(currency);
    // Each side's agreement at most once.
    if (tries > 1 || !agreement || currency === null) return reply;
    await call(w, a, "/v2/auth/w/int/currency/agreement", { currency, version: agreement.version });
  }
}

function learnConversion(w: MoneyWorld, a: MoneyAccount, quote: string, reply: Reply): boolean {
  const c = conversionCodec.decode(succeeded(reply));
  if (!c || c.id !== quote) return false;
  if (!w.journal.conversions.some((x) => x.quote === quote))
    w.journal.conversions.push({
      account: a,
      quote,
      from: c.from,
      to: c.to,
      amount: units(c.amount),
      receive: units(c.receive),
      reply: reply.body,
    });
  return true;
}

/** A convertible wallet of the account's with something available, or null. */
async function convertible(w: MoneyWorld, a: MoneyAccount, r: Random): Promise<Wallet | null> {
  const held = (await walletsOf(w, a)).filter((x) => isConvertibleCurrency(x.currency) && x.available > 0);
  return held.length === 0 ? null : pick(r, held);
}

/** A conversion quoted and converted in one wallet (sometimes the same quote converted twice: once). */
const convert: MoneyOp = {
  name: "convert",
  weight: 6,
  run: async (w, r) => {
    const a = pick(r, w.accounts);
    const wallet = await convertible(w, a, r);
    const to = wallet ? conversionTargets(wallet.currency) : [];
    if (!wallet || to.length === 0) return "nothing-to-convert";
    const over = r() < 0.1;
    const amount = over
      ? units(wallet.available) + 1 + Math.floor(r() * units(wallet.available))
      : Math.max(1, Math.floor(units(wallet.available) * (0.05 + r() * 0.6)));
    const body = { from: wallet.currency, to: pick(r, to), wallet: wallet.type, amount: unitsToDecimal(amount) };
    const q = await quoteFor(w, a, body);
    if (!("id" in q)) {
      if (!over) w.problems.push(`conversion quote ${JSON.stringify(body)} refused: ${JSON.stringify(q.body)}`);
      return "quote-refused";
    }
    if (over && amount > units(wallet.available) + uncredited(w, a.id, wallet.currency))
      w.problems.push(`conversion quote ${JSON.stringify(body)} for more than the wallet holds`);
    const reply = await call(w, a, "/v2/auth/w/int/convert", { quote: q.id }, r() < 0.3 ? 0 : "token");
    if (!learnConversion(w, a, q.id, reply)) {
      w.problems.push(`conversion ${JSON.stringify(body)} at quote ${q.id} refused: ${JSON.stringify(reply.body)}`);
      return "convert-refused";
    }
    if (r() < 0.25) {
      // The same quote again: the first answer, and nothing moves.
      const before = await newestLedgerId(w, a);
      const again = await call(w, a, "/v2/auth/w/int/convert", { quote: q.id });
      if (JSON.stringify(again.body) !== JSON.stringify(reply.body))
        w.problems.push(`conversion ${q.id} repeated answered ${JSON.stringify(again.body)}`);
      const moved = (await ledgerSince(w, a, before)).filter(
        (l) => ledgerCategoryOf(l.description) === LEDGER_CATEGORY.CONVERSION,
      );
      if (moved.length > 0) w.problems.push(`conversion ${q.id} repeated moved money again: ${JSON.stringify(moved)}`);
      return "convert+repeat";
    }
    return "convert";
  },
};

/**
 * Conversions of 60 % of one wallet each, at once (one quote converted twice among them): one at most
 * moves.
 */
const raceConversions: MoneyOp = {
  name: "race-conversions",
  weight: 2,
  run: async (w, r) => {
    const a = pick(r, w.accounts);
    const wallet = await convertible(w, a, r);
    const to = wallet ? conversionTargets(wallet.currency) : [];
    if (!wallet || to.length === 0) return "nothing-to-convert";
    const amount = Math.floor(units(wallet.available) * 0.6);
    const quotes: string[] = [];
    for (let i = 0; i < 2 + Math.floor(r() * 2); i++) {
      const q = await quoteFor(w, a, {
        from: wallet.currency,
        to: pick(r, to),
        wallet: wallet.type,
        amount: unitsToDecimal(amount),
      });
      if ("id" in q) quotes.push(q.id);
    }
    if (quotes.length === 0) return "quote-refused";
    const sent = [...quotes, quotes[0] as string];
    const replies = await Promise.all(sent.map((quote) => call(w, a, "/v2/auth/w/int/convert", { quote })));
    const moved = new Set(sent.filter((quote, i) => learnConversion(w, a, quote, replies[i] as Reply)));
    const room = units(wallet.available) + uncredited(w, a.id, wallet.currency);
    if (moved.size * amount > room)
      w.problems.push(
        `${moved.size} of ${quotes.length} concurrent conversions of ${amount} units from ${room} went through`,
      );
    return moved.size === 0 ? "race-none" : "race-one";
  },
};

/** The operations drawn, by weight. */
export const MONEY_OPS: readonly MoneyOp[] = [
  deposit,
  confirm,
  transfer,
  groupTransfer,
  repeatTransfer,
  raceTransfers,
  order,
  raceOrders,
  cancel,
  replaySigned,
  withdraw,
  raceWithdrawals,
  confirmWithdrawal,
  cancelWithdrawal,
  completeWithdrawals,
  hourPasses,
  convert,
  raceConversions,
];

export function opNamed(name: string): MoneyOp {
  const op = MONEY_OPS.find((o) => o.name === name);
  if (!op) throw new Error(`no operation ${name}`);
  return op;
}

export function drawOp(r: Random, ops: readonly MoneyOp[] = MONEY_OPS): MoneyOp {
  const total = ops.reduce((s, o) => s + o.weight, 0);
  let x = r() * total;
  for (const o of ops) {
    x -= o.weight;
    if (x < 0) return o;
  }
  return ops[ops.length - 1] as MoneyOp;
}

export async function runOp(w: MoneyWorld, r: Random, op: MoneyOp = drawOp(r)): Promise<void> {
  const outcome = await op.run(w, r);
  w.journal.count(`${op.name}:${outcome}`);
}
