/**
 * The competitions page's live leaderboard (docs/product-rules.md#leaderboards): the week's board
 * of every market, by volume or by profit, read from REST `rankings/KEY/hist` and read again every
 * REFRESH_MS while the page is open. The prerendered HTML shows the loading line (the read runs in
 * an effect); a failed read keeps the last board and says the exchange could not be reached.
 */
import { Trans, useLingui } from "@lingui/react/macro";
import { useEffect, useId, useState } from "react";
import { leaderboardRowCodec, rankingKey, RANKING_GLOBAL, type LeaderboardRow, type RankingKind } from "../../protocol";
import { apiUrl, appConfig } from "../config";
import { log } from "../log";
import { appScheduler } from "../scheduler";
import { Loading, LoadError } from "./LoadState";
import * as css from "./site-live.css";

/** How often the open page reads the board again. */
const REFRESH_MS = 30_000;

async function fetchBoard(kind: RankingKind, signal: AbortSignal): Promise<LeaderboardRow[]> {
  const key = rankingKey({ kind, timeframe: "1w", symbol: RANKING_GLOBAL }).slice("rank:".length);
  const res = await fetch(apiUrl(appConfig().endpoints, `/v2/rankings/${encodeURIComponent(key)}/hist`), { signal });
  if (!res.ok) throw new Error(`rankings: HTTP ${res.status}`);
  const rows = leaderboardRowCodec.decodeList(await res.json());
  if (!rows.ok) throw new Error("rankings: malformed answer");
  return rows.value.sort((a, b) => a.rank - b.rank);
}

type Board = { readonly rows: readonly LeaderboardRow[] | null; readonly failed: boolean };

export function CompetitionLeaderboard() {
  const { t, i18n } = useLingui();
  const headingId = useId();
  const [kind, setKind] = useState<RankingKind>("vol");
  const [attempt, setAttempt] = useState(0);
  const [board, setBoard] = useState<Board & { readonly kind: RankingKind | null }>({
    rows: null,
    failed: false,
    kind: null,
  });

  useEffect(() => {
    const ctl = new AbortController();
    const read = (): void => {
      fetchBoard(kind, ctl.signal).then(
        (rows) => !ctl.signal.aborted && setBoard({ rows, failed: false, kind }),
        (err: unknown) => {
          if (ctl.signal.aborted) return;
          log.warn("leaderboard read failed", err);
          setBoard((b) => ({ ...b, failed: true }));
        },
      );
    };
    read();
    const timers = appScheduler.child();
    timers.every(REFRESH_MS, read);
    return () => {
      ctl.abort();
      timers.dispose();
    };
  }, [kind, attempt]);

  const rows = board.kind === kind ? board.rows : null;
  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId}>
        <Trans>Live leaderboard</Trans>
      </h2>
      <p className={css.muted}>
        <Trans>
          This week's top traders across every market, in USD. Only traders who chose a public nickname on the trading
          desk are listed.
        </Trans>
      </p>
      <div className={css.toolbar}>
        <label className={css.field}>
          <span className={css.label}>
            <Trans>Ranked by</Trans>
          </span>
          <select className={css.input} value={kind} onChange={(e) => setKind(e.target.value as RankingKind)}>
            <option value="vol">{t`Traded volume`}</option>
            <option value="plu_diff">{t`Realized profit`}</option>
          </select>
        </label>
      </div>
      {board.failed && <LoadError onRetry={() => setAttempt((n) => n + 1)} />}
      {rows === null ? (
        !board.failed && <Loading />
      ) : rows.length === 0 ? (
        <p>
          <Trans>No one is on this board yet this week.</Trans>
        </p>
      ) : (
        <div className={css.tableWrap}>
          <table className={css.table} data-testid="competition-leaderboard">
            <thead>
              <tr>
                <th className={css.thNum} scope="col">
                  <Trans>Rank</Trans>
                </th>
                <th className={css.th} scope="col">
                  <Trans>Nickname</Trans>
                </th>
                <th className={css.thNum} scope="col">
                  {kind === "vol" ? t`Volume (USD)` : t`Profit (USD)`}
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.rank}>
                  <td className={css.tdNum}>{r.rank}</td>
                  <td className={css.td}>{r.username}</td>
                  <td className={`${css.tdNum} ${r.value < 0 ? css.down : ""}`}>
                    {i18n.number(r.value, { maximumFractionDigits: 2 })}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
