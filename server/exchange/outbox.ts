/**
 * Account events held until the SQLite transaction that caused them has committed: an event about a
 * change that could still roll back must never reach a client. `flush` sends what is queued once no
 * transaction is open; called inside one, it tries again in a microtask, after the outermost
 * transaction has returned.
 */
import type { AccountEmit } from "./trading.ts";
import { guarded } from "../log.ts";

export class CommitOutbox {
  readonly #queue: [number, string, unknown][] = [];
  #scheduled = false;

  constructor(
    private readonly db: { readonly inTransaction: boolean },
    private readonly send: AccountEmit,
    /** Runs after each flush that sent (e.g. work that must follow a commit, such as renewals). */
    private readonly afterFlush: () => void = () => {},
  ) {}

  emit(userId: number, type: string, payload: unknown): void {
    this.#queue.push([userId, type, payload]);
  }

  flush(): void {
    if (this.db.inTransaction) {
      if (!this.#scheduled) {
        this.#scheduled = true;
        queueMicrotask(
          guarded("commit outbox", () => {
            this.#scheduled = false;
            this.flush();
          }),
        );
      }
      return;
    }
    for (const [u, t, p] of this.#queue.splice(0)) this.send(u, t, p);
    this.afterFlush();
  }
}
