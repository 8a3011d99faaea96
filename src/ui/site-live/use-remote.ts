/**
 * A page's one-off read of the exchange, as React state: "loading" on the first render (and in
 * the prerendered HTML, since the call runs in an effect), then "ready" or "error"; `retry` calls
 * again. A page that unmounts aborts its call, and an answer that arrives late is dropped. The
 * answer is stored with the request it answers, so a new `key` reads as loading at once.
 */
import { useCallback, useEffect, useState } from "react";
import { log } from "../log";

export type Remote<T> =
  { readonly status: "loading" } | { readonly status: "error" } | { readonly status: "ready"; readonly value: T };

const LOADING = { status: "loading" } as const;

export function useRemote<T>(load: (signal: AbortSignal) => Promise<T>, key = ""): [Remote<T>, () => void] {
  const [attempt, setAttempt] = useState(0);
  const request = `${attempt}|${key}`;
  const [answer, setAnswer] = useState<{ readonly request: string; readonly state: Remote<T> } | null>(null);
  useEffect(() => {
    const ctl = new AbortController();
    load(ctl.signal).then(
      (value) => {
        if (!ctl.signal.aborted) setAnswer({ request, state: { status: "ready", value } });
      },
      (err: unknown) => {
        if (ctl.signal.aborted) return;
        log.warn("site data failed", err);
        setAnswer({ request, state: { status: "error" } });
      },
    );
    return () => ctl.abort();
    // `load` is a module function (or reads only `key`); `request` says when to read again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [request]);
  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  return [answer?.request === request ? answer.state : LOADING, retry];
}
