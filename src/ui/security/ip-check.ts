/**
 * The browser's IP address check for the address lock (src/protocol `IpCheck`), the counterpart of
 * node's `net.isIP` on the exchange: both must accept the same text (ip-check.test.ts compares
 * them on generated input). The browser has no `isIP`, so the WHATWG URL parser, which every
 * browser keeps to the standard, does the parsing; nothing here parses an address by hand.
 */

/** Characters an IPv4 or IPv6 address may hold; anything else (spaces, brackets, `/`, `%`) is not one. */
const ADDRESS_CHARS = /^[0-9a-fA-F:.]+$/;
/** What the URL parser writes for an IPv4 host: four decimal parts. */
const DOTTED_QUAD = /^\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}$/;

/** 4 or 6 for an IPv4 or IPv6 address written alone, else 0 (as `net.isIP`). */
export function browserIsIp(text: string): number {
  if (!ADDRESS_CHARS.test(text)) return 0;
  if (text.includes(":")) {
    try {
      new URL(`http://[${text}]/`);
      return 6;
    } catch {
      return 0;
    }
  }
  try {
    // The URL parser also reads shorthand (`127.1`), octal (`010.0.0.1`) and hexadecimal forms,
    // which net.isIP refuses: only text the parser writes back unchanged is a plain address.
    const host = new URL(`http://${text}/`).hostname;
    return host === text && DOTTED_QUAD.test(host) ? 4 : 0;
  } catch {
    return 0;
  }
}
