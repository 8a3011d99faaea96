/**
 * One socket's account side (docs/protocol.md#authentication, #account-inputs): `auth` by token or
 * API-key signature with its options (`calc: 1`, `dms: 4`, `filter`), the account inputs
 * (`[0, TYPE, null, PAYLOAD]`, refused in maintenance or without the key's permission; `calc` at
 * most 8 a second), and the channel-0 frames of the account's events, narrowed to what the
 * credential may read and the filter lets through, with the account sequence (SEQ_ALL).
 */
import { randomUUID } from "node:crypto";
import type { WebSocket } from "ws";
import { CONF_FLAGS, ERROR_CODES } from "../../src/protocol/index.ts";
import { allows, keyAllowsAddress, permissionsWire } from "../api-keys.ts";
import { notice } from "../reply.ts";
import type { Credential, SubaccountContext } from "../store/accounts.ts";
import { credentialAddressAllowed, IP_LOCK_REFUSAL } from "../store/security-settings.ts";
import { filterAccountFrame, parseAccountFilter, type AccountFilter } from "./account-filter.ts";
import type { AccountGateway } from "./account-gateway.ts";

/** `calc` inputs one socket may send in a second (docs/protocol.md#account-inputs); more are dropped. */
const CALC_PER_SECOND = 8;

/** The longest delay a timer takes (2^31 − 1 ms); a later deadline is reached in steps. */
const MAX_TIMER_MS = 2_147_483_647;

/** The socket an account side sends on, and the public sequence it shares with the channels. */
export interface Link {
  readonly ws: WebSocket;
  readonly flags: number;
  seq: number;
}

export interface AccountSocketOptions {
  /** The authenticated side; without it `auth` is refused. */
  readonly account?: AccountGateway;
  readonly now: () => number;
  /** 1 operative, 0 maintenance. */
  readonly platformStatus: () => number;
}

export class AccountSocket {
  /** The authenticated account, or null. */
  userId: number | null = null;
  /** An API key's capabilities (null for a session token, which may do everything its user may). */
  keyCaps: readonly string[] | null = null;
  /** The token or API key the socket authenticated with, checked again on change (null: none). */
  cred: Credential | null = null;
  /**
   * Set when the socket signed in with a sub-account context token: the master's changes (its
   * address lock, its sessions ended) reach this socket too (`concerns`).
   */
  context: SubaccountContext | null = null;
  /** `auth` with `calc: 1`: calculated values only when asked with `calc` (docs/protocol.md#auth-options). */
  calcOnDemand = false;
  /**
   * `auth` with `dms: 4` (dead-man switch): the user whose open orders are cancelled when this
   * socket closes, however it closes (null: no switch).
   */
  dmsUser: number | null = null;
  /** `auth` with `filter`: the account traffic this socket gets (null: everything). */
  filter: AccountFilter | null = null;
  /** When this socket's last accepted `calc` inputs came (at most CALC_PER_SECOND in a second). */
  readonly #calcTimes: number[] = [];
  /** The account's own sequence on channel 0 (SEQ_ALL). */
  #authSeq = 0;
  /** The re-check due when the credential may lapse (its expiry, its session's cap), and when. */
  #timer: ReturnType<typeof setTimeout> | null = null;
  #timerAt: number | null = null;

  constructor(
    readonly link: Link,
    readonly o: AccountSocketOptions,
    /** Sends an event (an object frame) on the socket. */
    readonly event: (ev: Record<string, unknown>) => void,
    /** The peer's address: an API key with an IP allowlist signs in only from a listed one. */
    readonly address: string | null = null,
  ) {
    link.ws.once("close", () => this.#disarm());
  }

  /** Whether a credential change of `userId` may touch this socket: its own account, or a context's master. */
  concerns(userId: number): boolean {
    return this.cred !== null && (this.userId === userId || this.context?.masterId === userId);
  }

  auth(m: Record<string, unknown>): void {
    const gate = this.o.account;
    const check = gate
      ? gate.authenticate(m)
      : ({ ok: false, code: ERROR_CODES.AUTH_FAILED, msg: "auth: unavailable" } as const);
    if (!check.ok) {
      this.event({ event: "auth", status: "FAILED", chanId: 0, code: check.code, msg: check.msg });
      return;
    }
    if (gate && check.keyId !== undefined && !keyAllowsAddress(gate.accounts.db, check.keyId, this.address)) {
      const msg = "apikey: address not allowed";
      this.event({ event: "auth", status: "FAILED", chanId: 0, code: ERROR_CODES.AUTH_FAILED, msg });
      return;
    }
    // ip_lock (server/security-settings.ts): a session's token signs a socket in from a listed address only.
    if (gate && !credentialAddressAllowed(gate.accounts.db, check, this.address)) {
      const msg = IP_LOCK_REFUSAL;
      this.event({ event: "auth", status: "FAILED", chanId: 0, code: ERROR_CODES.AUTH_FAILED, msg });
      return;
    }
    this.userId = check.userId;
    this.keyCaps = check.caps ?? null;
    this.cred =
      check.token !== undefined
        ? { token: check.token, keyId: check.keyId ?? null }
        : check.keyId !== undefined
          ? { token: null, keyId: check.keyId }
          : null;
    this.context = check.context ?? null;
    const held = this.cred && gate ? gate.accounts.recheck(this.cred, this.o.now()) : null;
    this.#arm(held === null ? null : held.ok ? held.until : this.o.now());
    this.calcOnDemand = m["calc"] === 1;
    this.filter = parseAccountFilter(m["filter"]);
    // Only a credential that may write orders arms the switch: a read-only key cannot cancel.
    this.dmsUser =
      m["dms"] === 4 && (this.keyCaps === null || allows(this.keyCaps, { cap: "o", write: true }))
        ? check.userId
        : null;
    const caps = Object.fromEntries(
      permissionsWire(this.keyCaps).map(([scope, read, write]): [string, { read: unknown; write: unknown }] => [
        String(scope),
        { read, write },
      ]),
    );
    this.event({ event: "auth", status: "OK", chanId: 0, userId: check.userId, auth_id: randomUUID(), caps });
    for (const [type, payload] of gate?.snapshots(check.userId) ?? []) this.send(type, payload);
  }

  /** Answers a request of this socket with an ERROR notification (it reaches the socket whatever its filter). */
  refuse(type: string, text: string): void {
    this.send("n", notice(this.o.now(), `${type}-req`, null, "ERROR", text), false, true);
  }

  /** An account input `[0, TYPE, null, PAYLOAD]`; ignored before `auth`. */
  input(msg: unknown[]): void {
    const type = msg[1];
    const gate = this.o.account;
    if (msg[0] !== 0 || typeof type !== "string" || this.userId === null || !gate) return;
    if (this.cred && !this.recheck()) return;
    if (this.o.platformStatus() !== 1) return this.refuse(type, "platform: maintenance");
    // `calc` only reads (margin info, positions, wallets): a read-only key may ask for it, with
    // the orders or the positions permission.
    const calc = type === "calc";
    const cap = type === "fon" || type === "foc" ? "f" : "o";
    const caps = this.keyCaps ?? [];
    const permitted = allows(caps, { cap, write: !calc }) || (calc && allows(caps, { cap: "p", write: false }));
    // Refused like a rejected order: an error notification for the request, nothing executed.
    if (this.keyCaps && !permitted) return this.refuse(type, "apikey: permission denied");
    // A `calc` is answered to the socket that asked, with its values whatever its calc flag.
    if (calc) {
      if (this.#calcAllowed()) for (const [t, data] of gate.calc(this.userId, msg[3])) this.send(t, data, true);
      return;
    }
    gate.input(this.userId, type, msg[3]);
  }

  /**
   * `calc` inputs are limited to CALC_PER_SECOND per socket in any one-second window. The excess is
   * dropped without an answer: `calc` has no `-req` notification a client could match an error to,
   * and the next accepted one brings fresh values.
   */
  #calcAllowed(): boolean {
    const now = this.o.now();
    while (this.#calcTimes.length > 0 && now - (this.#calcTimes[0] as number) >= 1000) this.#calcTimes.shift();
    if (this.#calcTimes.length >= CALC_PER_SECOND) return false;
    this.#calcTimes.push(now);
    return true;
  }

  /**
   * A channel-0 frame. With SEQ_ALL it carries the socket's public sequence and then the account's
   * own (docs/protocol.md#frame-suffixes): `[0, TYPE, PAYLOAD, PUB_SEQ, AUTH_SEQ]`; a `*-req`
   * notification carries only the account sequence as it stands, advancing neither.
   */
  send(type: string, payload: unknown, asked = false, own = false): void {
    const ws = this.link.ws;
    if (ws.readyState !== ws.OPEN) return;
    // A key's (or limited token's) socket gets only the records its read permissions cover; a
    // notification carries the record it answers for (the order, the offer), so it needs the same
    // read permission. The refusals this socket's own input caused (`own`) always reach it.
    if (this.keyCaps && !own) {
      const cap = type === "n" ? noticeCap(payload) : READ_CAP.get(type);
      if (cap === null || (cap !== undefined && !allows(this.keyCaps, { cap, write: false }))) return;
    }
    // The auth filter narrows what is pushed; what this socket asked for (a `calc`) or caused (a
    // refusal of its own input) reaches it whatever the filter.
    const wanted = asked || own ? payload : filterAccountFrame(this.filter, type, payload);
    if (wanted === undefined) return;
    const data = this.calcOnDemand && !asked ? withoutCalc(type, wanted) : wanted;
    if (data === undefined) return;
    const parts: unknown[] = [0, type, data];
    if ((this.link.flags & CONF_FLAGS.SEQ_ALL) !== 0) {
      const req = type === "n" && Array.isArray(payload) && String(payload[1]).endsWith("-req");
      if (req) parts.push(this.#authSeq);
      else parts.push(++this.link.seq, ++this.#authSeq);
    }
    ws.send(JSON.stringify(parts));
  }

  /**
   * Takes the socket's capabilities from its token or key as they are now; once the token or key
   * is gone (deleted, logged out, revoked), the token expired with no renewal in its session, the
   * session reached its cap, or an allowlist or address lock leaves this socket out, the socket is
   * signed out and closed (false). Runs on every input, on every credential change of the account
   * (or a context's master), and by a timer when the credential may lapse: renewals move that
   * moment, so the timer reads the token's state again rather than closing blindly.
   */
  recheck(): boolean {
    if (!this.cred) return true;
    const gate = this.o.account;
    const held = gate?.accounts.recheck(this.cred, this.o.now()) ?? null;
    const current = held?.ok ? held : null;
    // A key's allowlist narrowed to leave this socket's address out ends it like a revocation.
    const allowed =
      this.cred.keyId === null ||
      (gate !== undefined && keyAllowsAddress(gate.accounts.db, this.cred.keyId, this.address));
    // An address lock turned on that leaves this socket's address out ends it too: the account's
    // own, and for a context the master's as well.
    const unlocked =
      gate === undefined ||
      this.userId === null ||
      credentialAddressAllowed(
        gate.accounts.db,
        {
          userId: this.userId,
          ...(this.cred.keyId === null ? {} : { keyId: this.cred.keyId }),
          ...(this.context ? { context: this.context } : {}),
        },
        this.address,
      );
    if (current !== null && allowed && unlocked) {
      this.keyCaps = current.caps;
      this.#arm(current.until);
      return true;
    }
    const msg =
      current !== null && !allowed
        ? "apikey: address not allowed"
        : current !== null
          ? IP_LOCK_REFUSAL
          : held !== null && !held.ok
            ? held.msg
            : this.cred.token !== null
              ? "token: revoked"
              : "apikey: revoked";
    this.userId = null;
    this.keyCaps = null;
    this.cred = null;
    this.context = null;
    this.#disarm();
    this.event({ event: "error", code: ERROR_CODES.AUTH_FAILED, msg });
    this.link.ws.close(1008, msg);
    return false;
  }

  /**
   * A re-check at `at` (the exchange's clock; null: none needed, an API key). The delay is taken
   * from the exchange's clock and waited on the real one; a timer that fires early (a clock moved
   * by hand, a renewal) finds the credential still good and arms the next.
   */
  #arm(at: number | null): void {
    if (at === this.#timerAt && this.#timer !== null) return;
    this.#disarm();
    if (at === null || this.link.ws.readyState !== this.link.ws.OPEN) return;
    const delay = Math.min(Math.max(at - this.o.now(), 0), MAX_TIMER_MS);
    this.#timerAt = at;
    this.#timer = setTimeout(() => {
      this.#timer = null;
      this.#timerAt = null;
      this.recheck();
    }, delay);
    this.#timer.unref();
  }

  #disarm(): void {
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
    this.#timerAt = null;
  }
}

/** The capability whose read permission an account record needs (records not listed: none). */
const READ_CAP: ReadonlyMap<string, string> = new Map(
  Object.entries({
    p: ["ps", "pn", "pu", "pc", "miu"],
    w: ["ws", "wu", "bu"],
    o: ["os", "on", "ou", "oc", "te", "tu"],
    f: ["fos", "fon", "fou", "foc", "fcs", "fcn", "fcu", "fcc", "fls", "fln", "flu", "flc", "fiu", "fte", "ftu"],
  }).flatMap(([cap, types]) => types.map((t): [string, string] => [t, cap])),
);

/**
 * The capability whose read permission a notification (`n`) needs, by the request it answers
 * (`[MTS, TYPE, …]`): orders `o`, funding `f`, positions `p`, wallets and movements `w`; null for
 * one not known here, which a key's socket does not get (fail closed).
 */
function noticeCap(payload: unknown): string | null {
  const type = Array.isArray(payload) && typeof payload[1] === "string" ? payload[1].replace(/-req$/, "") : "";
  if (/^(on|ou|oc|oc_multi|ox_multi|uca)$/.test(type)) return "o";
  if (/^(fon|foc|foc_all|fclose|fa|fsettle|fs)$/.test(type)) return "f";
  if (/^(pos_\w+|pc|claim|pos)$/.test(type)) return "p";
  if (/^(acc_wd|acc_tf|acc_cv|wd|tf|deposit_new|deposit_complete|wallet_withdrawal_\w+)$/.test(type)) return "w";
  return null;
}

/** Position fields a `calc: 1` socket gets as null until it asks: PL, PL_PERC, PRICE_LIQ, LEVERAGE. */
const POSITION_CALC_FIELDS = [6, 7, 8, 9] as const;
/** The wallet field it gets as null: BALANCE_AVAILABLE. */
const WALLET_CALC_FIELD = 4;

/**
 * An account frame for a socket that authenticated with `calc: 1`: positions and wallets with
 * their calculated fields null, and no margin info, funding info or balance pushed unasked
 * (undefined: not sent).
 */
function withoutCalc(type: string, payload: unknown): unknown {
  const blank = (record: unknown, fields: readonly number[]): unknown => {
    if (!Array.isArray(record)) return record;
    const copy: unknown[] = record.slice();
    for (const i of fields) if (i < copy.length) copy[i] = null;
    return copy;
  };
  switch (type) {
    case "miu":
    case "fiu":
    case "bu":
      return undefined;
    case "ps":
      return Array.isArray(payload) ? payload.map((p) => blank(p, POSITION_CALC_FIELDS)) : payload;
    case "pn":
    case "pu":
    case "pc":
      return blank(payload, POSITION_CALC_FIELDS);
    case "ws":
      return Array.isArray(payload) ? payload.map((w) => blank(w, [WALLET_CALC_FIELD])) : payload;
    case "wu":
      return blank(payload, [WALLET_CALC_FIELD]);
    default:
      return payload;
  }
}
