import { msg } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { useEffect, useId, useState, useSyncExternalStore, type FormEvent } from "react";
import { useSnapshot } from "valtio";
import { nicknameProblem, type RankingKind, type RankingTimeframe } from "../../../../protocol";
import { auth, isLoggedIn } from "../../../auth";
import { log } from "../../../log";
import type { MarketBridge } from "../../../market/bridge";
import { market } from "../../../market/market";
import { appScheduler } from "../../../scheduler";
import { authCall } from "../../../session/session";
import type { WidgetDef, WidgetProps } from "../../widget";
import { FeedBadge, HealthStore } from "../book";
import * as css from "../liquidations/liquidations.css";
import {
  boardKey,
  LEADERBOARD_REFRESH_MS,
  LeaderboardStore,
  readNickname,
  writeNickname,
  type AccountCall,
} from "./leaderboard";

export type LeaderboardSource = Pick<MarketBridge, "status">;

/** The desk's widget: the boards from the app's bridge, the nickname through the session. */
export function LeaderboardWidget({ pair, symbol }: WidgetProps) {
  const signedIn = isLoggedIn(useSnapshot(auth));
  return <LeaderboardPanel source={market} pair={pair} symbol={symbol} call={signedIn ? authCall : null} />;
}

export const leaderboardWidget: WidgetDef = {
  type: "leaderboard",
  title: msg`Leaderboard`,
  component: LeaderboardWidget,
  feature: "competitions",
  defaultSize: { w: 8, h: 12 },
  minSize: { w: 5, h: 6 },
};

interface PanelProps {
  readonly source: () => LeaderboardSource;
  /** The desk's market, offered as a board next to every market's. */
  readonly pair: string;
  readonly symbol: string;
  /** The signed-in call for the nickname; null for a visitor (no form). */
  readonly call: AccountCall | null;
}

/**
 * A leaderboard (the exchange's `rank:` status keys): traded volume or realized profit in USD over
 * 3 hours, a week or a month, of every market or the desk's. Accounts appear only under a public
 * nickname; a signed-in user sets theirs here and sees their row marked. Re-renders once a second
 * at most; `source` is called inside the effect, so rendering never starts the worker.
 */
export function LeaderboardPanel({ source, pair, symbol, call }: PanelProps) {
  const { t, i18n } = useLingui();
  const titleId = useId();
  const [kind, setKind] = useState<RankingKind>("vol");
  const [timeframe, setTimeframe] = useState<RankingTimeframe>("3h");
  const [scope, setScope] = useState<"all" | "pair">("all");
  const key = boardKey(kind, timeframe, scope === "all" ? "all" : symbol);
  const [nickname, setNickname] = useState<string | null>(null);
  const [health] = useState(() => new HealthStore(() => appScheduler.now()));

  useEffect(() => {
    if (!call) return;
    let live = true;
    void readNickname(call).then((n) => live && setNickname(n));
    return () => {
      live = false;
    };
  }, [call]);

  return (
    <section className={css.root} data-testid="leaderboard" aria-labelledby={titleId}>
      <div className={css.header}>
        <h3 className={css.title} id={titleId}>
          <Trans>Leaderboard</Trans>
        </h3>
        <select
          className={css.select}
          aria-label={t`Board`}
          value={kind}
          onChange={(e) => setKind(e.target.value as RankingKind)}
        >
          <option value="vol">{t`Volume`}</option>
          <option value="plu_diff">{t`Profit`}</option>
        </select>
        <select
          className={css.select}
          aria-label={t`Period`}
          value={timeframe}
          onChange={(e) => setTimeframe(e.target.value as RankingTimeframe)}
        >
          <option value="3h">{t`3 hours`}</option>
          <option value="1w">{t`1 week`}</option>
          <option value="1M">{t`1 month`}</option>
        </select>
        <select
          className={css.select}
          aria-label={t`Markets`}
          value={scope}
          onChange={(e) => setScope(e.target.value === "pair" ? "pair" : "all")}
        >
          <option value="all">{t`All markets`}</option>
          <option value="pair">{pair}</option>
        </select>
        <span className={css.spacer} />
        <FeedBadge store={health} testId="leaderboard-feed" />
      </div>
      <Board
        key={key}
        boardKey={key}
        source={source}
        health={health}
        own={nickname}
        format={(v) => i18n.number(v, { maximumFractionDigits: 2 })}
      />
      {call && nickname !== null && <NicknameForm call={call} current={nickname} onSaved={setNickname} />}
    </section>
  );
}

function Board({
  boardKey: key,
  source,
  own,
  format,
  health,
}: {
  readonly boardKey: string;
  readonly health: HealthStore;
  readonly source: () => LeaderboardSource;
  readonly own: string | null;
  readonly format: (v: number) => string;
}) {
  const { t } = useLingui();
  const youText = (name: string): string => t`${name} (you)`;
  const [store] = useState(() => new LeaderboardStore());
  const snap = useSyncExternalStore(store.subscribe, store.getSnapshot);

  useEffect(() => {
    const controller = new AbortController();
    source()
      .status(
        key,
        (view) => {
          if (controller.signal.aborted) return;
          store.observe(view);
          health.observe(view.status, view.health);
        },
        controller.signal,
      )
      .catch((err: unknown) => log.warn("leaderboard subscription failed", key, err));
    const timers = appScheduler.child();
    timers.every(LEADERBOARD_REFRESH_MS, () => store.tick());
    return () => {
      controller.abort();
      timers.dispose();
    };
  }, [source, key, store, health]);

  const rows = snap.rows;
  return (
    <div className={css.body} tabIndex={0} aria-label={t`Leaderboard`}>
      {rows === null ? (
        <p className={css.note}>{snap.channel === "ERROR" ? t`This board is not available` : t`Loading…`}</p>
      ) : rows.length === 0 ? (
        <p className={css.note}>
          <Trans>No one on this board yet</Trans>
        </p>
      ) : (
        <table className={css.table}>
          <thead>
            <tr>
              <th className={`${css.th} ${css.num}`} scope="col">
                #
              </th>
              <th className={css.th} scope="col">
                <Trans>Trader</Trans>
              </th>
              <th className={`${css.th} ${css.num}`} scope="col">
                USD
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => {
              const mine = own !== null && own !== "" && r.username === own;
              return (
                <tr key={r.rank} className={mine ? css.own : undefined} aria-current={mine ? "true" : undefined}>
                  <td className={`${css.td} ${css.num}`}>{r.rank}</td>
                  <td className={css.td}>{mine ? youText(r.username) : r.username}</td>
                  <td className={`${css.td} ${css.num} ${r.value < 0 ? css.negative : ""}`}>{format(r.value)}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </div>
  );
}

/** Where a signed-in user joins the boards under a nickname, changes it, or leaves them. */
function NicknameForm({
  call,
  current,
  onSaved,
}: {
  readonly call: AccountCall;
  readonly current: string;
  readonly onSaved: (nickname: string) => void;
}) {
  const { t } = useLingui();
  const inputId = useId();
  const [draft, setDraft] = useState(current);
  const [state, setState] = useState<"idle" | "saving" | "saved" | "failed">("idle");
  const trimmed = draft.trim();
  const problem = trimmed === "" ? null : nicknameProblem(trimmed);
  const problemText =
    problem === "length" ? t`3 to 16 characters` : problem === "characters" ? t`Letters, digits, _ and - only` : null;

  const save = (nickname: string) => {
    setState("saving");
    void writeNickname(call, nickname).then((ok) => {
      setState(ok ? "saved" : "failed");
      if (ok) {
        onSaved(nickname);
        setDraft(nickname);
      }
    });
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (problem === null && trimmed !== "") save(trimmed);
  };

  return (
    <form className={css.footer} onSubmit={submit} noValidate>
      <span className={css.form}>
        <label htmlFor={inputId}>
          <Trans>Public nickname</Trans>
        </label>
        <input
          id={inputId}
          className={css.input}
          value={draft}
          maxLength={16}
          autoComplete="nickname"
          aria-invalid={problem !== null}
          aria-describedby={problem !== null ? `${inputId}-problem` : undefined}
          onChange={(e) => {
            setDraft(e.target.value);
            setState("idle");
          }}
        />
        <button
          type="submit"
          className={css.button}
          disabled={state === "saving" || problem !== null || trimmed === ""}
        >
          <Trans>Save</Trans>
        </button>
        {current !== "" && (
          <button type="button" className={css.button} disabled={state === "saving"} onClick={() => save("")}>
            <Trans>Leave boards</Trans>
          </button>
        )}
        <span role="status">
          {problemText !== null ? (
            <span id={`${inputId}-problem`} className={css.negative}>
              {problemText}
            </span>
          ) : state === "saved" ? (
            t`Saved`
          ) : state === "failed" ? (
            <span className={css.negative}>{t`Could not save`}</span>
          ) : null}
        </span>
      </span>
    </form>
  );
}
