/**
 * The exchange's API servers on loopback: REST and WebSocket (`/ws/2`) on the public host and on the
 * authenticated host (which, like the real one, also serves public channels). CORS answers only the
 * app's origin.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { WebSocketServer } from "ws";
import { encodeApiError, ERROR_CODES, INFO_CODES } from "../src/protocol/index.ts";
import type { AccountGateway } from "./exchange/account-gateway.ts";
import { takeAccountOffer } from "./exchange/funding-simulator.ts";
import type { Exchange } from "./exchange/exchange.ts";
import { StreamedBody } from "./exchange/ledger-history.ts";
import { authenticateRest, handleAuthRest } from "./exchange/rest-auth.ts";
import { handlePublicPost } from "./exchange/public-conf.ts";
import { handlePublicRest } from "./exchange/rest-public.ts";
import { Identity } from "./identity.ts";
import { Compliance } from "./compliance.ts";
import { AddressBook } from "./address-book.ts";
import { PasswordReset } from "./password-reset.ts";
import { Signup } from "./signup.ts";
import { Newsletters } from "./newsletters.ts";
import { siteReportsOf } from "./site-reports.ts";
import { handleNotificationHistory } from "./notification-history.ts";
import type { Reply } from "./reply.ts";
import { SECURITY_PATHS, type Client } from "./security.ts";
import { credentialAddressAllowed } from "./store/security-settings.ts";
import { SMS_PATHS } from "./sms.ts";
import { PGP_PATHS } from "./pgp.ts";
import { mailSettled } from "./mail.ts";
import { DEFAULT_LIMITS, ForcedLimits, RateLimiter, type LimitGroup } from "./rate-limit.ts";
import { PublicSocketServer } from "./exchange/ws-public.ts";
import { logError } from "./log.ts";
import { DEFAULT_SOCKET_LIMITS, SocketGuard, type SocketLimits } from "./socket-guard.ts";
import { moveMarket } from "./exchange/derivatives.ts";

export interface ApiServerOptions {
  readonly exchange: Exchange;
  readonly appOrigin: string;
  readonly now: () => number;
  readonly platformStatus: () => number;
  /** Enters (true) or leaves (false) maintenance: `POST /dev/maintenance {on}` when devEndpoints. */
  readonly maintenance?: (on: boolean) => boolean;
  /**
   * The development endpoints (`GET /dev/outbox`, `POST /dev/maintenance`); off (404) unless set.
   * Even on, they refuse what a web page on another site could send (see devRefusal).
   */
  readonly devEndpoints?: boolean;
  readonly heartbeatMs?: number;
  /** How often `freq: "F1"` books get their changes (default 2 s). */
  readonly bookBatchMs?: number;
  /** The country /v2/int/geo/ip reports (loopback has none): GEO_COUNTRY, default GB. */
  readonly geoCountry?: string;
  /** Accounts and trading; without them the host serves public data only. */
  readonly account?: AccountGateway;
  /** Requests per minute per IP and endpoint group (429 beyond). */
  readonly limits?: Readonly<Record<LimitGroup, number>>;
  /** Sockets per address, messages per second, send queue and message size (socket-guard.ts). */
  readonly socketLimits?: Partial<SocketLimits>;
  /**
   * The sign-in state (failed-login counters, the captcha's signing secrets and used solutions,
   * temporary 2FA tokens) to share with the other API host; absent, one of its own over `account`.
   */
  readonly identity?: Identity;
  /**
   * Sign-up and password reset (signup.ts, password-reset.ts), with their per-address counters, to
   * share with the other API host; absent, their own over `identity`.
   */
  readonly opening?: { readonly signup: Signup; readonly reset: PasswordReset };
}

export interface ApiServer {
  readonly server: Server;
  readonly sockets: PublicSocketServer;
  readonly guard: SocketGuard;
  close(): Promise<void>;
}

export function createApiServer(options: ApiServerOptions): ApiServer {
  const rest = handlePublicRest(options.exchange, options.now, options.platformStatus, options.geoCountry ?? "GB");
  const limiter = new RateLimiter(options.limits ?? DEFAULT_LIMITS, options.now);
  // 429s on demand for one test's browser (POST /dev/rate-limit); this host's requests only.
  const forcedLimits = new ForcedLimits();
  const identity = options.identity ?? (options.account ? new Identity(options.account, options.now) : null);
  const opening =
    options.opening ??
    (identity
      ? {
          signup: new Signup(identity.gate, options.now, identity.captcha),
          reset: new PasswordReset(identity.gate.accounts, options.now),
        }
      : null);
  // KYC, the US-person answer and the freeze (compliance.ts); stateless beyond SQLite, so one per server.
  const compliance = options.account ? new Compliance(options.account.accounts, options.now) : null;
  // The withdrawal address book and whitelist (address-book.ts); all its state is in SQLite.
  const addressBook = options.account ? new AddressBook(options.account.accounts, options.now) : null;
  // Newsletters with double opt-in (newsletters.ts); its per-address guest counters are this host's.
  const newsletters = options.account ? new Newsletters(options.account.accounts, options.now) : null;
  // Reports filed from the public site (site-reports.ts); its counters are the database's, shared
  // with the other API host.
  const siteReports = options.account ? siteReportsOf(options.account.accounts.db, options.now) : null;
  const server = createServer((req, res) => safely(res, `${req.method} ${req.url}`, () => handle(req, res))());
  // An idle keep-alive connection is closed by the server after this long. Node's 5 s default races
  // clients that reuse a connection just as it closes (their request dies with ECONNRESET, "socket
  // hang up"); a minute outlasts the pauses of a page or a bot between calls.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  const appOrigins = servedOrigins(options.appOrigin);
  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const origin = req.headers.origin;
    const allowedOrigin = origin !== undefined && appOrigins.has(origin);
    if (allowedOrigin) {
      res.setHeader("access-control-allow-origin", origin);
      res.setHeader("vary", "origin");
      res.setHeader("access-control-allow-headers", "content-type, bfx-token, bfx-nonce, bfx-apikey, bfx-signature");
      res.setHeader("access-control-allow-methods", "GET, POST, OPTIONS");
      // The app reads when it may try again after a 429 (src/ui/shell/api-notice.ts), and the
      // ledger export's file name (src/ui/reports/ledger.ts).
      res.setHeader("access-control-expose-headers", "retry-after, content-disposition");
    }
    if (req.method === "OPTIONS") {
      res.writeHead(allowedOrigin ? 204 : 403).end();
      return;
    }
    const url = new URL(req.url ?? "/", "http://localhost");
    const group: LimitGroup =
      url.pathname === "/v2/login" ? "login" : url.pathname.startsWith("/v2/auth/") ? "auth" : "public";
    const forced =
      options.devEndpoints && !url.pathname.startsWith("/dev/")
        ? forcedLimits.take(String(req.headers["user-agent"] ?? ""), url.pathname, req.socket.remoteAddress ?? null)
        : null;
    if (forced !== null) {
      res.setHeader("retry-after", String(forced));
      sendJson(res, 429, { error: "ERR_RATE_LIMIT" });
      return;
    }
    if (!limiter.allow(req.socket.remoteAddress ?? "?", group)) {
      // Retry-After (seconds): when this address's window ends, so a client can say when to retry.
      res.setHeader("retry-after", String(limiter.retryAfterS()));
      sendJson(res, 429, { error: "ERR_RATE_LIMIT" });
      return;
    }
    if (url.pathname.startsWith("/dev/")) {
      if (!options.devEndpoints) return sendJson(res, 404, encodeApiError(ERROR_CODES.PARAMS, "not found"));
      const refused = devRefusal(req, options.appOrigin);
      if (refused) return sendJson(res, 403, encodeApiError(ERROR_CODES.AUTH_FAILED, refused));
    }
    const client: Client = {
      address: req.socket.remoteAddress ?? null,
      agent: typeof req.headers["user-agent"] === "string" ? req.headers["user-agent"] : "",
      origin: allowedOrigin ? origin : null,
    };
    if (req.method === "POST") {
      void readBody(req).then(
        safely(res, `POST ${url.pathname}`, (raw: string) => {
          if (url.pathname === "/dev/verification" && options.account) {
            // Verification levels are checks a person passes elsewhere; on this machine they are set.
            let b: Record<string, unknown> = {};
            try {
              b = JSON.parse(raw) as Record<string, unknown>;
            } catch {
              // answered as invalid below
            }
            const user = typeof b["login"] === "string" ? options.account.accounts.byLogin(b["login"]) : undefined;
            const level = b["level"];
            if (!user || typeof level !== "number" || !Number.isInteger(level) || level < 0 || level > 3)
              return sendJson(res, 400, encodeApiError(ERROR_CODES.PARAMS, "login or level: invalid"));
            options.account.accounts.db
              .prepare("UPDATE users SET verification_level = ? WHERE id = ?")
              .run(level, user.id);
            return sendJson(res, 200, { login: user.username, level });
          }
          if (compliance && (url.pathname === "/dev/kyc" || url.pathname === "/dev/unfreeze")) {
            const b = jsonObject(raw);
            const r = url.pathname === "/dev/kyc" ? compliance.decide(b) : compliance.unfreeze(b);
            return sendJson(res, r.status, r.body);
          }
          if (url.pathname === "/dev/newsletters/send" && newsletters) {
            // An issue of a campaign to its confirmed subscribers, each mail with its own unsubscribe link.
            const b = jsonObject(raw);
            const campaign = typeof b["campaignId"] === "string" ? b["campaignId"] : "";
            const subject = typeof b["subject"] === "string" && b["subject"] !== "" ? b["subject"] : "Newsletter";
            const text = typeof b["body"] === "string" ? b["body"] : "";
            return sendJson(res, 200, { sent: newsletters.sendIssue(campaign, subject, text) });
          }
          if (url.pathname === "/dev/deposit" && options.account) {
            // A deposit arriving at an address (or a wire with its reference), there being no chain
            // here: pending, then confirmed on the exchange's clock (exchange/deposits.ts).
            const r = options.account.funds.deposits.simulate(jsonObject(raw));
            return sendJson(res, r.status, r.body);
          }
          if (url.pathname === "/dev/funding/take" && options.account) {
            // A simulated borrower (or lender) takes one account offer, for tests (exchange/funding-simulator.ts).
            const id = jsonObject(raw)["id"];
            if (typeof id !== "number" || !Number.isInteger(id) || !takeAccountOffer(options.account.funding, id))
              return sendJson(res, 400, encodeApiError(ERROR_CODES.PARAMS, "id: not an open offer"));
            return sendJson(res, 200, { taken: id });
          }
          if (url.pathname === "/dev/liquidation") {
            // A simulated trader's position liquidated at the market's last price
            // (exchange/liquidations.ts): the `liq:global` row a real one would send.
            const b = jsonObject(raw);
            const symbol = typeof b["symbol"] === "string" ? b["symbol"] : "tBTCUSD";
            const amount = typeof b["amount"] === "number" ? b["amount"] : 0.5;
            const price = options.exchange.markets.get(symbol)?.lastPrice() ?? null;
            if (price === null || !Number.isFinite(amount) || amount === 0 || Math.abs(amount) > 1e6)
              return sendJson(res, 400, encodeApiError(ERROR_CODES.PARAMS, "symbol or amount: invalid"));
            return sendJson(res, 200, options.exchange.liquidations.simulate(symbol, amount, price, options.now()));
          }
          if (url.pathname === "/dev/price") {
            // A simulated spot market (and the perpetuals tracking it) moved to a price at once, for
            // tests that need a mark to cross a liquidation price (exchange/derivatives.ts).
            const b = jsonObject(raw);
            const moved =
              typeof b["symbol"] === "string" && typeof b["price"] === "number"
                ? moveMarket(options.exchange, b["symbol"], b["price"])
                : null;
            if (!moved) return sendJson(res, 400, encodeApiError(ERROR_CODES.PARAMS, "symbol or price: invalid"));
            return sendJson(res, 200, { moved });
          }
          if (url.pathname === "/dev/deriv/funding") {
            // A funding event of a perpetual now, off its clock (exchange/derivatives.ts).
            const symbol = jsonObject(raw)["symbol"];
            if (typeof symbol !== "string" || !options.exchange.derivatives?.fundNow(symbol))
              return sendJson(res, 400, encodeApiError(ERROR_CODES.PARAMS, "symbol: invalid"));
            return sendJson(res, 200, { funded: symbol });
          }
          if (url.pathname === "/dev/rate-limit") {
            const rule = forcedLimits.add(jsonObject(raw));
            if (!rule) return sendJson(res, 400, encodeApiError(ERROR_CODES.PARAMS, "rate-limit rule: invalid"));
            return sendJson(res, 200, { path: rule.path, count: rule.left, retryAfter: rule.retryAfterS });
          }
          if (url.pathname === "/dev/maintenance" && options.maintenance) {
            const on = /"on"\s*:\s*true/.test(raw);
            return sendJson(res, 200, { on, changed: options.maintenance(on) });
          }
          // Trading waits while the platform is in maintenance (reads still answer). Conversions,
          // OTC blocks, position increases and collateral too: with trading halted, the books they
          // are priced from are frozen; and funding, whose offers match as trading does.
          if (
            options.platformStatus() !== 1 &&
            /^\/v2\/auth\/w\/(?:order|transfer|withdraw|int\/movements\/|int\/convert|int\/otc\/|position\/increase|deriv\/|funding\/)/.test(
              url.pathname,
            )
          )
            return sendJson(res, 503, encodeApiError(INFO_CODES.MAINTENANCE_START, "platform: maintenance"));
          const gate = options.account;
          if (!url.pathname.startsWith("/v2/auth/")) {
            let b: unknown;
            try {
              b = JSON.parse(raw === "" ? "{}" : raw);
            } catch {
              return sendJson(res, 400, encodeApiError(ERROR_CODES.PARAMS, "body: invalid"));
            }
            const body = typeof b === "object" && b !== null && !Array.isArray(b) ? (b as Record<string, unknown>) : {};
            if (identity && url.pathname === "/v2/login")
              return answerLater(res, `POST ${url.pathname}`, identity.login(body, client.address, client));
            if (
              identity &&
              (url.pathname === "/v2/login/verify" ||
                url.pathname === "/v2/login/key/options" ||
                url.pathname === "/v2/login/sms")
            )
              return answerLater(res, `POST ${url.pathname}`, identity.signInStep(url.pathname, body, client));
            const signup = opening?.signup.handle(url.pathname, body, client.address);
            if (signup) return answerLater(res, `POST ${url.pathname}`, signup);
            const reset = opening?.reset.handle(url.pathname, body, client.address);
            if (reset) return sendJson(res, reset.status, reset.body);
            const news = newsletters?.handlePublic(url.pathname, body, client.address);
            if (news) return sendJson(res, news.status, news.body);
            const report = siteReports?.handle(url.pathname, body, client.address);
            if (report) return sendJson(res, report.status, report.body);
            const answered = identity?.handle(url.pathname, body, req.socket.remoteAddress ?? null);
            if (answered) return sendJson(res, answered.status, answered.body);
            if (compliance && url.pathname === "/v2/int/account/freeze") {
              const r = compliance.freezeByCode(body);
              return sendJson(res, r.status, r.body);
            }
            const data = handlePublicPost(options.exchange, url.pathname, body);
            if (data !== undefined) return sendJson(res, Array.isArray(data) && data[0] === "error" ? 400 : 200, data);
          }
          // SMS and the PGP key (sms.ts, pgp.ts) are security calls too, with the same rules.
          const securityCalls = !identity
            ? null
            : SMS_PATHS.has(url.pathname)
              ? identity.sms
              : PGP_PATHS.has(url.pathname)
                ? identity.pgp
                : SECURITY_PATHS.has(url.pathname)
                  ? identity.security
                  : null;
          if (gate && securityCalls) {
            // The security page's calls (security.ts): a session's own token only, answered
            // asynchronously (a hardware key's attestation is verified with WebCrypto).
            const auth = authenticateRest(gate, url.pathname, raw, req.headers, options.now(), client.address);
            if (!auth.ok) return sendJson(res, 500, encodeApiError(auth.code, auth.msg));
            let b: unknown;
            try {
              b = JSON.parse(raw === "" ? "{}" : raw);
            } catch {
              return sendJson(res, 400, encodeApiError(ERROR_CODES.PARAMS, "body: invalid"));
            }
            const body = typeof b === "object" && b !== null && !Array.isArray(b) ? (b as Record<string, unknown>) : {};
            return answerLater(
              res,
              `POST ${url.pathname}`,
              securityCalls.handle(auth.userId, auth.token ?? null, auth.caps ?? null, url.pathname, body, client),
            );
          }
          const reply = gate
            ? handleAuthRest(
                gate,
                url.pathname,
                raw,
                req.headers,
                options.now(),
                (u, p, body, caps) =>
                  identity?.handleAuthed(u, p, body, caps) ??
                  compliance?.handleAuthed(u, p, body) ??
                  addressBook?.handle(u, p, body, caps) ??
                  newsletters?.handleAuthed(u, p, body) ??
                  handleNotificationHistory(gate.accounts.db, u, p, body),
                req.socket.remoteAddress ?? null,
              )
            : null;
          if (reply?.body instanceof StreamedBody) return streamBody(res, reply.body);
          if (reply) return sendJson(res, reply.status, reply.body);
          sendJson(res, 404, encodeApiError(ERROR_CODES.PARAMS, "not found"));
        }),
        () => {
          res.setHeader("connection", "close");
          sendJson(res, 413, encodeApiError(ERROR_CODES.PARAMS, "body: too large"));
        },
      );
      return;
    }
    if (url.pathname === "/v1/articles") return sendJson(res, 200, ARTICLES);
    if (options.account && url.pathname === "/api/session/keep-alive") {
      // The session's token comes as the header the app sends, or the cookie a browser session carries.
      const header = req.headers["bfx-token"];
      const cookie = /(?:^|;\s*)bfx_token=([^;]+)/.exec(req.headers.cookie ?? "")?.[1];
      const token = typeof header === "string" ? header : (cookie ?? "");
      // ip_lock (server/security-settings.ts): a session is not kept alive from an address off its list.
      const held = options.account.accounts.checkToken(token, options.now());
      const listed = held.ok && credentialAddressAllowed(options.account.accounts.db, held, client.address);
      const expires = listed ? options.account.accounts.renewToken(token, options.now()) : null;
      return expires === null
        ? sendJson(res, 401, encodeApiError(ERROR_CODES.AUTH_FAILED, "token: invalid"))
        : sendJson(res, 200, { ok: true, expires });
    }
    if (identity && url.pathname === "/v2/int/captcha/altcha/challenge")
      return answerLater(
        res,
        `GET ${url.pathname}`,
        identity.captchaChallenge().then((challenge) => ({ status: 200, body: challenge })),
      );
    // The development mail outbox: where sign-up and verification mails "arrive" on this machine.
    // Mails being encrypted to an account's PGP key (mail.ts) are waited for: the outbox lists them.
    if (identity && url.pathname === "/dev/outbox")
      return answerLater(
        res,
        "GET /dev/outbox",
        mailSettled(identity.gate.accounts.db).then(() => ({ status: 200, body: identity.outbox() })),
      );
    // The development SMS outbox (sms.ts): the texts "sent" on this machine, for one number with `to`.
    if (identity && url.pathname === "/dev/sms")
      return sendJson(res, 200, identity.sms.outbox(url.searchParams.get("to")));
    const answer = rest(url);
    if (answer) return sendJson(res, answer.status, answer.body);
    res
      .writeHead(404, { "content-type": "application/json" })
      .end(JSON.stringify(encodeApiError(ERROR_CODES.PARAMS, "not found")));
  };
  const guard = new SocketGuard({ ...DEFAULT_SOCKET_LIMITS, ...options.socketLimits }, options.now);
  const wss = new WebSocketServer({ noServer: true, maxPayload: guard.limits.maxPayloadBytes });
  server.on("upgrade", (req, socket, head) => {
    const path = new URL(req.url ?? "/", "http://localhost").pathname;
    if (path !== "/ws/2") {
      socket.destroy();
      return;
    }
    if (!guard.admit(req, socket)) return;
    wss.handleUpgrade(req, socket, head, (ws) => {
      guard.watch(ws, req);
      wss.emit("connection", ws, req);
    });
  });
  const sockets = new PublicSocketServer(wss, {
    ...(options.account ? { account: options.account } : {}),
    exchange: options.exchange,
    now: options.now,
    platformStatus: options.platformStatus,
    ...(options.heartbeatMs !== undefined ? { heartbeatMs: options.heartbeatMs } : {}),
    ...(options.bookBatchMs !== undefined ? { bookBatchMs: options.bookBatchMs } : {}),
  });
  return {
    server,
    sockets,
    guard,
    close: () =>
      new Promise((resolve) => {
        sockets.close();
        guard.close();
        wss.close();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * The origins the API answers (CORS) and WebAuthn accepts: the app's, and — when that is a loopback
 * address — the same port under `localhost`. Browsers refuse WebAuthn on an IP address (a relying
 * party must be a domain), so hardware keys need the app opened as `http://localhost:PORT`.
 */
function servedOrigins(appOrigin: string): ReadonlySet<string> {
  const out = new Set([appOrigin]);
  try {
    const url = new URL(appOrigin);
    if (/^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(url.hostname) || url.hostname === "[::1]") {
      url.hostname = "localhost";
      out.add(url.origin);
    }
  } catch {
    // Not a URL: only the text itself matches.
  }
  return out;
}

/** The header a `POST /dev/…` must carry: a cross-site form cannot send it, and a script must preflight. */
export const DEV_HEADER = "x-orderflow-dev";

/**
 * Why a development request is refused, or null. Loopback does not keep other sites out: any page
 * the user opens can send requests here. So a request from another site (an `Origin` other than the
 * app's, or `Sec-Fetch-Site: cross-site`) is refused, and a POST must carry DEV_HEADER — a custom
 * header makes it a non-simple request, which a browser preflights, and the preflight (OPTIONS) is
 * answered only for the app's origin, whose allowed headers do not include it: no page can send
 * it, curl and the tests can. A GET without it still works for the outbox opened in a browser tab.
 * And the Host must be loopback (isLoopbackHost), against DNS rebinding; and so must the peer's
 * address (isLoopbackAddress): a client on the network can send `Host: localhost` when the host
 * listens on more than loopback.
 */
function devRefusal(req: IncomingMessage, appOrigin: string): string | null {
  // DNS rebinding: a page on evil.example whose name later resolves to 127.0.0.1 is same-origin
  // with itself and sends no Origin on a GET, but its Host is its own name: only a loopback name
  // or address is this machine.
  if (!isLoopbackAddress(req.socket.remoteAddress)) return "dev: loopback clients only";
  if (!isLoopbackHost(req.headers.host)) return "dev: host must be a loopback name or address";
  const origin = req.headers.origin;
  if (origin !== undefined && !servedOrigins(appOrigin).has(origin)) return "dev: cross-origin request refused";
  if (req.headers["sec-fetch-site"] === "cross-site") return "dev: cross-site request refused";
  if (req.method === "POST" && req.headers[DEV_HEADER] !== "1") return `dev: ${DEV_HEADER}: 1 header required`;
  return null;
}

/** Whether a peer address is this machine's loopback: 127.0.0.0/8 (IPv4-mapped too) or ::1. */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  return address === "::1" || /^(?:::ffff:)?127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/i.test(address);
}

/** Whether a Host header names this machine: localhost (or a name under it), 127.0.0.0/8 or [::1]. */
export function isLoopbackHost(host: string | undefined): boolean {
  if (!host) return false;
  const name = host.toLowerCase().replace(/:\d+$/, "").replace(/\.$/, "");
  return (
    name === "localhost" ||
    name.endsWith(".localhost") ||
    name === "[::1]" ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(name)
  );
}

/**
 * Wraps a request handler: what it throws is logged and answered with the API's error shape
 * (HTTP 500, `["error", 10001, "internal error"]`) instead of escaping into the process.
 */
function safely<A extends unknown[]>(
  res: ServerResponse,
  where: string,
  fn: (...args: A) => void,
): (...args: A) => void {
  return (...args: A) => {
    try {
      fn(...args);
    } catch (e) {
      logError(where, e);
      if (!res.headersSent) sendJson(res, 500, encodeApiError(ERROR_CODES.GENERIC, "internal error"));
      else res.end();
    }
  };
}

/** Sends an answer computed asynchronously; a rejection is logged and answered as safely() does. */
function answerLater(res: ServerResponse, where: string, reply: Promise<Reply>): void {
  reply.then(
    (r) => sendJson(res, r.status, r.body),
    (e: unknown) => {
      logError(where, e);
      sendJson(res, 500, encodeApiError(ERROR_CODES.GENERIC, "internal error"));
    },
  );
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  if (res.headersSent) return;
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" });
  res.end(JSON.stringify(body));
}

/**
 * Writes a streamed answer (exchange/ledger-history.ts) chunk by chunk, waiting for the socket to
 * drain whenever its buffer is full, so a large export never sits in memory whole. A client that
 * goes away ends the walk; a failure midway cuts the response short (the client sees an incomplete
 * download, never a file that looks whole).
 */
function streamBody(res: ServerResponse, body: StreamedBody): void {
  res.writeHead(200, {
    "content-type": body.contentType,
    "content-disposition": `attachment; filename="${body.filename}"`,
    "cache-control": "no-store",
  });
  const chunks = body.chunks();
  const pump = (): void => {
    try {
      for (;;) {
        if (res.destroyed) return;
        const next = chunks.next();
        if (next.done) {
          res.end();
          return;
        }
        if (!res.write(next.value)) {
          res.once("drain", pump);
          return;
        }
      }
    } catch (err) {
      logError("ledger export", err);
      res.destroy();
    }
  };
  pump();
}

/** Reads a body of at most 64 KiB as text (signatures are checked over the exact text). */
function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let size = 0;
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => {
      size += c.length;
      if (size > 65_536) {
        // Refuse, but let the 413 reach the client: stop keeping the body rather than cutting the
        // socket (the server closes the connection once the reply is sent).
        if (chunks.length > 0) chunks.length = 0;
        reject(new Error("too large"));
        return;
      }
      chunks.push(c);
    });
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

/** The help-centre articles the site lists (GET /v1/articles): the exchange's own short guides. */
const ARTICLES = [
  { id: 1, title: "Paper trading on the embedded exchange", slug: "paper-trading", updated_at: 1_790_000_000 },
  {
    id: 2,
    title: "Order types: limit, market, stop, stop limit, trailing stop, IOC, FOK",
    slug: "order-types",
    updated_at: 1_790_000_000,
  },
  {
    id: 3,
    title: "Order book checksums and why your book is always right",
    slug: "checksums",
    updated_at: 1_790_000_000,
  },
];

/** A request body as an object; anything else (bad JSON, an array) reads as `{}`. */
function jsonObject(raw: string): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(raw);
    return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
