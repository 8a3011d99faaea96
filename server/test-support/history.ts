/**
 * For the history tests (ledgers, orders and trades, positions, funding): a venue in memory on the
 * test's clock, its REST API listening for the file's tests, signed calls, the CSV exports, and an
 * RFC 4180 reader for what they stream.
 */
import { afterAll, beforeAll, expect } from "vitest";
import type { ApiServer } from "../api-server.ts";
import { openVenue, type Venue } from "../exchange/venue.ts";
import { listenApi, postJson } from "./api.ts";

export interface HistoryApi extends Venue {
  /** The API's address of a path (for calls a test makes by hand). */
  readonly url: (path: string) => string;
  /** A signed POST: `[status, body]`. */
  readonly post: (path: string, body: unknown, token: string) => Promise<[number, unknown]>;
  /** An export call, answered as a stream (its body is read by the test). */
  readonly exportCsv: (path: string, body: Record<string, unknown>, token: string) => Promise<Response>;
}

/** The venue, listening from the file's first test to after its last. */
export function historyApi(options: Omit<Parameters<typeof openVenue>[0], "dbPath">): HistoryApi {
  const venue = openVenue({ dbPath: ":memory:", ...options });
  let api: ApiServer | null = null;
  let base = "";
  beforeAll(async () => {
    const started = await listenApi({
      exchange: venue.exchange,
      account: venue.gateway,
      limits: { public: 1000, auth: 5000, login: 3 },
    });
    api = started.api;
    base = `http://${started.host}`;
  });
  afterAll(() => api?.close());
  return {
    ...venue,
    url: (path) => base + path,
    post: (path, body, token) => postJson(base + path, body, token),
    exportCsv: (path, body, token) =>
      fetch(base + path, { method: "POST", headers: { "bfx-token": token }, body: JSON.stringify(body) }),
  };
}

/** RFC 4180 records (quoted fields may hold commas, quotes and line breaks). */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let field = "";
  let fields: string[] = [];
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") {
      fields.push(field);
      field = "";
    } else if (c === "\r" && text[i + 1] === "\n") {
      fields.push(field);
      records.push(fields);
      fields = [];
      field = "";
      i++;
    } else field += c;
  }
  expect(field === "" && fields.length === 0, "the file ends with a complete record").toBe(true);
  return records;
}
