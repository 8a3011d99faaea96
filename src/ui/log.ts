/**
 * The only place the UI writes to the console (lint bans raw `console` elsewhere). The default level
 * is "error" (docs/product-rules.md#constants); developers raise it with
 * `localStorage.logLevel = "debug"`.
 */
export type LogLevel = "debug" | "info" | "warn" | "error" | "silent";

const ORDER: Record<LogLevel, number> = { debug: 0, info: 1, warn: 2, error: 3, silent: 4 };

function readLevel(): LogLevel {
  try {
    const stored = globalThis.localStorage?.getItem("logLevel");
    if (stored && stored in ORDER) return stored as LogLevel;
  } catch {
    // Storage can throw in sandboxed frames; the default applies.
  }
  return "error";
}

const level: LogLevel = readLevel();

function enabled(at: LogLevel): boolean {
  return ORDER[at] >= ORDER[level];
}

/* eslint-disable no-console -- this module is the console's single owner. */
export const log = {
  debug: (...args: unknown[]): void => void (enabled("debug") && console.debug(...args)),
  info: (...args: unknown[]): void => void (enabled("info") && console.info(...args)),
  warn: (...args: unknown[]): void => void (enabled("warn") && console.warn(...args)),
  error: (...args: unknown[]): void => void (enabled("error") && console.error(...args)),
};
/* eslint-enable no-console */
