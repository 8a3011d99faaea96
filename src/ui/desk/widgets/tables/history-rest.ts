/**
 * The REST transport of the order-history pager: `POST {authHost}/v2/auth/r/orders[/{symbol}]/hist`
 * with the session's `bfx-token` header. Errors come back as `["error", code, "message"]` (HTTP 500)
 * and are turned into a rejection with the exchange's message.
 */
import { parseApiError } from "../../../../protocol";
import type { Endpoints } from "../../../config";
import { apiUrl } from "../../../config";
import { exchangeFetch } from "../../../shell/api-notice";
import { historyBody, historyPath, type HistoryFetch } from "./history-pager";

export function restHistoryFetch(
  endpoints: Endpoints,
  token: () => string,
  fetchImpl: typeof fetch = (input, init) => exchangeFetch(input, init),
): HistoryFetch {
  return async (request) => {
    const res = await fetchImpl(apiUrl(endpoints, historyPath(request.symbol)), {
      method: "POST",
      headers: { "content-type": "application/json", "bfx-token": token() },
      body: JSON.stringify(historyBody(request)),
    });
    const body: unknown = await res.json().catch(() => null);
    const err = parseApiError(body);
    if (err) throw new Error(err.message !== "" ? err.message : String(err.code));
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    return body;
  };
}
