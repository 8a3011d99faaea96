/**
 * Serves the built app (dist/) on loopback: hashed assets cached forever, everything else
 * revalidated; /config.json from the environment; a strict CSP and the usual security headers on
 * every response. API paths never fall back to the app: until the embedded exchange answers them
 * they are a JSON 404, so the client sees a real failure instead of HTML.
 *
 * Page paths (docs/product-rules.md#public-pages): a published page is its prerendered HTML in the
 * locale `?locale=` names (English without one); a path no route of the app matches is the
 * prerendered not-found page with status 404; any other route is the app shell (index.html). The
 * sitemap and robots.txt are the build's. In what the build prerendered, the origin token becomes
 * the site's public origin.
 */
import { createReadStream } from "node:fs";
import { readFile, stat } from "node:fs/promises";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { extname, join, normalize, relative, sep } from "node:path";
import {
  encodeApiError,
  ERROR_CODES,
  localeFromSearch,
  notFoundFile,
  ORIGIN_TOKEN,
  prerenderFile,
  variantConfig,
} from "../src/protocol/index.ts";
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
  ".xml": "application/xml; charset=utf-8",
  ".webmanifest": "application/manifest+json; charset=utf-8",
};

/** Where the build writes its prerendered files (scripts/prerender-plugin.ts). */
const PRERENDER_DIR = "prerender";

/**
 * A page path as the app's router reads it (src/ui/routing/paths.ts normalizePath): repeated
 * slashes folded, `/index.html` is the folder, one trailing slash dropped.
 */
export function pagePath(pathname: string): string {
  let p = pathname.replace(/\/{2,}/g, "/");
  if (p.endsWith("/index.html")) p = p.slice(0, -"index.html".length);
  if (p.length > 1 && p.endsWith("/")) p = p.slice(0, -1);
  return p;
}

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
  /**
   * The site's public origin, written into the prerendered pages' absolute links (canonical,
   * hreflang, Open Graph) and the sitemap. Defaults to the app's own origin as `main.ts` serves it.
   */
  readonly siteOrigin?: string;
}

interface RoutePattern {
  readonly pattern: RegExp;
  readonly feature?: string;
}

/** The app's route patterns as the build wrote them; null without a prerendered build (SPA fallback). */
async function readRoutePatterns(root: string): Promise<RoutePattern[] | null> {
  const text = await readFile(join(root, PRERENDER_DIR, "routes.json"), "utf8").catch(() => null);
  if (text === null) return null;
  const rows = JSON.parse(text) as { source: string; feature?: string }[];
  return rows.map((r) => ({ pattern: new RegExp(r.source, "i"), ...(r.feature ? { feature: r.feature } : {}) }));
}

export function createAppServer(options: StaticServerOptions): Server {
  const headers = securityHeaders(options.config);
  const configBody = JSON.stringify(options.config);
  const root = normalize(options.root);
  const disabled: ReadonlySet<string> = variantConfig(options.config.platform).disabledFeatures;
  let routes: Promise<RoutePattern[] | null> | null = null;
  const knownPath = async (path: string): Promise<boolean> => {
    routes ??= readRoutePatterns(root);
    const patterns = await routes;
    if (patterns === null) return true;
    // A route of a feature this platform variant does not have does not exist here (routesFor).
    return patterns.some((r) => r.pattern.test(path) && (r.feature === undefined || !disabled.has(r.feature)));
  };
  /** A prerendered file with the site's origin in place of the token; null when the build has none. */
  const prerendered = async (file: string): Promise<string | null> => {
    const text = await readFile(join(root, PRERENDER_DIR, file), "utf8").catch(() => null);
    return text === null ? null : text.replaceAll(ORIGIN_TOKEN, options.siteOrigin ?? "");
  };
  const send = (res: ServerResponse, req: IncomingMessage, status: number, type: string, body: string): void => {
    res.writeHead(status, { "content-type": type, "cache-control": "no-cache" });
    res.end(req.method === "HEAD" ? undefined : body);
  };

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
    if (path === "/sitemap.xml" || path === "/robots.txt") {
      const body = await prerendered(path.slice(1));
      if (body !== null) return send(res, req, 200, MIME[extname(path)] ?? "", body);
    }
    const file = normalize(join(root, path));
    if (!file.startsWith(root + sep) && file !== root) {
      res.writeHead(400).end();
      return;
    }
    // The prerendered files are served through their pages (with the origin), never as they are.
    // Judged on the resolved file, not the address: `/%2Fprerender/…` and `/x/..%2F%2Fprerender/…`
    // name the same files.
    const raw = relative(root, file).split(sep)[0] === PRERENDER_DIR;
    const info = raw ? null : await stat(file).catch(() => null);
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
    const page = pagePath(path);
    const locale = localeFromSearch(url.search) ?? "en";
    const html = MIME[".html"] ?? "";
    if (!raw) {
      const published = await prerendered(prerenderFile(page, locale));
      if (published !== null) return send(res, req, 200, html, published);
    }
    if (raw || !(await knownPath(page))) {
      const notFound = (await prerendered(notFoundFile(locale))) ?? (await readFile(join(root, "index.html"), "utf8"));
      return send(res, req, 404, html, notFound);
    }
    send(res, req, 200, html, await readFile(join(root, "index.html"), "utf8"));
  }

  return createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain; charset=utf-8" });
      res.end("Internal error");
    });
  });
}
