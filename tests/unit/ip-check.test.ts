/**
 * The browser's address check agrees with node's `net.isIP`, which the exchange uses: on generated
 * IPv4 and IPv6 addresses (plain and in the extended forms both must refuse), on random text over
 * an address's alphabet, and on the edge cases that tell URL parsing from address parsing. Zones
 * (`%eth0`) are left out: `net.isIP` accepts them and the shared rule refuses them before either.
 */
import { isIP } from "node:net";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { browserIsIp } from "../../src/ui/security/ip-check";

const agree = (text: string): void => {
  expect(browserIsIp(text), JSON.stringify(text)).toBe(isIP(text));
};

describe("browserIsIp", () => {
  it("matches net.isIP on the edge cases", () => {
    for (const text of [
      "1.2.3.4",
      "255.255.255.255",
      "0.0.0.0",
      "256.1.1.1",
      "1.2.3.256",
      "1.2.3",
      "127.1",
      "01.2.3.4",
      "0x7f.0.0.1",
      "1.2.3.4.",
      ".1.2.3.4",
      "::",
      "::1",
      "::ffff:1.2.3.4",
      "2001:db8::1",
      "2001:DB8::1",
      "1:2:3:4:5:6:7:8",
      "1:2:3:4:5:6:7:8:9",
      "1::2::3",
      ":::",
      "[::1]",
      "::1/64",
      " ::1",
      "1.2.3.4 ",
      "::\n1",
      "example.com",
      "",
      "abc",
    ])
      agree(text);
  });

  it("matches net.isIP on generated addresses and text", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.ipV4(),
          fc.ipV4Extended(),
          fc.ipV6(),
          fc.string({ unit: fc.constantFrom(..."0123456789abcdefABCDEF:.x/ []"), maxLength: 24 }),
        ),
        (text) => {
          expect(browserIsIp(text), JSON.stringify(text)).toBe(isIP(text));
        },
      ),
      { numRuns: 3000 },
    );
  });
});
