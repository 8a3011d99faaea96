import { describe, expect, it } from "vitest";
import { openVenue } from "../exchange/venue.ts";
import { verifyPassword } from "./accounts.ts";
import { DEMO } from "./seed.ts";

describe("passwords", () => {
  const venue = openVenue({ dbPath: ":memory:", seed: 21, markets: [{ symbol: "tBTCUSD", start: 30_000 }] });
  const demo = venue.seeded as number;

  it("stores passwords as scrypt hashes, never the password", () => {
    const row = venue.db.prepare("SELECT password_hash FROM users WHERE id = ?").get(demo) as { password_hash: string };
    expect(row.password_hash).toMatch(/^scrypt\$16384\$8\$1\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
    expect(row.password_hash).not.toContain(DEMO.password);
    expect(verifyPassword(DEMO.password, row.password_hash)).toBe(true);
    expect(verifyPassword(`${DEMO.password}x`, row.password_hash)).toBe(false);
  });
});
