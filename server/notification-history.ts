/**
 * The notification history (docs/product-rules.md#notifications-page): every notification the
 * exchange sends an account as an `n` frame (order, funding and position requests' answers, a
 * refused stop, …) is kept in SQLite, the newest NOTIFICATION_HISTORY_KEPT per account, and read
 * back page by page.
 *
 * - Recording listens to the account events (`events.ts`), so it sees a notification only after the
 *   change it tells of has committed, and never one of a rolled-back operation. The rows of one
 *   batch of events are written together on a microtask: one transaction instead of one per
 *   notification while an order's fills pour out.
 * - `POST /v2/auth/r/int/notifications/hist {category?, before?, start?, end?, limit?}` answers
 *   `[[ID, MTS, CATEGORY, READ, NOTIFICATION], …]`, newest first; `before` (an id) is the cursor of
 *   the next page, `start`/`end` bound MTS (inclusive), `limit` 1–100 (default 25).
 * - `POST /v2/auth/w/int/notifications/read {upTo?}` marks the account's rows up to that id (absent:
 *   all) read and answers `[COUNT]`: rows that arrived after the page was drawn stay unread.
 */
import {
  decodeHistoryQuery,
  decodeMarkRead,
  ERROR_CODES,
  NOTIFICATION_HISTORY_KEPT,
  notificationCategory,
  notificationCodec,
  notificationHistoryRowCodec,
  notificationsRefusalText,
  storableNotificationPayload,
  type HistoryQuery,
  type NotificationCategory,
} from "../src/protocol/index.ts";
import { logError } from "./log.ts";
import { fail, ok, type Reply } from "./reply.ts";
import type { AccountEvents } from "./exchange/events.ts";
import type { Db } from "./store/db.ts";

const HISTORY_TABLE = `CREATE TABLE IF NOT EXISTS notification_history (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id INTEGER NOT NULL REFERENCES users(id),
  mts INTEGER NOT NULL,
  type TEXT NOT NULL,
  category TEXT NOT NULL,
  payload TEXT NOT NULL,
  read INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS notification_history_user ON notification_history(user_id, id);
CREATE INDEX IF NOT EXISTS notification_history_category ON notification_history(user_id, category, id)`;

export function createNotificationHistory(db: Db): void {
  db.exec(HISTORY_TABLE);
}

interface Pending {
  readonly userId: number;
  readonly mts: number;
  readonly type: string;
  readonly category: NotificationCategory;
  readonly payload: string;
}

/**
 * Keeps every `n` event of `events` in the history table. Returns the stop function (the tests'
 * venues share nothing, so each records its own).
 */
export function recordNotifications(db: Db, events: AccountEvents): () => void {
  createNotificationHistory(db);
  const insert = db.prepare(
    "INSERT INTO notification_history (user_id, mts, type, category, payload) VALUES (?, ?, ?, ?, ?)",
  );
  // Keeps the newest KEPT rows of an account: the id below which everything goes is the KEPT-th newest.
  const trim = db.prepare(
    `DELETE FROM notification_history WHERE user_id = ? AND id < (
       SELECT id FROM notification_history WHERE user_id = ? ORDER BY id DESC LIMIT 1 OFFSET ?)`,
  );
  let pending: Pending[] = [];
  const flush = (): void => {
    const rows = pending;
    pending = [];
    // Events of the last batch before a shutdown: the database is gone with the process's history.
    if (!db.open) return;
    try {
      db.transaction(() => {
        const users = new Set<number>();
        for (const r of rows) {
          insert.run(r.userId, r.mts, r.type, r.category, r.payload);
          users.add(r.userId);
        }
        for (const u of users) trim.run(u, u, NOTIFICATION_HISTORY_KEPT - 1);
      })();
    } catch (e) {
      // The notifications were sent; losing their history rows must not take anything else down.
      logError("notification history", e);
    }
  };
  return events.onEvent((userId, type, payload) => {
    if (type !== "n" || !Array.isArray(payload)) return;
    // A notification payload is kept only when it is a record (docs/product-rules.md#lists-and-filters).
    if (!storableNotificationPayload(payload)) return;
    const decoded = notificationCodec.decode(payload);
    if (!decoded.ok) return;
    const note = decoded.value;
    if (pending.length === 0) queueMicrotask(flush);
    pending.push({
      userId,
      mts: note.mts,
      type: note.type,
      category: notificationCategory(note.type),
      payload: JSON.stringify(payload),
    });
  });
}

interface Row {
  id: number;
  mts: number;
  category: string;
  read: number;
  payload: string;
}

/** The history calls of a signed-in account; null for any other path. */
export function handleNotificationHistory(
  db: Db,
  userId: number,
  path: string,
  body: Record<string, unknown>,
): Reply | null {
  switch (path) {
    case "/v2/auth/r/int/notifications/hist": {
      const q = decodeHistoryQuery(body);
      if (!q.ok) return fail(ERROR_CODES.PARAMS, notificationsRefusalText(q.refusal), 400);
      return ok(readHistory(db, userId, q.value));
    }
    case "/v2/auth/w/int/notifications/read": {
      const upTo = decodeMarkRead(body);
      if (!upTo.ok) return fail(ERROR_CODES.PARAMS, notificationsRefusalText(upTo.refusal), 400);
      createNotificationHistory(db);
      const r = db
        .prepare("UPDATE notification_history SET read = 1 WHERE user_id = ? AND read = 0 AND id <= ?")
        .run(userId, upTo.value ?? Number.MAX_SAFE_INTEGER);
      return ok([r.changes]);
    }
    default:
      return null;
  }
}

function readHistory(db: Db, userId: number, q: HistoryQuery): unknown[] {
  createNotificationHistory(db);
  const where = ["user_id = ?"];
  const args: (number | string)[] = [userId];
  if (q.category !== null) {
    where.push("category = ?");
    args.push(q.category);
  }
  if (q.before !== null) {
    where.push("id < ?");
    args.push(q.before);
  }
  if (q.start !== null) {
    where.push("mts >= ?");
    args.push(q.start);
  }
  if (q.end !== null) {
    where.push("mts <= ?");
    args.push(q.end);
  }
  const rows = db
    .prepare(
      `SELECT id, mts, category, read, payload FROM notification_history WHERE ${where.join(" AND ")}
       ORDER BY id DESC LIMIT ?`,
    )
    .all(...args, q.limit) as Row[];
  return rows.map((r) =>
    notificationHistoryRowCodec.encode({
      id: r.id,
      mts: r.mts,
      category: r.category,
      read: r.read === 1,
      notification: JSON.parse(r.payload) as unknown,
    }),
  );
}
