/**
 * Order entry on the account socket (docs/protocol.md#account-inputs): `on`, `ou`, `oc` and `oc_multi` inputs, each
 * answered by the exchange with an `n` notification of type `on-req`, `ou-req`, `oc-req` or
 * `oc_multi-req` (SUCCESS, ERROR or FAILURE and a text). Every call resolves exactly once with an
 * OrderAck: the exchange's answer, or a local failure (not authenticated, timeout, socket closed).
 *
 * Correlation, since the notifications carry no request id:
 *  - `on` is sent with a client id (`cid`, int45) and matched by the cid in NOTIFY_INFO (an order, or
 *    a list of orders for an OCO); a notification without one (the embedded exchange's rejections
 *    carry no order) answers the oldest pending `on` — the exchange answers a socket's inputs in order.
 *  - `ou` and `oc` are matched by the order id in NOTIFY_INFO, else the oldest of their kind.
 *  - `oc_multi` is answered either by one `oc_multi-req` (the real exchange) or by one `oc-req` per
 *    order (the embedded exchange cancels them one by one, in the order sent, and rejects an id no
 *    longer open with an `oc-req` without an order, which therefore belongs to the first id still
 *    unanswered): it completes when every id it named has its answer. An order closed while the
 *    request was out (`oc` on channel 0: the other leg of an OCO, a fill) counts as gone even when
 *    its own answer is "not found". For `all`, the ids are the open orders the account knows, and
 *    the exchange cancels only what is still open, so a close on channel 0 answers for the id.
 * A notification that matches nothing pending (another session of the same user) is ignored.
 */
import {
  notificationCodec,
  orderCodec,
  type Cancel,
  type Order,
  type OrderAck,
  type OrderRequest,
  type OrderUpdate,
  type Timers,
} from "../../protocol";

/** How long an input may wait for its notification. */
export const ORDER_TIMEOUT_MS = 10_000;

export type CancelTarget = { readonly ids: readonly number[] } | { readonly symbol: string } | { readonly all: true };

export interface OrderDeskOptions {
  readonly timers: Pick<Timers, "after" | "now">;
  /** Sends an input on the account socket; false when the socket is not open. */
  readonly send: (input: readonly unknown[]) => boolean;
  /** True once the account socket is open and its `auth` was accepted. */
  readonly authenticated: () => boolean;
  /** Ids of the reconciled open orders, all of them or those on one symbol. */
  readonly openOrderIds: (symbol: string | null) => number[];
  readonly timeoutMs?: number;
}

type Kind = "on" | "ou" | "oc" | "oc_multi";

interface Answer {
  readonly id: number;
  readonly ok: boolean;
  readonly status: string;
  readonly text: string;
}

interface Pending {
  readonly kind: Kind;
  /** `on`: the client id sent. */
  readonly cid: number;
  /** `ou`, `oc`: the order id. */
  readonly id: number;
  /** `oc_multi`: the ids asked for (or known open, for `all`), in the order sent. */
  readonly ids: readonly number[];
  readonly all: boolean;
  /** `oc_multi`: the exchange's answer per id, in the order they came. */
  readonly answers: Map<number, Answer>;
  /** `oc_multi`: ids closed on channel 0 while the request was out. */
  readonly closed: Set<number>;
  readonly resolve: (ack: OrderAck) => void;
  cancelTimer: Cancel;
}

interface WireOrder {
  readonly id: number | null;
  readonly cid: number | null;
}

const NONE: readonly number[] = [];

function localAck(localError: NonNullable<OrderAck["localError"]>): OrderAck {
  return { ok: false, status: "LOCAL", text: localError, orderIds: NONE, localError };
}

function wireOrder(o: Order): WireOrder {
  return {
    id: Number.isSafeInteger(o.id) ? o.id : null,
    cid: o.client_id !== null && Number.isSafeInteger(o.client_id) ? o.client_id : null,
  };
}

/**
 * NOTIFY_INFO as orders: one ORDER record, a list of them (OCO, oc_multi), or nothing. A record
 * that does not decode as an order is left out, as if the notification carried none.
 */
function ordersOf(data: unknown): WireOrder[] {
  if (!Array.isArray(data) || data.length === 0) return [];
  const one = orderCodec.decode(data);
  if (one.ok) return [wireOrder(one.value)];
  const out: WireOrder[] = [];
  for (const r of data) {
    const d = orderCodec.decode(r);
    if (d.ok) out.push(wireOrder(d.value));
  }
  return out;
}

function idsOf(orders: readonly WireOrder[]): number[] {
  const ids: number[] = [];
  for (const o of orders) if (o.id !== null) ids.push(o.id);
  return ids;
}

/** Strings keep the decimal the user typed; the exchange parses them (docs/protocol.md#account-inputs). */
function onPayload(o: OrderRequest, cid: number): Record<string, unknown> {
  const p: Record<string, unknown> = { cid, type: o.type, symbol: o.symbol, amount: o.amount };
  if (o.price !== undefined) p["price"] = o.price;
  if (o.priceAuxLimit !== undefined) p["price_aux_limit"] = o.priceAuxLimit;
  if (o.priceTrailing !== undefined) p["price_trailing"] = o.priceTrailing;
  if (o.priceOcoStop !== undefined) p["price_oco_stop"] = o.priceOcoStop;
  if (o.flags !== undefined) p["flags"] = o.flags;
  if (o.tif !== undefined) p["tif"] = o.tif;
  if (o.lev !== undefined) p["lev"] = o.lev;
  return p;
}

function ouPayload(u: OrderUpdate): Record<string, unknown> {
  const p: Record<string, unknown> = { id: u.id };
  if (u.price !== undefined) p["price"] = u.price;
  if (u.amount !== undefined) p["amount"] = u.amount;
  if (u.priceAuxLimit !== undefined) p["price_aux_limit"] = u.priceAuxLimit;
  if (u.priceTrailing !== undefined) p["price_trailing"] = u.priceTrailing;
  if (u.flags !== undefined) p["flags"] = u.flags;
  return p;
}

export class OrderDesk {
  readonly #o: OrderDeskOptions;
  /** In the order sent: the exchange answers a socket's inputs in that order. */
  readonly #pending: Pending[] = [];
  #lastCid = 0;

  constructor(options: OrderDeskOptions) {
    this.#o = options;
  }

  /** Requests still waiting for their notification. */
  get pendingCount(): number {
    return this.#pending.length;
  }

  submit(order: OrderRequest): Promise<OrderAck> {
    // int45 and unique per UTC day on the real exchange: the clock in ms, bumped past the last one.
    const cid = Math.max(this.#lastCid + 1, Math.floor(this.#o.timers.now()));
    this.#lastCid = cid;
    return this.#request("on", onPayload(order, cid), { cid });
  }

  update(update: OrderUpdate): Promise<OrderAck> {
    return this.#request("ou", ouPayload(update), { id: update.id });
  }

  cancel(id: number): Promise<OrderAck> {
    return this.#request("oc", { id }, { id });
  }

  cancelMany(target: CancelTarget): Promise<OrderAck> {
    if (!this.#o.authenticated()) return Promise.resolve(localAck("not-authenticated"));
    let ids: readonly number[];
    let all = false;
    if ("ids" in target) ids = [...new Set(target.ids)];
    else if ("symbol" in target) ids = this.#o.openOrderIds(target.symbol);
    else {
      ids = this.#o.openOrderIds(null);
      all = true;
    }
    // Nothing open that we know of: nothing is sent (the exchange would not answer an empty cancel).
    if (ids.length === 0)
      return Promise.resolve({ ok: true, status: "LOCAL", text: "", orderIds: NONE, localError: null });
    return this.#request("oc_multi", all ? { all: 1 } : { id: [...ids] }, { ids, all });
  }

  /** A channel-0 message of the account socket (after AccountCore has seen it, or before: either). */
  onAccount(type: string, payload: unknown): void {
    if (this.#pending.length === 0) return;
    if (type === "oc") {
      const [order] = ordersOf(payload);
      if (order?.id != null) this.#closedElsewhere(order.id);
      return;
    }
    if (type !== "n") return;
    const n = notificationCodec.decode(payload);
    if (!n.ok) return;
    const { type: kind, data, status, message: text } = n.value;
    const ok = status === "SUCCESS";
    const orders = ordersOf(data);
    switch (kind) {
      case "on-req":
        return this.#onReq(orders, ok, status, text);
      case "ou-req":
        return this.#byId("ou", orders, ok, status, text);
      case "oc-req":
        return this.#ocReq(orders, ok, status, text);
      case "oc_multi-req": {
        const p = this.#oldest("oc_multi");
        if (!p) return;
        const ids = ok ? (orders.length > 0 ? idsOf(orders) : [...p.ids]) : [];
        this.#finish(p, { ok, status, text, orderIds: ids, localError: null });
        return;
      }
      default:
        return;
    }
  }

  /** The account socket closed (or the account signed out): nothing pending can be answered now. */
  socketClosed(): void {
    const pending = this.#pending.splice(0);
    for (const p of pending) {
      p.cancelTimer();
      p.resolve(localAck("socket-closed"));
    }
  }

  #request(
    kind: Kind,
    payload: Record<string, unknown>,
    key: { cid?: number; id?: number; ids?: readonly number[]; all?: boolean },
  ): Promise<OrderAck> {
    if (!this.#o.authenticated()) return Promise.resolve(localAck("not-authenticated"));
    if (!this.#o.send([0, kind, null, payload])) return Promise.resolve(localAck("socket-closed"));
    return new Promise<OrderAck>((resolve) => {
      const p: Pending = {
        kind,
        cid: key.cid ?? -1,
        id: key.id ?? -1,
        ids: key.ids ?? NONE,
        all: key.all ?? false,
        answers: new Map(),
        closed: new Set(),
        resolve,
        cancelTimer: () => {},
      };
      p.cancelTimer = this.#o.timers.after(this.#o.timeoutMs ?? ORDER_TIMEOUT_MS, () => {
        const i = this.#pending.indexOf(p);
        if (i < 0) return;
        this.#pending.splice(i, 1);
        // A half-answered cancel-many still reports the orders it did cancel.
        resolve({ ...localAck("timeout"), orderIds: this.#cancelled(p) });
      });
      this.#pending.push(p);
    });
  }

  #onReq(orders: readonly WireOrder[], ok: boolean, status: string, text: string): void {
    const cids = orders.map((o) => o.cid).filter((c): c is number => c !== null);
    // Every `on` sent here carries a cid: an order without ours was placed elsewhere.
    const p =
      orders.length > 0 ? this.#pending.find((q) => q.kind === "on" && cids.includes(q.cid)) : this.#oldest("on");
    if (p) this.#finish(p, { ok, status, text, orderIds: idsOf(orders), localError: null });
  }

  #byId(kind: "ou" | "oc", orders: readonly WireOrder[], ok: boolean, status: string, text: string): void {
    const id = orders[0]?.id ?? null;
    const p = id !== null ? this.#pending.find((q) => q.kind === kind && q.id === id) : this.#oldest(kind);
    if (p) this.#finish(p, { ok, status, text, orderIds: id !== null ? [id] : NONE, localError: null });
  }

  #ocReq(orders: readonly WireOrder[], ok: boolean, status: string, text: string): void {
    const id = orders[0]?.id ?? null;
    // The first request, in the order sent, that this answer can belong to.
    for (const p of this.#pending) {
      if (p.kind === "oc" && (id === null || p.id === id)) {
        this.#byId("oc", orders, ok, status, text);
        return;
      }
      if (p.kind !== "oc_multi") continue;
      if (id === null) {
        // A rejection without an order: the next id of this request still unanswered.
        const next = p.all ? undefined : p.ids.find((i) => !p.answers.has(i));
        if (next === undefined) continue;
        this.#answer(p, { id: next, ok, status, text });
        return;
      }
      if ((p.ids.includes(id) && !p.answers.has(id)) || (p.all && !p.answers.has(id))) {
        this.#answer(p, { id, ok, status, text });
        return;
      }
    }
  }

  #closedElsewhere(id: number): void {
    for (const p of this.#pending) {
      if (p.kind !== "oc_multi" || !p.ids.includes(id)) continue;
      p.closed.add(id);
      if (p.all) this.#complete(p);
    }
  }

  #answer(p: Pending, a: Answer): void {
    p.answers.set(a.id, a);
    this.#complete(p);
  }

  /** Resolves an `oc_multi` once each of its ids has its answer (or, for `all`, closed). */
  #complete(p: Pending): void {
    for (const id of p.ids) if (!p.answers.has(id) && !(p.all && p.closed.has(id))) return;
    let failures = "";
    let firstFailure: string | null = null;
    let lastText = "";
    for (const id of p.ids) {
      const r = p.answers.get(id);
      if (r && r.text !== "") lastText = r.text;
      if (!r || r.ok || p.closed.has(id)) continue;
      firstFailure ??= r.status;
      if (!failures.includes(r.text)) failures = failures === "" ? r.text : `${failures}; ${r.text}`;
    }
    const ok = firstFailure === null;
    this.#finish(p, {
      ok,
      status: firstFailure ?? "SUCCESS",
      text: ok ? lastText : failures,
      orderIds: this.#cancelled(p),
      localError: null,
    });
  }

  /** The ids of an `oc_multi` that are gone: cancelled, or closed while it was out. */
  #cancelled(p: Pending): number[] {
    const ids: number[] = [];
    for (const id of p.ids) if (p.answers.get(id)?.ok === true || p.closed.has(id)) ids.push(id);
    // `all`: orders the exchange had that the account had not shown yet.
    if (p.all) for (const a of p.answers.values()) if (a.ok && !p.ids.includes(a.id)) ids.push(a.id);
    return ids;
  }

  #oldest(kind: Kind): Pending | undefined {
    return this.#pending.find((q) => q.kind === kind);
  }

  #finish(p: Pending, ack: OrderAck): void {
    const i = this.#pending.indexOf(p);
    if (i < 0) return;
    this.#pending.splice(i, 1);
    p.cancelTimer();
    p.resolve(ack);
  }
}
