/**
 * Signed sign-in over real WebSocket and HTTP: a captured `auth` frame or signed REST call cannot be
 * replayed with another nonce, and nobody without the key's secret can move its nonce (which would
 * lock the owner out).
 */
import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import WebSocket from "ws";
import { MAX_NONCE_LEAD_US } from "../store/accounts.ts";
import { demoSession, keyAuth, signedPost, wait } from "../test-support/session.ts";
import { openVenue } from "./venue.ts";
import { messageText } from "../ws-text.ts";

const venue = openVenue({ dbPath: ":memory:", seed: 31, markets: [{ symbol: "tBTCUSD", start: 30_000 }] });
const demo = venue.seeded as number;
const s = demoSession({ exchange: venue.exchange, account: venue.gateway });

/** The first `auth` event a socket answers with `fields`. */
async function authReply(fields: Record<string, unknown>): Promise<Record<string, unknown>> {
  const ws = new WebSocket(`ws://${s.host}/ws/2`);
  const events: Record<string, unknown>[] = [];
  ws.on("message", (d) => {
    const f = JSON.parse(messageText(d)) as unknown;
    if (typeof f === "object" && f !== null && !Array.isArray(f)) events.push(f as Record<string, unknown>);
  });
  await new Promise((r) => ws.once("open", r));
  ws.send(JSON.stringify({ event: "auth", ...fields }));
  const t0 = Date.now();
  while (!events.some((e) => e["event"] === "auth") && Date.now() - t0 < 3000) await wait(10);
  ws.close();
  const reply = events.find((e) => e["event"] === "auth");
  if (!reply) throw new Error("no auth reply");
  return reply;
}

const sign = (secret: string, text: string): string => createHmac("sha384", secret).update(text).digest("hex");

describe("socket auth signed with an API key", () => {
  const key = venue.accounts.createApiKey(demo, "bot", ["a", "o", "w"], Date.now(), { key: "k-as1", secret: "s-as1" });

  it("accepts the owner's frame once and refuses it replayed with a larger nonce", async () => {
    const captured = keyAuth(key);
    expect((await authReply(captured))["status"]).toBe("OK");
    // The same payload and signature with only the nonce raised: the signature no longer covers it.
    const replay = { ...captured, authNonce: (captured["authNonce"] as number) + 1_000 };
    const refused = await authReply(replay);
    expect(refused["status"]).toBe("FAILED");
    expect(refused["code"]).toBe(10100);
    // Nor can the payload be rewritten to match, without the secret.
    const rewritten = { ...replay, authPayload: `AUTH${replay.authNonce}` };
    expect((await authReply(rewritten))["status"]).toBe("FAILED");
  });

  it("cannot be pinned out of reach: a replay at 2^53 − 1 leaves the owner signing in", async () => {
    const captured = keyAuth(key);
    const pinned = await authReply({ ...captured, authNonce: Number.MAX_SAFE_INTEGER });
    expect(pinned["status"]).toBe("FAILED");
    // The owner, with the next ordinary nonce, still gets in over the socket and over REST.
    expect((await authReply(keyAuth(key)))["status"]).toBe("OK");
    const [status] = await signedPost(s.host, key, "/v2/auth/r/wallets");
    expect(status).toBe(200);
  });

  it("refuses even the owner's own signature on a nonce far past the clock, without moving the nonce", async () => {
    const far = Date.now() * 1000 + MAX_NONCE_LEAD_US + 60_000_000;
    const payload = `AUTH${far}`;
    const reply = await authReply({
      apiKey: key.key,
      authNonce: far,
      authPayload: payload,
      authSig: sign(key.secret, payload),
    });
    expect(reply["status"]).toBe("FAILED");
    expect(reply["code"]).toBe(10114);
    expect((await authReply(keyAuth(key)))["status"]).toBe("OK");
  });

  it("refuses a payload that is not exactly AUTH + nonce, and a nonce that is not decimal", async () => {
    // Fresh nonces well past every earlier one, so only the payload's form can refuse them.
    const n = Date.now() * 1000 + 100_000;
    for (const [payload, nonce] of [
      [`AUTH${n}extra`, n],
      [`AUTH`, n + 1],
      [`AUTH0x10`, "0x10"],
      [`AUTH 12`, " 12"],
    ] as const) {
      const reply = await authReply({
        apiKey: key.key,
        authNonce: nonce,
        authPayload: payload,
        authSig: sign(key.secret, payload),
      });
      expect(reply["status"], payload).toBe("FAILED");
    }
  });
});

describe("REST signed with an API key", () => {
  const key = venue.accounts.createApiKey(demo, "rest", ["a", "w"], Date.now(), { key: "k-as2", secret: "s-as2" });

  async function post(headers: Record<string, string>, body = "{}"): Promise<[number, unknown]> {
    const res = await fetch(`http://${s.host}/v2/auth/r/wallets`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body,
    });
    return [res.status, await res.json()];
  }

  it("refuses a captured call sent again with a larger nonce", async () => {
    const n = Date.now() * 1000 + 10;
    const sig = sign(key.secret, `/api/v2/auth/r/wallets${n}{}`);
    const [ok] = await post({ "bfx-apikey": key.key, "bfx-nonce": String(n), "bfx-signature": sig });
    expect(ok).toBe(200);
    const [replayed, body] = await post({ "bfx-apikey": key.key, "bfx-nonce": String(n + 1), "bfx-signature": sig });
    expect(replayed).not.toBe(200);
    expect(body).toEqual(["error", 10100, "apikey: invalid"]);
  });

  it("refuses hex, padded or exponent nonces even when signed", async () => {
    for (const nonce of ["0x1fffffffffffff", " 99999999999999", "9e15"]) {
      const sig = sign(key.secret, `/api/v2/auth/r/wallets${nonce}{}`);
      const [status] = await post({ "bfx-apikey": key.key, "bfx-nonce": nonce, "bfx-signature": sig });
      expect(status, nonce).not.toBe(200);
    }
    // The refusals did not move the nonce: the next ordinary one still works.
    const n = Date.now() * 1000 + 1_000;
    const [status] = await post({
      "bfx-apikey": key.key,
      "bfx-nonce": String(n),
      "bfx-signature": sign(key.secret, `/api/v2/auth/r/wallets${n}{}`),
    });
    expect(status).toBe(200);
  });
});
