/**
 * The account event queue: every channel-0 event the exchange sends an account (`wu`, `on`, `te`,
 * `fcn`, `n`, …) goes through `emit`, and listeners (the sockets, ws-public.ts; tests) receive it.
 *
 * An event about a change is sent only once that change is durable. Work that changes an account
 * runs in `atomically`: one SQLite transaction (a savepoint inside one already open), whose events
 * wait until the outermost transaction has committed and are dropped when it, or the savepoint
 * they were queued in, rolls back — a client must never hear of a balance or an order that was
 * not committed (a frame written to a socket before COMMIT could also reach a client and then be
 * lost with a killed process). Outside any transaction an event goes out at once.
 */
import { guarded } from "../log.ts";
import type { Db } from "../store/db.ts";

export type AccountListener = (userId: number, type: string, payload: unknown) => void;

type Queued = { readonly userId: number; readonly type: string; payload: unknown } | { readonly after: () => void };

export class AccountEvents {
  readonly #listeners = new Set<AccountListener>();
  readonly #queue: Queued[] = [];
  /** How many `atomically` calls are running (nested ones are savepoints). */
  #depth = 0;

  constructor(readonly db: Db) {}

  onEvent(listener: AccountListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  emit(userId: number, type: string, payload: unknown): void {
    if (this.#depth > 0) this.#queue.push({ userId, type, payload });
    else this.#deliver(userId, type, payload);
  }

  /**
   * Queues an event whose payload the transaction knows only later (a request's notification,
   * which carries the order as matching left it, goes out before that order's own events): the
   * returned setter fills it in. One never filled is not sent.
   */
  reserve(userId: number, type: string): (payload: unknown) => void {
    const event = { userId, type, payload: undefined as unknown };
    if (this.#depth > 0) this.#queue.push(event);
    return (payload) => {
      event.payload = payload;
      if (this.#depth === 0) this.#deliver(userId, type, payload);
    };
  }

  /**
   * Work that must follow the commit of the current transaction (renewing what a closed credit gave
   * back): run on a microtask after it commits, never when it rolls back. Outside a transaction, on
   * the next microtask.
   */
  afterCommit(fn: () => void): void {
    if (this.#depth > 0) this.#queue.push({ after: fn });
    else queueMicrotask(fn);
  }

  /** Runs `fn` in one transaction; its events are sent after the outermost COMMIT, dropped on rollback. */
  atomically<T>(fn: () => T): T {
    const mark = this.#queue.length;
    this.#depth++;
    let result: T;
    try {
      result = this.db.transaction(fn)();
    } catch (e) {
      this.#queue.length = mark;
      throw e;
    } finally {
      this.#depth--;
    }
    if (this.#depth === 0) this.#flush();
    return result;
  }

  #flush(): void {
    for (const e of this.#queue.splice(0)) {
      if ("after" in e) queueMicrotask(e.after);
      else if (e.payload !== undefined) this.#deliver(e.userId, e.type, e.payload);
    }
  }

  /** Each listener under its own guard: one that throws (a socket) keeps the event from no other. */
  #deliver(userId: number, type: string, payload: unknown): void {
    for (const l of this.#listeners) guarded(`account event ${type}`, l)(userId, type, payload);
  }
}
