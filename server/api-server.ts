/**
 * The exchange's API servers on loopback: REST and WebSocket (`/ws/2`) on the public host and on the
 * authenticated host (which, like the real one, also serves public channels). CORS answers only the
 * app's origin.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { WebSocketServer } from "ws";
import type { AccountGateway } from "./exchange/account-gateway.ts";
import type { Exchange } from "./exchange/exchange.ts";
import { handlePublicRest } from "./exchange/rest-public.ts";
import { PublicSocketServer } from "./exchange/ws-public.ts";

export interface ApiServerOptions {
  readonly exchange: Exchange;
  readonly appOrigin: string;
  readonly now: () => number;
  readonly platformStatus: () => number;
  readonly heartbeatMs?: number;
  /** The country /v2/int/geo/ip reports (loopback has none): GEO_COUNTRY, default GB. */
  readonly geoCountry?: string;
  /** Accounts and trading; without them the host serves public data only. */
  readonly account?: AccountGateway;
}

export interface ApiServer {
  readonly server: Server;
  readonly sockets: PublicSocketServer;
  close(): Promise<void>;
}

export function createApiServer(options: ApiServerOptions): ApiServer {
  const rest = handlePublicRest(options.exchange, options.now, options.platformStatus, options.geoCountry ?? "GB");
  const server = createServer((req, res) => {
    const origin = req.headers.origin;
    if (origin === options.appOrigin) {
      res.setHeader("access-control-allow-origin", origin);
      res.setHeader("vary", "origin");
      res.setHeader("access-control-allow-headers", "content-type, bfx-token, bfx-nonce, bfx-apikey, bfx-signature");
      res.setHeader("access-control-allow-methods", "GET, POST, OPTIONS");
    }
    if (req.method === "OPTIONS") {
      res.writeHead(origin === options.appOrigin ? 204 : 403).end();
      return;
    }
    const url = new URL(req.url ?? "/", "http://localhost");
    if (req.method === "POST") {
      void readJson(req).then(
        (body) => {
          if (url.pathname === "/v2/login" && options.account) {
            const b = (body ?? {}) as Record<string, unknown>;
            const user =
              typeof b["login"] === "string" && typeof b["password"] === "string"
                ? options.account.accounts.login(b["login"], b["password"])
                : null;
            if (!user) return sendJson(res, 400, ["error", 10100, "login: invalid"]);
            return sendJson(res, 200, [options.account.accounts.issueToken(user.id, options.now())]);
          }
          sendJson(res, 404, ["error", 10020, "not found"]);
        },
        () => sendJson(res, 400, ["error", 10020, "body: invalid"]),
      );
      return;
    }
    try {
      if (!rest(req, res, url)) {
        res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify(["error", 10020, "not found"]));
      }
    } catch {
      if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
      res.end(JSON.stringify(["error", 10001, "internal error"]));
    }
  });
  const wss = new WebSocketServer({ noServer: true, maxPayload: 1024 * 1024 });
  server.on("upgrade", (req, socket, head) => {
    const path = new URL(req.url ?? "/", "http://localhost").pathname;
    if (path !== "/ws/2") {
      socket.destroy();
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit("connection", ws, req));
  });
  const sockets = new PublicSocketServer(wss, {
    ...(options.account ? { account: options.account } : {}),
    exchange: options.exchange,
    now: options.now,
    platformStatus: options.platformStatus,
    ...(options.heartbeatMs !== undefined ? { heartbeatMs: options.heartbeatMs } : {}),
  });
  return {
    server,
    sockets,
    close: () =>
      new Promise((resolve) => {
        sockets.close();
        wss.close();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  if (res.headersSent) return;
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" });
  res.end(JSON.stringify(body));
}

/** Reads a JSON body of at most 64 KiB; rejects anything larger or malformed. */
function readJson(req: IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    let size = 0;
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => {
      size += c.length;
      if (size > 65_536) {
        reject(new Error("too large"));
        req.destroy();
        return;
      }
      chunks.push(c);
    });
    req.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      try {
        resolve(text === "" ? {} : JSON.parse(text));
      } catch (err) {
        reject(err instanceof Error ? err : new Error(String(err)));
      }
    });
    req.on("error", reject);
  });
}
