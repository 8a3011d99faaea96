import { describe, expect, it } from "vitest";
import { encodeApiError } from "../../protocol";
import {
  ApiKeysModel,
  callErrorFrom,
  emptyMatrix,
  matrixFromPermissionString,
  missingPermissions,
  parseIps,
  permissionsBody,
  setAccess,
  validateForm,
  type Reply,
} from "./model";

const READ_ORDERS = setAccess(emptyMatrix(), "orders", "read", true);

describe("the permission matrix", () => {
  it("write implies read; taking read away takes write", () => {
    const w = setAccess(emptyMatrix(), "wallets", "write", true);
    expect(w.wallets).toEqual({ read: true, write: true });
    expect(setAccess(w, "wallets", "read", false).wallets).toEqual({ read: false, write: false });
    expect(setAccess(w, "wallets", "write", false).wallets).toEqual({ read: true, write: false });
    expect(permissionsBody(w).wallets).toEqual({ read: 1, write: 1 });
    expect(permissionsBody(w).orders).toEqual({ read: 0, write: 0 });
  });

  it("reads both permission-string formats, and refuses what it does not understand", () => {
    const list = matrixFromPermissionString("orders-read,orders-write,wallets-read");
    expect(list?.orders).toEqual({ read: true, write: true });
    expect(list?.wallets).toEqual({ read: true, write: false });
    const caps = matrixFromPermissionString("o:f:w:1");
    expect([caps?.orders, caps?.funding, caps?.wallets]).toEqual(Array(3).fill({ read: true, write: true }));
    expect(matrixFromPermissionString("a:o:0")?.account).toEqual({ read: true, write: false });
    for (const bad of ["", "orders-read,rockets-read", "o:zz:1", "o:f:w", "orders-readish"])
      expect(matrixFromPermissionString(bad), bad).toBeNull();
  });
});

describe("form rules", () => {
  it("needs a label of 1–64 characters without control characters", () => {
    const f = { matrix: READ_ORDERS, ips: "" };
    expect(validateForm({ ...f, label: "  " }).label).toBe("required");
    expect(validateForm({ ...f, label: "x".repeat(65) }).label).toBe("too-long");
    expect(validateForm({ ...f, label: "a\tb" }).label).toBe("control");
    expect(validateForm({ ...f, label: "bot" })).toEqual({});
  });

  it("needs at least one permission", () => {
    expect(validateForm({ label: "bot", matrix: emptyMatrix(), ips: "" }).permissions).toBe("none");
  });

  it("takes IPv4/IPv6 addresses and ranges, at most 20", () => {
    expect(parseIps("127.0.0.1, 10.0.0.0/8\n2001:db8::/32 2001:DB8::1 127.0.0.1")).toEqual({
      ok: true,
      ips: ["127.0.0.1", "10.0.0.0/8", "2001:db8::/32", "2001:db8::1"],
    });
    for (const bad of ["256.1.1.1", "10.0.0.0/33", "1.2.3", "example.com", "::1/129", "1.2.3.4/8/8", "gg::1"])
      expect(parseIps(bad), bad).toEqual({ ok: false, error: { kind: "invalid", entry: bad } });
    const many = Array.from({ length: 21 }, (_, i) => `10.0.0.${i}`).join(",");
    expect(parseIps(many)).toEqual({ ok: false, error: { kind: "too-many" } });
  });
});

describe("exchange refusals", () => {
  const refusal = (msg: string): Reply => ({ status: 500, body: encodeApiError(10001, msg) });
  it("maps each to what the page says", () => {
    expect(callErrorFrom(refusal("code: invalid"))).toEqual({ kind: "code" });
    expect(callErrorFrom(refusal("id: invalid or expired"))).toEqual({ kind: "expired" });
    expect(callErrorFrom(refusal("id: too many pending, verify or wait"))).toEqual({ kind: "too-many-pending" });
    expect(callErrorFrom(refusal("label: at most 20 keys per account"))).toEqual({ kind: "too-many-keys" });
    expect(callErrorFrom(refusal("ips: invalid address 1.2.3"))).toEqual({
      kind: "field",
      errors: { ips: { kind: "invalid", entry: "1.2.3" } },
    });
    expect(callErrorFrom({ status: 429, body: { error: "ERR_RATE_LIMIT" } })).toEqual({
      kind: "app",
      app: "rate-limited",
    });
    expect(callErrorFrom({ status: 0, body: null })).toEqual({ kind: "app", app: "unreachable" });
  });

  it("finds what a credential lacks", () => {
    expect(missingPermissions({ account: { read: true, write: false } }, [{ scope: "account", write: true }])).toEqual([
      { scope: "account", write: true },
    ]);
    expect(missingPermissions({ account: { read: true, write: true } }, [{ scope: "account", write: true }])).toEqual(
      [],
    );
  });
});

describe("the flows", () => {
  function fake(replies: Record<string, Reply[]>) {
    const calls: [string, unknown][] = [];
    const call = (path: string, body?: unknown): Promise<Reply> => {
      calls.push([path, body]);
      const queue = replies[path] ?? [];
      return Promise.resolve(queue.length > 1 ? (queue.shift() as Reply) : (queue[0] ?? { status: 500, body: null }));
    };
    return { calls, model: new ApiKeysModel(call) };
  }
  const list: Reply = { status: 200, body: [["k1", "bot", [["orders", 1, 0]], 1, []]] };
  const perms: Reply = { status: 200, body: [["account", 1, 1]] };

  it("refuses a bad form without calling the exchange", async () => {
    const { calls, model } = fake({});
    const r = await model.generate({ label: "", matrix: emptyMatrix(), ips: "nope" });
    expect(r).toEqual({
      ok: false,
      error: {
        kind: "field",
        errors: { label: "required", permissions: "none", ips: { kind: "invalid", entry: "nope" } },
      },
    });
    expect(calls).toEqual([]);
  });

  it("generates, verifies, shows the secret once, then forgets it", async () => {
    const { calls, model } = fake({
      "/v2/auth/w/api/key/generate": [{ status: 200, body: { id: "42", method: "email" } }],
      "/v2/auth/w/api/key/verify": [
        { status: 500, body: encodeApiError(10001, "code: invalid") },
        { status: 200, body: ["k1", "s3cret"] },
      ],
      "/v2/auth/r/api/keys": [list],
      "/v2/auth/r/permissions": [perms],
    });
    expect(await model.generate({ label: " bot ", matrix: READ_ORDERS, ips: "127.0.0.1" })).toEqual({ ok: true });
    expect(calls[0]).toEqual([
      "/v2/auth/w/api/key/generate",
      { label: "bot", permissions: permissionsBody(READ_ORDERS), ips: ["127.0.0.1"] },
    ]);
    expect(model.state.pending).toEqual({ id: "42", method: "email", label: "bot" });
    expect(await model.verify("12345")).toEqual({ ok: false, error: { kind: "code" } });
    expect(await model.verify("123456")).toEqual({ ok: false, error: { kind: "code" } });
    expect(model.state.pending).not.toBeNull();
    expect(await model.verify("654321")).toEqual({ ok: true });
    expect(model.state.created).toEqual({ key: "k1", secret: "s3cret", label: "bot" });
    expect(model.state.keys.map((k) => k.label)).toEqual(["bot"]);
    expect(model.state.busy).toEqual({ generate: false, verify: false, update: false, revoke: false });
    model.acknowledgeSecret();
    expect(JSON.stringify(model.state)).not.toContain("s3cret");
  });

  it("drops the pending request when the exchange says it expired", async () => {
    const { model } = fake({
      "/v2/auth/w/api/key/generate": [{ status: 200, body: { id: "7", method: "otp" } }],
      "/v2/auth/w/api/key/verify": [{ status: 500, body: encodeApiError(10001, "id: invalid or expired") }],
    });
    await model.generate({ label: "bot", matrix: READ_ORDERS, ips: "" });
    expect(model.state.pending?.method).toBe("otp");
    expect(await model.verify("123456")).toEqual({ ok: false, error: { kind: "expired" } });
    expect(model.state.pending).toBeNull();
  });

  it("revokes one or all, then reads the list again", async () => {
    const { calls, model } = fake({
      "/v2/auth/w/api/key/revoke": [{ status: 200, body: [1] }],
      "/v2/auth/r/api/keys": [{ status: 200, body: [] }],
      "/v2/auth/r/permissions": [perms],
    });
    expect(await model.revoke(null)).toEqual({ ok: true });
    expect(calls[0]).toEqual(["/v2/auth/w/api/key/revoke", { all: 1 }]);
    expect(model.state.keys).toEqual([]);
    expect(model.state.load).toBe("ready");
  });
});
