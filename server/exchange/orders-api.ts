/**
 * The order calls over REST (`r/orders[/SYM][/hist|/export]`, `r/trades[/SYM]/hist|export`, `w/order/submit`,
 * `update`, `cancel`, `cancel/multi`, `multi`) and the socket's order inputs (`on`, `ou`, `oc`,
 * `oc_multi`, `ox_multi`): docs/protocol.md#authenticated-calls and #account-inputs. The order
 * logic itself is orders.ts; this is only the requests' shapes and their answers.
 */
import { ERROR_CODES, HISTORY_LIMIT_MAX, parseRangeQuery } from "../../src/protocol/index.ts";
import { fail, notice, ok, type Reply } from "../reply.ts";
import type { AccountEvents } from "./events.ts";
import { closedOrderPage, ordersCsv, tradePage, tradesCsv, tradeWire } from "./order-history.ts";
import type { OrderRow } from "./order-store.ts";
import type { Orders, PlaceResult } from "./orders.ts";

/** The most ops one `ox_multi` / `w/order/multi` may carry. */
export const MAX_MULTI_OPS = 75;

const { PARAMS } = ERROR_CODES;

/**
 * `oc` / `w/order/cancel` (docs/protocol.md#account-inputs): `{id}`, or `{cid, cid_date:
 * "YYYY-MM-DD"}` — the open order with that client id created on that UTC day. Anything else is
 * answered with an `oc-req` ERROR notification (a client waits for one) and 10020.
 */
export function cancelInput(orders: Orders, userId: number, input: Record<string, unknown>): PlaceResult {
  const id = input["id"];
  if (typeof id === "number" && Number.isSafeInteger(id)) return orders.cancel(userId, id);
  const cid = input["cid"];
  const date = input["cid_date"];
  if (id === undefined && typeof cid === "number" && Number.isSafeInteger(cid) && isCidDate(date)) {
    const row = orders.store.openOf(userId).find((r) => r.cid === cid && utcDay(r.mts_create) === date);
    if (row) return orders.cancel(userId, row.id);
    orders.notify(userId, "oc-req", null, "ERROR", "Order not found.");
    return { ok: false, code: ERROR_CODES.GENERIC, msg: "Order not found." };
  }
  const msg = "Invalid cancel: id, or cid and cid_date (YYYY-MM-DD), required";
  orders.notify(userId, "oc-req", null, "ERROR", msg);
  return { ok: false, code: PARAMS, msg };
}

/**
 * `oc_multi` / `w/order/cancel/multi` (docs/protocol.md#account-inputs): the user's open orders
 * picked by `{id: [...]}`, `{cid: [[CID, "YYYY-MM-DD"], ...]}` (the UTC day the order was
 * created), `{gid: [...]}` (the `on` input's group id) or `{all: 1}`, cancelled; returns them as
 * they closed (the reply's array of orders), or null for a request that names none of these (an
 * `oc_multi-req` ERROR notification is sent).
 */
export function cancelMulti(orders: Orders, userId: number, input: Record<string, unknown>): unknown[][] | null {
  const out: unknown[][] = [];
  const cancel = (id: number): void => {
    const res = orders.cancel(userId, id);
    if (res.ok) out.push(res.order);
  };
  if (input["all"] !== 1 && Array.isArray(input["id"])) {
    // Every id asked for gets its answer (an oc-req notification), found or not: a client waits
    // for one per id, and an OCO leg cancelled with its peer is answered "not found".
    for (const id of input["id"]) if (typeof id === "number") cancel(id);
    return out;
  }
  const open = orders.store.openOf(userId);
  let picked: OrderRow[];
  if (input["all"] === 1) picked = open;
  else if (Array.isArray(input["cid"])) {
    const keys = new Set(
      input["cid"].flatMap((c: unknown) => (Array.isArray(c) ? [`${String(c[0])}|${String(c[1])}`] : [])),
    );
    picked = open.filter((r) => r.cid !== null && keys.has(`${r.cid}|${utcDay(r.mts_create)}`));
  } else if (Array.isArray(input["gid"])) {
    const gids = new Set(input["gid"].filter((g): g is number => typeof g === "number"));
    picked = open.filter((r) => r.gid !== null && gids.has(r.gid));
  } else {
    orders.notify(userId, "oc_multi-req", null, "ERROR", "Invalid cancel: id, cid, gid or all required");
    return null;
  }
  // An OCO leg may already have gone with its peer.
  for (const r of picked) if (orders.store.open.get(r.id)?.open === 1) cancel(r.id);
  return out;
}

/** The UTC day of a timestamp, as `cid_date` names it. */
function utcDay(mts: number): string {
  return new Date(mts).toISOString().slice(0, 10);
}

function isCidDate(v: unknown): v is string {
  return typeof v === "string" && /^\d{4}-\d{2}-\d{2}$/.test(v);
}

/** Each op's notification type and the text of its REST (and `ox_multi`) answer. */
const OPS: Readonly<Record<string, { readonly type: string; readonly text: string }>> = {
  on: { type: "on-req", text: "Submitting order." },
  ou: { type: "ou-req", text: "Submitting update to order." },
  oc: { type: "oc-req", text: "Submitted for cancellation." },
  oc_multi: { type: "oc_multi-req", text: "Submitted for cancellation." },
};

/** The single-op REST calls and the op each runs. */
const SINGLE_CALLS: ReadonlyMap<string, string> = new Map([
  ["/v2/auth/w/order/submit", "on"],
  ["/v2/auth/w/order/update", "ou"],
  ["/v2/auth/w/order/cancel", "oc"],
]);

type OpResult =
  { readonly ok: true; readonly data: unknown } | { readonly ok: false; readonly code: number; readonly msg: string };

/**
 * Runs one order op as its single call does (its own notifications and order events go out as
 * usual): the data of its answer (an order, an OCO's legs, the cancelled orders), or why not.
 */
function runOp(orders: Orders, userId: number, op: string, body: Record<string, unknown>): OpResult {
  switch (op) {
    case "on": {
      const r = orders.place(userId, body);
      return r.ok ? { ok: true, data: r.legs ?? [r.order] } : r;
    }
    case "ou": {
      const r = orders.update(userId, body);
      return r.ok ? { ok: true, data: r.order } : r;
    }
    case "oc": {
      const r = cancelInput(orders, userId, body);
      return r.ok ? { ok: true, data: r.order } : r;
    }
    default: {
      const r = cancelMulti(orders, userId, body);
      return r !== null
        ? { ok: true, data: r }
        : { ok: false, code: PARAMS, msg: "Invalid cancel: id, cid, gid or all required" };
    }
  }
}

/**
 * `ox_multi` / `w/order/multi`: `[[OP, BODY], …]` with OP one of `on`, `oc`, `oc_multi`, `ou`, at
 * most 75. The whole batch is checked first — anything malformed and no op runs (`ok: false`).
 * Then each op runs in order exactly as its single form does, and the answer is the
 * `ox_multi-req` notification whose data is the array of per-op notifications, in the REST
 * single-call shapes.
 */
export function orderMulti(
  orders: Orders,
  userId: number,
  ops: unknown,
  now: number,
): { ok: true; note: unknown[] } | { ok: false; msg: string } {
  if (!Array.isArray(ops) || ops.length === 0) return { ok: false, msg: "Invalid ops: a non-empty array required" };
  if (ops.length > MAX_MULTI_OPS) return { ok: false, msg: `Invalid ops: at most ${MAX_MULTI_OPS} allowed` };
  const parsed: [string, Record<string, unknown>][] = [];
  for (const op of ops) {
    const [name, body] = Array.isArray(op) ? (op as unknown[]) : [];
    if (typeof name !== "string" || !Object.hasOwn(OPS, name) || !isRecord(body))
      return { ok: false, msg: "Invalid ops: each must be [on|oc|oc_multi|ou, {…}]" };
    parsed.push([name, body]);
  }
  const notes = parsed.map(([name, body]): unknown[] => {
    const { type, text } = OPS[name] as { type: string; text: string };
    const r = runOp(orders, userId, name, body);
    return r.ok ? notice(now, type, r.data, "SUCCESS", text) : notice(now, type, null, "ERROR", r.msg);
  });
  return {
    ok: true,
    note: notice(now, "ox_multi-req", notes, "SUCCESS", `Submitting ${notes.length} order operations.`),
  };
}

/** The order REST calls; null for any other path. */
export function ordersRest(
  orders: Orders,
  userId: number,
  path: string,
  body: Record<string, unknown>,
  now: number,
): Reply | null {
  let m: RegExpExecArray | null;
  if ((m = /^\/v2\/auth\/r\/orders(?:\/(t[A-Z0-9:]+))?$/.exec(path))) {
    const all = orders.openOrdersWire(userId);
    return ok(m[1] ? all.filter((o) => o[3] === m?.[1]) : all);
  }
  // Closed orders and own trades: pages, or the whole range as CSV (order-history.ts;
  // docs/protocol.md#history-paging).
  if ((m = /^\/v2\/auth\/r\/(orders|trades)(?:\/(t[A-Z0-9:]+))?\/(hist|export)$/.exec(path))) {
    const [, what, symbol = null, kind] = m;
    const q = parseRangeQuery(body, kind === "export" ? null : HISTORY_LIMIT_MAX);
    if (!q.ok) return fail(PARAMS, q.message, 400);
    const db = orders.store.db;
    if (what === "orders")
      return ok(
        kind === "export"
          ? ordersCsv(orders.store, userId, symbol, q.query)
          : closedOrderPage(db, userId, symbol, q.query).map((r) => orders.store.wire(r)),
      );
    return ok(
      kind === "export"
        ? tradesCsv(db, userId, symbol, q.query, now)
        : tradePage(db, userId, symbol, q.query).map(tradeWire),
    );
  }
  const single = SINGLE_CALLS.get(path);
  if (single) {
    const { type, text } = OPS[single] as { type: string; text: string };
    const r = runOp(orders, userId, single, body);
    return r.ok ? ok(notice(now, type, r.data, "SUCCESS", text)) : fail(r.code, r.msg);
  }
  if (path === "/v2/auth/w/order/cancel/multi") {
    // The notification carries the cancelled orders.
    const cancelled = cancelMulti(orders, userId, body);
    if (cancelled === null) return fail(PARAMS, "id, cid, gid or all: required");
    return ok(notice(now, "oc_multi-req", cancelled, "SUCCESS", "Submitted for cancellation."));
  }
  if (path === "/v2/auth/w/order/multi") {
    // The same batch as the socket's `ox_multi`: the reply is its `ox_multi-req` notification.
    const r = orderMulti(orders, userId, body["ops"], now);
    return r.ok ? ok(r.note) : fail(PARAMS, r.msg);
  }
  return null;
}

/** An order input of the account socket; false when `type` is not one. */
export function orderInput(
  orders: Orders,
  events: AccountEvents,
  userId: number,
  type: string,
  payload: unknown,
  now: number,
): boolean {
  const body = isRecord(payload) ? payload : {};
  if (type === "ox_multi") {
    const r = orderMulti(orders, userId, payload, now);
    events.emit(userId, "n", r.ok ? r.note : notice(now, "ox_multi-req", null, "ERROR", r.msg));
  } else if (Object.hasOwn(OPS, type)) runOp(orders, userId, type, body);
  else return false;
  return true;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
