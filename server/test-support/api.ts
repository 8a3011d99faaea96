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
