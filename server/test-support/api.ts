/**
 * For tests and the bench: an API host on a free loopback port with the usual test settings
 * (an origin no browser has, platform operative, the wall clock, the development endpoints on),
 * overridable per test.
 */
import type { AddressInfo } from "node:net";
import { createApiServer, type ApiServer, type ApiServerOptions } from "../api-server.ts";

export async function listenApi(
  o: Pick<ApiServerOptions, "exchange"> & Partial<ApiServerOptions>,
): Promise<{ api: ApiServer; host: string }> {
  const api = createApiServer({
    appOrigin: "http://127.0.0.1:1",
    now: () => Date.now(),
    platformStatus: () => 1,
    devEndpoints: true,
    ...o,
  });
  await new Promise<void>((r) => api.server.listen(0, "127.0.0.1", r));
  return { api, host: `127.0.0.1:${(api.server.address() as AddressInfo).port}` };
}

/** POSTs `body` as JSON to `url`, with a session token when given: the status and the JSON body. */
export async function postJson(url: string, body: unknown, token?: string): Promise<[number, unknown]> {
  const res = await fetch(url, {
    method: "POST",
    headers: token ? { "bfx-token": token } : {},
    body: JSON.stringify(body),
  });
  return [res.status, await res.json()];
}

interface Mail {
  readonly recipient: string;
  readonly subject: string;
  readonly body: string;
}

/** The development outbox of the host at `base` (`http://…`), newest first, for `to` only. */
export async function mailsTo(base: string, to: string): Promise<Mail[]> {
  return ((await (await fetch(`${base}/dev/outbox`)).json()) as Mail[]).filter((m) => m.recipient === to);
}

/** The six-digit code in the newest mail to `to` under `subject` ("" when there is none). */
export async function mailedCode(base: string, to: string, subject: string): Promise<string> {
  const mail = (await mailsTo(base, to)).find((m) => m.subject === subject);
  return /\b(\d{6})\b/.exec(mail?.body ?? "")?.[1] ?? "";
}
