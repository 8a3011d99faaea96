/**
 * The leaderboard widget's model, framework-free: which board (docs/product-rules.md#leaderboards),
 * the rows of the latest board the `status` channel sent, published at most once a second, and the
 * nickname reads and writes over an injected signed-in call.
 */
import {
  leaderboardRowCodec,
  NICKNAME_SETTING,
  rankingKey,
  RANKING_GLOBAL,
  type ChannelStatus,
  type RankingKind,
  type RankingTimeframe,
  type StatusView,
} from "../../../../protocol";

export const LEADERBOARD_REFRESH_MS = 1000;

export interface BoardRow {
  readonly rank: number;
  readonly username: string;
  readonly value: number;
}

/** The status key of a board: one market's (`tBTCUSD`) or every market's (`all`). */
export function boardKey(kind: RankingKind, timeframe: RankingTimeframe, scope: string): string {
  return rankingKey({ kind, timeframe, symbol: scope === "all" ? RANKING_GLOBAL : scope });
}

/** A board from a status payload (a list of rows); null when it is no board (nothing to replace). */
export function readBoard(payload: unknown): BoardRow[] | null {
  const d = leaderboardRowCodec.decodeList(payload);
  if (!d.ok) return null;
  return d.value.map(({ rank, username, value }) => ({ rank, username, value })).sort((a, b) => a.rank - b.rank);
}

export interface LeaderboardSnapshot {
  /** Null until the first board. */
  readonly rows: readonly BoardRow[] | null;
  readonly channel: ChannelStatus | "NONE";
}

export class LeaderboardStore {
  #rows: BoardRow[] | null = null;
  #channel: ChannelStatus | "NONE" = "NONE";
  #snapshot: LeaderboardSnapshot = { rows: null, channel: "NONE" };
  #dirty = false;
  readonly #listeners = new Set<() => void>();

  /** The first board shows at once, later ones on the next tick. */
  observe(view: Pick<StatusView, "payload" | "status">): void {
    const board = view.payload === null ? null : readBoard(view.payload);
    const first = this.#rows === null && board !== null;
    if (board !== null) this.#rows = board;
    if (board !== null || view.status !== this.#channel) this.#dirty = true;
    this.#channel = view.status;
    if (first) this.tick();
  }

  subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  getSnapshot = (): LeaderboardSnapshot => this.#snapshot;

  tick(): void {
    if (!this.#dirty) return;
    this.#dirty = false;
    this.#snapshot = { rows: this.#rows, channel: this.#channel };
    for (const l of this.#listeners) l();
  }
}

/** A signed-in call: path and body, the reply (status 0 when unreachable). */
export type AccountCall = (path: string, body: unknown) => Promise<{ readonly status: number; readonly body: unknown }>;

/** The account's nickname ("" when none); null when the exchange could not say. */
export async function readNickname(call: AccountCall): Promise<string | null> {
  const reply = await call("/v2/auth/r/settings", { keys: [NICKNAME_SETTING] }).catch(() => null);
  if (!reply || reply.status !== 200 || !Array.isArray(reply.body)) return null;
  const row = (reply.body as unknown[]).find((r) => Array.isArray(r) && r[0] === NICKNAME_SETTING);
  return Array.isArray(row) && typeof row[1] === "string" ? row[1] : "";
}

/** Stores the nickname ("" leaves the boards); false when the exchange did not store it. */
export async function writeNickname(call: AccountCall, nickname: string): Promise<boolean> {
  const reply = await call("/v2/auth/w/settings/set", { settings: { [NICKNAME_SETTING]: nickname } }).catch(() => null);
  return reply !== null && reply.status === 200;
}
