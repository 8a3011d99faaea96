/**
 * Serves the built app (dist/) on loopback: hashed assets cached forever, everything else
 * revalidated; SPA fallback to index.html for page paths; /config.json from the environment; a
 * strict CSP and the usual security headers on every response. API paths never fall back to the
 * app: until the embedded exchange answers them they are a JSON 404, so the client sees a real
 * failure instead of HTML.
 */
import { createReadStream } from "node:fs";
import { readFile, stat } from "node:fs/promises";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { extname, join, normalize, sep } from "node:path";
import { encodeApiError, ERROR_CODES } from "../src/protocol/index.ts";
import { connectSources, type ServedConfig } from "./config.ts";

const MIME: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
  ".txt": "text/plain; charset=utf-8",
};

/** Paths that belong to the API, never to the app shell. */
export function isApiPath(path: string): boolean {
  return /^\/(v1|v2|ws)(\/|$)/.test(path) || path.startsWith("/api/session/") || path === "/api/sales";
}

export function securityHeaders(config: ServedConfig): Record<string, string> {
  const csp = [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src ${connectSources(config).join(" ")}`,
    "worker-src 'self' blob:",
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
  return {
    "content-security-policy": csp,
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "referrer-policy": "strict-origin-when-cross-origin",
    "permissions-policy": "camera=(), microphone=(), geolocation=(), payment=()",
    "cross-origin-opener-policy": "same-origin",
  };
}

export interface StaticServerOptions {
  readonly root: string;
  readonly config: ServedConfig;
}

export function createAppServer(options: StaticServerOptions): Server {
  const headers = securityHeaders(options.config);
  const configBody = JSON.stringify(options.config);
  const root = normalize(options.root);

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
    const url = new URL(req.url ?? "/", "http://localhost");
    let path: string;
    try {
      path = decodeURIComponent(url.pathname);
    } catch {
      // A malformed escape ("%E0%A4%A") is the client's mistake, not the server's.
      res.writeHead(400, { "content-type": "text/plain; charset=utf-8" }).end("Bad request: malformed address");
      return;
    }
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.writeHead(isApiPath(path) ? 404 : 405, { "content-type": "application/json" });
      res.end(JSON.stringify(encodeApiError(ERROR_CODES.PARAMS, "not found")));
      return;
    }
    if (path === "/config.json") {
      res.writeHead(200, { "content-type": MIME[".json"] ?? "", "cache-control": "no-store" });
      res.end(configBody);
      return;
    }
    if (isApiPath(path)) {
      res.writeHead(404, { "content-type": "application/json" });
      res.end(JSON.stringify(encodeApiError(ERROR_CODES.PARAMS, "not found")));
      return;
    }
    const file = normalize(join(root, path));
    if (!file.startsWith(root + sep) && file !== root) {
      res.writeHead(400).end();
      return;
    }
    const info = await stat(file).catch(() => null);
    if (info?.isFile()) {
      const ext = extname(file);
      res.writeHead(200, {
        "content-type": MIME[ext] ?? "application/octet-stream",
        "content-length": info.size,
        "cache-control": path.startsWith("/assets/") ? "public, max-age=31536000, immutable" : "no-cache",
      });
      if (req.method === "HEAD") res.end();
      else createReadStream(file).pipe(res);
      return;
    }
    // A path with a file extension that does not exist is a real 404 (page data included).
    if (extname(path) !== "" && !path.endsWith("/index.html")) {
      res.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("Not found");
      return;
    }
    const html = await readFile(join(root, "index.html"));
    res.writeHead(200, { "content-type": MIME[".html"] ?? "", "cache-control": "no-cache" });
    res.end(req.method === "HEAD" ? undefined : html);
  }

  return createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain; charset=utf-8" });
      res.end("Internal error");
    });
  });
}
