/**
 * `calc` inputs are limited to 8 per second per socket (docs/protocol.md#account-inputs): a burst beyond that is
 * dropped unanswered, other sockets keep their own allowance, and a second later calcs are
 * answered again.
 */
import { describe, expect, it } from "vitest";
import { demoSession, wait } from "../test-support/session.ts";
import { openVenue } from "./venue.ts";

const venue = openVenue({ dbPath: ":memory:", seed: 41, markets: [{ symbol: "tBTCUSD", start: 30_000 }] });
const s = demoSession({ exchange: venue.exchange, account: venue.gateway });
const CALC = JSON.stringify([0, "calc", null, [["balance"]]]);
const answers = (frames: unknown[][], from: number): number => frames.slice(from).filter((f) => f[1] === "bu").length;

describe("calc throttle", () => {
  it("answers at most 8 calcs a second per socket and drops the rest", async () => {
    const a = await s.socket();
    const b = await s.socket();
    let startA = a.frames.length;
    const startB = b.frames.length;
    for (let i = 0; i < 12; i++) a.ws.send(CALC);
    await wait(200);
    expect(answers(a.frames, startA)).toBe(8);
    // The other socket has its own allowance, and got none of the first one's answers.
    for (let i = 0; i < 3; i++) b.ws.send(CALC);
    await wait(150);
    expect(answers(b.frames, startB)).toBe(3);

    await wait(800);
    startA = a.frames.length;
    a.ws.send(CALC);
    a.ws.send(CALC);
    await wait(150);
    expect(answers(a.frames, startA)).toBe(2);
    a.ws.close();
    b.ws.close();
  });
});
