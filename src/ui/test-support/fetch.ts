/** Readers for the requests the code under test makes through a stubbed `fetch`. */

/** The URL a fetch was called with, whichever of its three forms the caller used. */
export function requestUrl(input: RequestInfo | URL): string {
  if (typeof input === "string") return input;
  return input instanceof URL ? input.href : input.url;
}

/** The JSON body of a request (null when it has none); the product sends JSON only as text. */
export function jsonBody(init: RequestInit | undefined): unknown {
  const body = init?.body;
  if (body === undefined || body === null) return null;
  if (typeof body !== "string") throw new Error("expected a JSON text body");
  return JSON.parse(body) as unknown;
}
