/**
 * The account's OpenPGP key over HTTP and SQLite: a pasted public key is stored pending and its
 * code mailed encrypted to it; the code makes it active, and from then on every mail to the account
 * is encrypted to it (decrypted here with the test's private key, the freeze link inside); removing
 * it needs the password; a private, expired or revoked key, or garbage, is refused with nothing
 * written.
 */
import { describe, expect, it } from "vitest";
import { decrypt, generateKey, readMessage, readPrivateKey, revokeKey } from "openpgp";
import { openVenue } from "./exchange/venue.ts";
import { KEY_STOPPED_NOTE, mailSettled, sendMail } from "./mail.ts";
import { PgpKeys } from "./pgp.ts";
import { DEFAULT_LIMITS } from "./rate-limit.ts";
import { mailsTo } from "./test-support/api.ts";
import { testApi } from "./test-support/session.ts";

const venue = openVenue({ dbPath: ":memory:", seed: 9, markets: [{ symbol: "tBTCUSD", start: 30_000 }] });

// Every test signs a new account in: more logins than the default per-address allowance.
const api = testApi({
  exchange: venue.exchange,
  account: venue.gateway,
  limits: { ...DEFAULT_LIMITS, login: 1000 },
});

const { post } = api;

/** A key pair made for the test (curve25519: fast), armored. */
async function keyPair(email: string, expires = 0): Promise<{ publicKey: string; privateKey: string }> {
  return generateKey({
    type: "ecc",
    curve: "curve25519Legacy",
    userIDs: [{ name: "Test Owner", email }],
    keyExpirationTime: expires,
    format: "armored",
  });
}

async function decryptWith(privateKey: string, armored: string): Promise<string> {
  const message = await readMessage({ armoredMessage: armored });
  const decryptionKeys = await readPrivateKey({ armoredKey: privateKey });
  const out: { data: unknown } = await decrypt({ message, decryptionKeys, format: "utf8" });
  return String(out.data);
}

let n = 0;
async function account(): Promise<{ email: string; token: string; id: number }> {
  n += 1;
  const email = `pgp${n}@example.com`;
  const id = venue.accounts.createUser(email, `pgp${n}`, "long-enough-pw", Date.now(), true);
  const [, t] = await post("/v2/login", { login: `pgp${n}`, password: "long-enough-pw" });
  return { email, token: (t as string[])[0] as string, id };
}

const rows = (id: number): unknown[] =>
  venue.accounts.db.prepare("SELECT status FROM pgp_keys WHERE user_id = ? ORDER BY id").all(id);

describe("adding a key", () => {
  it("stores it pending and mails the code encrypted to it; the code makes it active", async () => {
    const a = await account();
    const pair = await keyPair(a.email);
    const [status, answer] = await post("/v2/auth/w/int/pgp/update", { key: pair.publicKey }, a.token);
    expect(status).toBe(200);
    const fingerprint = (answer as string[])[0] as string;
    expect(fingerprint).toMatch(/^[0-9A-F]{40}$/);
    const [, listed] = await post("/v2/auth/r/int/pgp", {}, a.token);
    expect(listed).toEqual([
      [fingerprint, "pending", ["Test Owner <" + a.email + ">"], expect.any(Number), null, "Ed25519"],
    ]);
    const mail = (await mailsTo(api.base, a.email))[0];
    expect(mail?.subject).toBe("Confirm your PGP key");
    expect(mail?.body).toMatch(/^-----BEGIN PGP MESSAGE-----/);
    expect(mail?.body).not.toMatch(/\b\d{6}\b.*confirm/);
    const text = await decryptWith(pair.privateKey, mail?.body ?? "");
    const code = /code for the PGP key .* is (\d{6})/.exec(text)?.[1] ?? "";
    expect(text).toContain(`/security?pgp=${code}`);
    expect(text).toMatch(/\/freeze\?code=[0-9a-f]{32}/);

    expect(await post("/v2/auth/w/int/pgp/confirm", { code: code === "000000" ? "1" : "000000" }, a.token)).toEqual([
      400,
      ["error", 10020, "key: code invalid"],
    ]);
    expect(await post("/v2/auth/w/int/pgp/confirm", { code }, a.token)).toEqual([200, [fingerprint]]);
    expect(rows(a.id)).toEqual([{ status: "active" }]);
    // Good once.
    expect(await post("/v2/auth/w/int/pgp/confirm", { code }, a.token)).toEqual([
      400,
      ["error", 10020, "key: nothing to confirm"],
    ]);

    // From now on every mail to the account is encrypted to the key: the activation's own, and a
    // security mail sent by another part of the exchange (a two-factor challenge).
    await post("/v2/auth/r/int/2fa/challenge", { method: "otp" }, a.token);
    const [challenge, activated] = await mailsTo(api.base, a.email);
    expect(activated?.subject).toBe("Your PGP key is active");
    expect(challenge?.subject).toBe("Confirm two-factor set-up");
    for (const m of [activated, challenge]) {
      expect(m?.body).toMatch(/^-----BEGIN PGP MESSAGE-----/);
      expect(m?.body).not.toContain("/freeze");
    }
    const challengeText = await decryptWith(pair.privateKey, challenge?.body ?? "");
    expect(challengeText).toMatch(/Your code to turn on two-factor authentication is \d{6}/);
    expect(challengeText).toMatch(/\/freeze\?code=[0-9a-f]{32}/);
  });

  it("keeps the active key until a new one is confirmed, then replaces it", async () => {
    const a = await account();
    const first = await keyPair(a.email);
    const second = await keyPair(a.email);
    const confirm = async (pair: { privateKey: string }): Promise<void> => {
      const mail = (await mailsTo(api.base, a.email)).find((m) => m.subject === "Confirm your PGP key");
      const code = /is (\d{6})\./.exec(await decryptWith(pair.privateKey, mail?.body ?? ""))?.[1] ?? "";
      expect((await post("/v2/auth/w/int/pgp/confirm", { code }, a.token))[0]).toBe(200);
    };
    await post("/v2/auth/w/int/pgp/update", { key: first.publicKey }, a.token);
    await confirm(first);
    await post("/v2/auth/w/int/pgp/update", { key: second.publicKey }, a.token);
    expect(rows(a.id)).toEqual([{ status: "active" }, { status: "pending" }]);
    await confirm(second);
    expect(rows(a.id)).toEqual([{ status: "removed" }, { status: "active" }]);
    const last = (await mailsTo(api.base, a.email))[0];
    expect(await decryptWith(second.privateKey, last?.body ?? "")).toContain("Every mail we send you is now encrypted");
  });

  it("is removed with the password; mail goes in the clear again", async () => {
    const a = await account();
    const pair = await keyPair(a.email);
    await post("/v2/auth/w/int/pgp/update", { key: pair.publicKey }, a.token);
    const mail = (await mailsTo(api.base, a.email))[0];
    const code = /is (\d{6})\./.exec(await decryptWith(pair.privateKey, mail?.body ?? ""))?.[1] ?? "";
    await post("/v2/auth/w/int/pgp/confirm", { code }, a.token);
    expect(await post("/v2/auth/w/int/pgp/remove", { password: "nope" }, a.token)).toEqual([
      400,
      ["error", 10020, "password: invalid"],
    ]);
    expect(rows(a.id)).toEqual([{ status: "active" }]);
    expect(await post("/v2/auth/w/int/pgp/remove", { password: "long-enough-pw" }, a.token)).toEqual([200, [1]]);
    expect(rows(a.id)).toEqual([{ status: "removed" }]);
    expect(await post("/v2/auth/r/int/pgp", {}, a.token)).toEqual([200, []]);
    const removed = (await mailsTo(api.base, a.email))[0];
    expect(removed?.subject).toBe("Your PGP key was removed");
    expect(removed?.body).toContain("/freeze?code=");
  });

  it("drops a pending key after a few wrong codes", async () => {
    const a = await account();
    const pair = await keyPair(a.email);
    await post("/v2/auth/w/int/pgp/update", { key: pair.publicKey }, a.token);
    for (let i = 0; i < 5; i++) await post("/v2/auth/w/int/pgp/confirm", { code: "abc" }, a.token);
    expect(rows(a.id)).toEqual([{ status: "removed" }]);
  });
});

describe("guessing the code", () => {
  /** The code mailed for the newest pasted key, read with its private key. */
  async function mailedCode(email: string, privateKey: string): Promise<string> {
    const mail = (await mailsTo(api.base, email)).find((m) => m.subject === "Confirm your PGP key");
    return /is (\d{6})\./.exec(await decryptWith(privateKey, mail?.body ?? ""))?.[1] ?? "";
  }
  const wrong = (code: string): string => (code === "000000" ? "111111" : "000000");

  it("counts wrong codes across pastes of the account: a new paste gives no new tries", async () => {
    const a = await account();
    const pair = await keyPair(a.email);
    for (let paste = 0; paste < 2; paste++) {
      await post("/v2/auth/w/int/pgp/update", { key: pair.publicKey }, a.token);
      const code = await mailedCode(a.email, pair.privateKey);
      for (let i = 0; i < 5; i++)
        expect(await post("/v2/auth/w/int/pgp/confirm", { code: wrong(code) }, a.token)).toEqual([
          400,
          ["error", 10020, "key: code invalid"],
        ]);
    }
    // Ten wrong codes in the hour: even the right code of a fresh paste is refused now.
    await post("/v2/auth/w/int/pgp/update", { key: pair.publicKey }, a.token);
    const code = await mailedCode(a.email, pair.privateKey);
    expect(await post("/v2/auth/w/int/pgp/confirm", { code }, a.token)).toEqual([
      400,
      ["error", 10020, "key: too many attempts, try again later"],
    ]);
    // Once the failures leave the window, the code works.
    venue.accounts.db.prepare("UPDATE pgp_failures SET mts = mts - ? WHERE user_id = ?").run(2 * 60 * 60_000, a.id);
    expect((await post("/v2/auth/w/int/pgp/confirm", { code }, a.token))[0]).toBe(200);
  });

  it("takes at most five pasted keys an hour", async () => {
    const a = await account();
    const pair = await keyPair(a.email);
    for (let i = 0; i < 5; i++)
      expect((await post("/v2/auth/w/int/pgp/update", { key: pair.publicKey }, a.token))[0]).toBe(200);
    expect(await post("/v2/auth/w/int/pgp/update", { key: pair.publicKey }, a.token)).toEqual([
      400,
      ["error", 10020, "key: too many keys, try again later"],
    ]);
    await mailSettled(venue.accounts.db);
    expect((await mailsTo(api.base, a.email)).length).toBe(5);
  });
});

describe("a change and its mail commit together", () => {
  /** Makes the outbox refuse mails of `subject` (a real SQLite failure inside the write). */
  function mailFails(subject: string): () => void {
    const db = venue.accounts.db;
    db.exec(
      `CREATE TEMP TRIGGER IF NOT EXISTS outbox_down BEFORE INSERT ON outbox WHEN NEW.subject = '${subject}' BEGIN SELECT RAISE(ABORT, 'outbox down'); END;`,
    );
    return () => db.exec("DROP TRIGGER IF EXISTS outbox_down");
  }

  it("leaves the key as it was when its notice cannot be written (confirm, remove)", async () => {
    const a = await account();
    const pair = await keyPair(a.email);
    await post("/v2/auth/w/int/pgp/update", { key: pair.publicKey }, a.token);
    const mail = (await mailsTo(api.base, a.email)).find((m) => m.subject === "Confirm your PGP key");
    const code = /is (\d{6})\./.exec(await decryptWith(pair.privateKey, mail?.body ?? ""))?.[1] ?? "";
    let restore = mailFails("Your PGP key is active");
    try {
      expect((await post("/v2/auth/w/int/pgp/confirm", { code }, a.token))[0]).not.toBe(200);
    } finally {
      restore();
    }
    expect(rows(a.id)).toEqual([{ status: "pending" }]);
    expect((await post("/v2/auth/w/int/pgp/confirm", { code }, a.token))[0]).toBe(200);
    restore = mailFails("Your PGP key was removed");
    try {
      expect((await post("/v2/auth/w/int/pgp/remove", { password: "long-enough-pw" }, a.token))[0]).not.toBe(200);
    } finally {
      restore();
    }
    // Still active: the owner was not told otherwise, and mail stays encrypted.
    expect(rows(a.id)).toEqual([{ status: "active" }]);
  });
});

describe("mail encrypted to an active key", () => {
  it("commits or rolls back with its sender's transaction, in order, never in the clear", async () => {
    const a = await account();
    const pair = await keyPair(a.email);
    await post("/v2/auth/w/int/pgp/update", { key: pair.publicKey }, a.token);
    const confirmation = (await mailsTo(api.base, a.email))[0];
    const code = /is (\d{6})\./.exec(await decryptWith(pair.privateKey, confirmation?.body ?? ""))?.[1] ?? "";
    await post("/v2/auth/w/int/pgp/confirm", { code }, a.token);
    const db = venue.accounts.db;
    const before = (await mailsTo(api.base, a.email)).length;
    expect(() =>
      db.transaction(() => {
        sendMail(db, a.email, "Rolled back", "never sent", Date.now());
        throw new Error("the sender fails after mailing");
      })(),
    ).toThrow("the sender fails");
    sendMail(db, a.email, "First", "one", Date.now());
    sendMail(db, a.email, "Second", "two", Date.now());
    // Before the encryption is done the rows are placeholders, never listed and never plaintext.
    const raw = db
      .prepare("SELECT body, pending FROM outbox WHERE recipient = ? ORDER BY id DESC LIMIT 2")
      .all(a.email);
    for (const row of raw as { body: string; pending: number }[]) expect(row.body).not.toMatch(/one|two/);
    await mailSettled(db);
    const after = await mailsTo(api.base, a.email);
    expect(after.length).toBe(before + 2);
    expect(after.slice(0, 2).map((m) => m.subject)).toEqual(["Second", "First"]);
    expect(await decryptWith(pair.privateKey, after[0]?.body ?? "")).toMatch(/^two\n\nNot you\?/);
  });
});

describe("a key that stops working", () => {
  /** An account with an active key (confirmed through the calls). */
  async function withActiveKey(): Promise<{ a: Awaited<ReturnType<typeof account>>; pair: { privateKey: string } }> {
    const a = await account();
    const pair = await keyPair(a.email);
    await post("/v2/auth/w/int/pgp/update", { key: pair.publicKey }, a.token);
    const mail = (await mailsTo(api.base, a.email))[0];
    const code = /is (\d{6})\./.exec(await decryptWith(pair.privateKey, mail?.body ?? ""))?.[1] ?? "";
    expect((await post("/v2/auth/w/int/pgp/confirm", { code }, a.token))[0]).toBe(200);
    return { a, pair };
  }

  it("expired at send time: removed, and the mail goes in the clear with a note", async () => {
    const { a } = await withActiveKey();
    const db = venue.accounts.db;
    db.prepare("UPDATE pgp_keys SET expires_at = ? WHERE user_id = ? AND status = 'active'").run(Date.now() - 1, a.id);
    sendMail(db, a.email, "Security notice", "someone signed in", Date.now());
    await mailSettled(db);
    const [mail] = await mailsTo(api.base, a.email);
    expect(mail?.subject).toBe("Security notice");
    expect(mail?.body).toContain(KEY_STOPPED_NOTE);
    expect(mail?.body).toContain("someone signed in");
    expect(rows(a.id)).toEqual([{ status: "removed" }]);
  });

  it("failing to encrypt: removed, and the mail still reaches the owner", async () => {
    const { a } = await withActiveKey();
    const db = venue.accounts.db;
    // A stored key openpgp can no longer read (as a key whose algorithm a newer library dropped).
    db.prepare("UPDATE pgp_keys SET armored = 'not a key' WHERE user_id = ? AND status = 'active'").run(a.id);
    sendMail(db, a.email, "Security notice", "your password was changed", Date.now());
    await mailSettled(db);
    const [mail] = await mailsTo(api.base, a.email);
    expect(mail?.subject).toBe("Security notice");
    expect(mail?.body).toContain(KEY_STOPPED_NOTE);
    expect(mail?.body).toContain("your password was changed");
    expect(rows(a.id)).toEqual([{ status: "removed" }]);
  });

  it("finishes on start a placeholder a restart left pending", async () => {
    const a = await account();
    const db = venue.accounts.db;
    db.prepare(
      "INSERT INTO outbox (recipient, subject, body, mts, pending, encrypted) VALUES (?, 'Left behind', 'pending:x', ?, 1, 1)",
    ).run(a.email, Date.now());
    expect(await mailsTo(api.base, a.email)).toEqual([]);
    // What the exchange builds as it starts on this database.
    new PgpKeys(venue.accounts, Date.now, () => undefined);
    const [mail] = await mailsTo(api.base, a.email);
    expect(mail?.subject).toBe("Left behind");
    expect(mail?.body).toContain("the exchange restarted while encrypting it");
  });
});

describe("refusing what is not a usable public key", () => {
  it("refuses private, expired and revoked keys and garbage, writing nothing", async () => {
    const a = await account();
    const pair = await keyPair(a.email);
    const expiring = await keyPair(a.email, 1);
    const { publicKey: revoked } = await revokeKey({
      key: await readPrivateKey({ armoredKey: (await keyPair(a.email)).privateKey }),
      format: "armored",
    });
    // Let the one-second key expire.
    await new Promise((r) => setTimeout(r, 1200));
    const cases: [unknown, string][] = [
      [pair.privateKey, "key: private key, paste the public key"],
      [expiring.publicKey, "key: expired"],
      [revoked, "key: revoked"],
      [
        "-----BEGIN PGP PUBLIC KEY BLOCK-----\n\nnot base64 at all\n-----END PGP PUBLIC KEY BLOCK-----",
        "key: not an OpenPGP public key",
      ],
      ["hello", "key: not an OpenPGP public key"],
      ["", "key: missing"],
      [42, "key: missing"],
    ];
    for (const [key, msg] of cases)
      expect(await post("/v2/auth/w/int/pgp/update", { key }, a.token)).toEqual([400, ["error", 10020, msg]]);
    await mailSettled(venue.accounts.db);
    expect(rows(a.id)).toEqual([]);
    expect(await mailsTo(api.base, a.email)).toEqual([]);
  });
});
