/**
 * The browser's transport for account-opening.ts: the session's fetch with timeouts (session.ts),
 * made once, on the first page that opens an account or resets a password.
 */
import { appConfig } from "../config";
import { appScheduler } from "../scheduler";
import type { Http } from "./core";
import { browserHttp } from "./session";

let http: Http | null = null;

export function openingHttp(): Http {
  http ??= browserHttp(appConfig().endpoints, appScheduler);
  return http;
}
