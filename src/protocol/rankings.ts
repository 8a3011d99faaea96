/**
 * Leaderboards (docs/protocol.md#rankings, rules in docs/product-rules.md#leaderboards): the keys
 * `rank:KIND:TIMEFRAME:SYMBOL` the REST call `rankings/KEY/hist` and the socket's `status` channel
 * answer, the row both send, and the public nickname an account shows on them. Shared by the
 * exchange (which computes and encodes the boards) and the app (which decodes and shows them).
 */
import { recordCodec, type Decoded, type FieldSpec } from "./positional";

/** `vol`: traded volume in USD; `plu_diff`: realized profit in USD over the window. */
export const RANKING_KINDS = ["vol", "plu_diff"] as const;
export type RankingKind = (typeof RANKING_KINDS)[number];

/** Each timeframe's window, ms, ending now. */
export const RANKING_WINDOWS = { "3h": 3 * 3_600_000, "1w": 7 * 86_400_000, "1M": 30 * 86_400_000 } as const;
export type RankingTimeframe = keyof typeof RANKING_WINDOWS;

/** The board over every market, values in USD. */
export const RANKING_GLOBAL = "tGLOBAL:USD";

/** How many rows a board holds at most. */
export const RANKING_ROWS = 25;

export interface RankingKey {
  readonly kind: RankingKind;
  readonly timeframe: RankingTimeframe;
  /** `tGLOBAL:USD` or one trading symbol (`tBTCUSD`). */
  readonly symbol: string;
}

/** Reads `rank:vol:3h:tBTCUSD` (the `rank:` prefix optional, as the REST path omits it); null when malformed. */
export function parseRankingKey(key: string): RankingKey | null {
  const m = /^(?:rank:)?([a-z_]+):([0-9]+[a-zA-Z]):(t[A-Z0-9]+(?::[A-Z0-9]+)?)$/.exec(key);
  if (!m) return null;
  const kind = m[1] as RankingKind;
  const timeframe = m[2] as RankingTimeframe;
  if (!RANKING_KINDS.includes(kind) || !Object.hasOwn(RANKING_WINDOWS, timeframe)) return null;
  return { kind, timeframe, symbol: m[3] as string };
}

export function rankingKey(k: RankingKey): string {
  return `rank:${k.kind}:${k.timeframe}:${k.symbol}`;
}

/** A leaderboard row `[MTS, null, USERNAME, RANKING, null, null, VALUE, null, null, TWITTER_HANDLE]`. */
const LEADERBOARD_ROW = {
  mts: [0, "num"],
  username: [2, "str"],
  rank: [3, "num"],
  value: [6, "num"],
  twitter: [9, "str?"],
} as const satisfies FieldSpec;
export type LeaderboardRow = Decoded<typeof LEADERBOARD_ROW>;
export const leaderboardRowCodec = recordCodec("leaderboard row", LEADERBOARD_ROW, 10);

/** The user setting (`w/settings/set`) holding the public nickname; without one, an account is on no board. */
export const NICKNAME_SETTING = "api:leaderboard_nickname";

export type NicknameProblem = "length" | "characters";

/**
 * Why a nickname cannot be shown, or null: 3 to 16 letters, digits, `_` or `-` — which also keeps an
 * e-mail address (its `@` and `.`) off the boards.
 */
export function nicknameProblem(nickname: string): NicknameProblem | null {
  if (nickname.length < 3 || nickname.length > 16) return "length";
  return /^[\p{L}\p{N}_-]+$/u.test(nickname) ? null : "characters";
}

/** The nickname stored in a settings object, when it is one the boards may show. */
export function storedNickname(settings: Readonly<Record<string, unknown>>): string | null {
  const v = settings[NICKNAME_SETTING];
  return typeof v === "string" && nicknameProblem(v) === null ? v : null;
}
