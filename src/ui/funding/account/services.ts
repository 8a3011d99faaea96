/**
 * What the funding account widgets call out to: the exchange's authenticated funding calls over
 * REST (offer submit and cancel, close, auto-renew, funding info, the margin-funding ledger) with
 * the session's token, and the FRR and USD price from the market worker's tickers. Production
 * uses the app's; tests inject fakes through `FundingServicesContext`.
 */
import { createContext, useContext } from "react";
import { notificationCodec, parseApiError } from "../../../protocol";
import { auth } from "../../auth";
import { apiUrl, appConfig } from "../../config";
import { log } from "../../log";
import { market } from "../../market/market";
import { exchangeFetch } from "../../shell/api-notice";

/** The exchange's answer to a write: its notification's words, or its refusal (code and message). */
export type CallResult =
  | { readonly ok: true; readonly text: string; readonly data: unknown }
  | { readonly ok: false; readonly code: number | null; readonly text: string };

export interface FundingServices {
  /** POSTs an authenticated call (`/v2/auth/...`) and hands back its JSON answer, or its refusal. */
  readonly call: (path: string, body: Record<string, unknown>) => Promise<CallResult>;
  /** Streams the currency's FRR (a daily fraction; null while unknown) until `signal` aborts. */
  readonly watchFrr: (currency: string, onFrr: (frr: number | null) => void, signal: AbortSignal) => void;
  /** Streams one unit of the currency in USD (1 for USD) until `signal` aborts. */
  readonly watchUsdPrice: (currency: string, onPrice: (usd: number | null) => void, signal: AbortSignal) => void;
}

/**
 * A write's answer is a notification (`[MTS, TYPE, …, STATUS, TEXT]`): SUCCESS is done, anything
 * else a refusal in its words; an error array is a refusal with its code; a read answers data.
 */
export function readAnswer(httpOk: boolean, body: unknown): CallResult {
  const err = parseApiError(body);
  if (err) return { ok: false, code: err.code, text: err.message };
  if (!httpOk) return { ok: false, code: null, text: "" };
  const n = Array.isArray(body) && typeof body[1] === "string" ? notificationCodec.decode(body) : null;
  if (n?.ok) {
    if (n.value.level === "error") return { ok: false, code: n.value.code, text: n.value.message };
    return { ok: true, text: n.value.message, data: n.value.data };
  }
  return { ok: true, text: "", data: body };
}

let defaults: FundingServices | null = null;

function appServices(): FundingServices {
  // Created on first use: market() starts the worker and appConfig() needs the loaded config.
  defaults ??= {
    call: async (path, body) => {
      try {
        const res = await exchangeFetch(apiUrl(appConfig().endpoints, path), {
          method: "POST",
          headers: { "content-type": "application/json", "bfx-token": auth.authToken },
          body: JSON.stringify(body),
        });
        const json: unknown = await res.json().catch(() => null);
        return readAnswer(res.ok, json);
      } catch (err) {
        log.warn("funding call failed", path, err);
        return { ok: false, code: null, text: "" };
      }
    },
    watchFrr: (currency, onFrr, signal) => {
      market()
        .ticker(`f${currency}`, (view) => onFrr(view.ticker && "frr" in view.ticker ? view.ticker.frr : null), signal)
        .catch((err: unknown) => log.warn("funding: FRR subscription failed", currency, err));
    },
    watchUsdPrice: (currency, onPrice, signal) => {
      if (currency === "USD") {
        onPrice(1);
        return;
      }
      market()
        .ticker(`t${currency}USD`, (view) => onPrice(view.ticker?.lastPrice ?? null), signal)
        .catch((err: unknown) => log.warn("funding: price subscription failed", currency, err));
    },
  };
  return defaults;
}

export const FundingServicesContext = createContext<FundingServices | null>(null);

export function useFundingServices(): FundingServices {
  return useContext(FundingServicesContext) ?? appServices();
}
