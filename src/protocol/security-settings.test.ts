/**
 * The security settings' shared rules (security-settings.ts): how stored values read, which
 * changes loosen protection (they wait for a mailed confirmation) and how an address list is
 * checked. The IP check is injected; here a small stand-in that knows a few literal addresses, so
 * the rules are tested apart from any parser.
 */
import { describe, expect, it } from "vitest";
import {
  changeLoosens,
  checkSettingValue,
  IP_LOCK_MAX,
  parseIpLock,
  SECURITY_CHANGE_NAMES,
  SECURITY_DEFAULTS,
  settingOn,
} from "./security-settings";

const KNOWN: Record<string, number> = { "1.2.3.4": 4, "5.6.7.8": 4, "::1": 6, "2001:db8::1": 6 };
const isIp = (text: string): number => KNOWN[text] ?? (/^10\.0\.\d+\.\d+$/.test(text) ? 4 : 0);

describe("settingOn", () => {
  it('reads switches on at "1", single login on at a stored "0", and the lock on with any list', () => {
    expect(settingOn("email_on_login", "1")).toBe(true);
    expect(settingOn("email_on_login", "0")).toBe(false);
    expect(settingOn("nosinglelogin", "0")).toBe(true);
    expect(settingOn("nosinglelogin", "1")).toBe(false);
    expect(settingOn("ip_lock", "0")).toBe(false);
    expect(settingOn("ip_lock", "1.2.3.4")).toBe(true);
  });

  it("has a default for every setting a change may name", () => {
    for (const name of SECURITY_CHANGE_NAMES) expect(SECURITY_DEFAULTS[name]).toMatch(/^[01]$/);
  });
});

describe("changeLoosens", () => {
  it("holds every weakening and lets every strengthening through", () => {
    const loosening: [string, string, string][] = [
      ["keep_session_alive", "0", "1"],
      ["email_on_login", "1", "0"],
      ["nosinglelogin", "0", "1"],
      ["no_enforce_withdrawal_check", "0", "1"],
      ["lock_on_new_ip", "1", "0"],
      ["two_fa_fallback", "1", "0"],
      ["two_fa_fallback", "0", "1"],
      ["ip_lock", "1.2.3.4", "0"],
      ["ip_lock", "1.2.3.4", "1.2.3.4,5.6.7.8"],
      ["ip_lock", "1.2.3.4", "5.6.7.8"],
      // Turning the lock on names addresses: set at once, a stolen session could lock the owner out.
      ["ip_lock", "0", "1.2.3.4"],
    ];
    for (const [name, from, to] of loosening)
      expect(changeLoosens(name as never, from, to), `${name} ${from}→${to}`).toBe(true);
    const tightening: [string, string, string][] = [
      ["keep_session_alive", "1", "0"],
      ["email_on_login", "0", "1"],
      ["nosinglelogin", "1", "0"],
      ["no_enforce_withdrawal_check", "1", "0"],
      ["lock_on_new_ip", "0", "1"],
      ["ip_lock", "1.2.3.4,5.6.7.8", "1.2.3.4"],
      ["email_on_login", "1", "1"],
    ];
    for (const [name, from, to] of tightening)
      expect(changeLoosens(name as never, from, to), `${name} ${from}→${to}`).toBe(false);
  });
});

describe("parseIpLock and checkSettingValue", () => {
  it("takes addresses separated by commas, spaces or lines, lower-cased, once each", () => {
    expect(parseIpLock(" 1.2.3.4,\n::1  1.2.3.4\t2001:DB8::1 ", isIp)).toEqual({
      ok: true,
      list: ["1.2.3.4", "::1", "2001:db8::1"],
    });
  });

  it("refuses anything not an address, a zone, nothing at all, or too many", () => {
    expect(parseIpLock("1.2.3.4 nope", isIp)).toEqual({ ok: false, problem: { kind: "invalid", entry: "nope" } });
    expect(parseIpLock("::1%lo", isIp)).toEqual({ ok: false, problem: { kind: "invalid", entry: "::1%lo" } });
    expect(parseIpLock(" ,\n", isIp)).toEqual({ ok: false, problem: { kind: "empty" } });
    const many = Array.from({ length: IP_LOCK_MAX + 1 }, (_, i) => `10.0.0.${i}`).join(" ");
    expect(parseIpLock(many, isIp)).toEqual({ ok: false, problem: { kind: "too-many" } });
  });

  it('takes "1"/"0" for a switch, "0" or a list for the lock, in its stored form', () => {
    expect(checkSettingValue("lock_on_new_ip", "1", isIp)).toEqual({ ok: true, value: "1" });
    expect(checkSettingValue("lock_on_new_ip", 1, isIp)).toEqual({ ok: false, problem: { kind: "value" } });
    expect(checkSettingValue("lock_on_new_ip", "true", isIp)).toEqual({ ok: false, problem: { kind: "value" } });
    expect(checkSettingValue("ip_lock", "0", isIp)).toEqual({ ok: true, value: "0" });
    expect(checkSettingValue("ip_lock", "::1\n1.2.3.4", isIp)).toEqual({ ok: true, value: "::1,1.2.3.4" });
    expect(checkSettingValue("ip_lock", ["1.2.3.4"], isIp)).toEqual({ ok: false, problem: { kind: "value" } });
  });
});
