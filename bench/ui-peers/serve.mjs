/**
 * A tiny static file server for the built side-by-side page: same origin for the page, its chunks
 * and its module worker, with the content types a browser insists on for module scripts.
 */
import { createReadStream, statSync } from "node:fs";
import { createServer } from "node:http";
import { extname, join, normalize, sep } from "node:path";

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".woff2": "font/woff2",
  ".wasm": "application/wasm",
};

export function contentType(path) {
  return TYPES[extname(path).toLowerCase()] ?? "application/octet-stream";
}

/** The file under `dir` a request path names, or null when it names none (or leaves `dir`). */
export function fileFor(dir, urlPath) {
  let rel;
  try {
    rel = decodeURIComponent(urlPath.split("?")[0] ?? "/");
  } catch {
    return null;
  }
  if (rel.endsWith("/")) rel += "index.html";
  const path = normalize(join(dir, rel));
  if (path !== dir && !path.startsWith(dir.endsWith(sep) ? dir : dir + sep)) return null;
  try {
    return statSync(path).isFile() ? path : null;
  } catch {
    return null;
  }
}

/** Serves `dir` on 127.0.0.1:`port` (0: any free port); resolves with its base URL and a close(). */
export function serveStatic(dir, port = 0) {
  const server = createServer((req, res) => {
    const path = req.method === "GET" || req.method === "HEAD" ? fileFor(dir, req.url ?? "/") : null;
    if (!path) {
      res.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("not found");
      return;
    }
    res.writeHead(200, { "content-type": contentType(path), "cache-control": "no-store" });
    if (req.method === "HEAD") res.end();
    else createReadStream(path).pipe(res);
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => {
      const address = server.address();
      const at = typeof address === "object" && address ? address.port : port;
      resolve({
        url: `http://127.0.0.1:${at}`,
        close: () => new Promise((done) => server.close(() => done(undefined))),
      });
    });
  });
}
