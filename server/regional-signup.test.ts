/**
 * Applications to a regional venue over HTTP against SQLite (regional-signup.ts): every rule of
 * docs/product-rules.md#regional-sign-up refused with its field and nothing written, what a good
 * application stores and the receipt it mails, one application under review per person and venue,
 * the sign-up's captcha counting applications too, and the application and its mail written together
 * or not at all.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApiServer } from "./api-server.ts";
import { AltchaCaptcha } from "./captcha.ts";
import { openVenue } from "./exchange/venue.ts";
import { PasswordReset } from "./password-reset.ts";
import { Signup } from "./signup.ts";
import { listenApi, mailsTo, postJson } from "./test-support/api.ts";

const clock = Date.parse("2026-11-26T12:00:00Z");
const now = (): number => clock;

async function host(
  captchaAfter: number,
): Promise<{ api: ApiServer; base: string; db: ReturnType<typeof openVenue>["db"] }> {
  const venue = openVenue({ dbPath: ":memory:", seed: 3, markets: [{ symbol: "tBTCUSD", start: 30_000 }] });
  const { api, host } = await listenApi({
    exchange: venue.exchange,
    account: venue.gateway,
    now,
    opening: {
      signup: new Signup(venue.gateway, now, new AltchaCaptcha(now), { captchaAfter }),
      reset: new PasswordReset(venue.gateway.accounts, now),
    },
  });
  return { api, base: `http://${host}`, db: venue.db };
}

let main: Awaited<ReturnType<typeof host>>;
beforeAll(async () => {
  main = await host(1000);
});
afterAll(() => main.api.close());

const PATH = "/v2/int/signup/regional";
// Valid by their check digits: a T.C. Kimlik No and a CPF.
const KIMLIK = "10000000146";
const CPF = "529.982.247-25";
const application = (over: Record<string, unknown> = {}): Record<string, unknown> => ({
  region: "tr",
  firstName: "Ayşe",
  lastName: "Yılmaz",
  email: "Ayse@Example.com",
  birthDate: "1990-04-23",
  nationalId: KIMLIK,
  street: "İstiklal Caddesi 12",
  city: "İstanbul",
  postalCode: "34433",
  resident: true,
  termsVersion: "1.0",
  ...over,
});
const rows = (): number =>
  (main.db.prepare("SELECT COUNT(*) AS n FROM regional_applications").get() as { n: number }).n;
const outbox = async (): Promise<number> =>
  ((await (await fetch(`${main.base}/dev/outbox`)).json()) as unknown[]).length;
const refusal = (msg: string): [number, unknown] => [400, ["error", 10020, msg]];

describe("regional applications", () => {
  it("refuses every broken rule with its field, and writes nothing", async () => {
    const [before, mails] = [rows(), await outbox()];
    const cases: [Record<string, unknown>, string][] = [
      [{ region: "jp" }, "region: invalid"],
      [{ region: undefined }, "region: invalid"],
      [{ firstName: " " }, "firstName: missing"],
      [{ firstName: "Ayşe1" }, "firstName: invalid"],
      [{ lastName: "x".repeat(65) }, "lastName: invalid"],
      [{ lastName: "--" }, "lastName: invalid"],
      [{ email: "ayse@example" }, "email: invalid"],
      [{ email: 7 }, "email: missing"],
      [{ birthDate: "" }, "birthDate: missing"],
      [{ birthDate: "1990-02-30" }, "birthDate: invalid"],
      [{ birthDate: "23.04.1990" }, "birthDate: invalid"],
      [{ birthDate: "1850-01-01" }, "birthDate: invalid"],
      // 18 the day after the clock's: not yet.
      [{ birthDate: "2008-11-27" }, "birthDate: under-age"],
      [{ nationalId: "" }, "nationalId: missing"],
      [{ nationalId: "10000000147" }, "nationalId: invalid"],
      [{ nationalId: "00000000146" }, "nationalId: invalid"],
      [{ nationalId: "1000000014" }, "nationalId: invalid"],
      [{ region: "br", nationalId: "52998224724", postalCode: "01310-100" }, "nationalId: invalid"],
      [{ region: "br", nationalId: "111.111.111-11", postalCode: "01310-100" }, "nationalId: invalid"],
      [{ street: "" }, "street: missing"],
      [{ street: "a\u0000b" }, "street: invalid"],
      [{ city: "" }, "city: missing"],
      [{ postalCode: "3443" }, "postalCode: invalid"],
      [{ region: "br", nationalId: CPF, postalCode: "34433" }, "postalCode: invalid"],
      [{ resident: false }, "resident: missing"],
      [{ resident: "true" }, "resident: missing"],
      [{ termsVersion: "" }, "terms: missing"],
      [{ termsVersion: "0.9" }, "terms: outdated"],
    ];
    for (const [over, msg] of cases)
      expect(await postJson(main.base + PATH, application(over)), msg).toEqual(refusal(msg));
    const raw = await fetch(main.base + PATH, { method: "POST", body: "{not json" });
    expect(raw.status).toBe(400);
    expect(rows()).toBe(before);
    expect(await outbox()).toBe(mails);
  });

  it("stores a good application for review and mails its receipt with the reference, not the ID number", async () => {
    const [status, body] = await postJson(main.base + PATH, application({ nationalId: "100 000 001 46" }));
    expect(status).toBe(200);
    const [reference] = body as [string];
    expect(reference).toMatch(/^TR-[A-HJ-NP-Z2-9]{8}$/);
    const row = main.db.prepare("SELECT * FROM regional_applications WHERE reference = ?").get(reference);
    expect(row).toMatchObject({
      region: "tr",
      email: "ayse@example.com",
      first_name: "Ayşe",
      last_name: "Yılmaz",
      birth_date: "1990-04-23",
      national_id: KIMLIK,
      street: "İstiklal Caddesi 12",
      city: "İstanbul",
      postal_code: "34433",
      terms_version: "1.0",
      status: "received",
      created_at: clock,
    });
    const [mail] = await mailsTo(main.base, "ayse@example.com");
    expect(mail?.subject).toBe("We received your application to Orderflow Türkiye");
    expect(mail?.body).toContain(reference);
    expect(mail?.body).toContain("within 3 business days");
    expect(mail?.body).not.toContain(KIMLIK);
  });

  it("answers a repeat as any application, telling only the mailboxes of the person", async () => {
    const before = rows();
    // The same address: answered as a new application (no oracle), the receipt says one is under review.
    const [again, answer] = await postJson(main.base + PATH, application({ email: "AYSE@example.com " }));
    expect(again).toBe(200);
    const [repeat] = answer as [string];
    expect(repeat).toMatch(/^TR-[A-HJ-NP-Z2-9]{8}$/);
    expect(main.db.prepare("SELECT status FROM regional_applications WHERE reference = ?").get(repeat)).toEqual({
      status: "duplicate",
    });
    const [receipt] = await mailsTo(main.base, "ayse@example.com");
    expect(receipt?.body).toContain(repeat);
    expect(receipt?.body).toContain("is already under review");
    // The same ID number under another address: the same kind of answer and receipt; the earlier
    // applicant is told, the new address learns nothing of them.
    const [status, other] = await postJson(main.base + PATH, application({ email: "other@example.com" }));
    expect(status).toBe(200);
    expect((other as string[])[0]).toMatch(/^TR-/);
    const [otherReceipt] = await mailsTo(main.base, "other@example.com");
    expect(otherReceipt?.subject).toBe("We received your application to Orderflow Türkiye");
    expect(otherReceipt?.body).not.toContain("under review:");
    expect((await mailsTo(main.base, "ayse@example.com"))[0]?.subject).toBe(
      "Another application to Orderflow Türkiye with your ID number",
    );
    expect(rows()).toBe(before + 2);
    // Only one stays under review per person and venue.
    expect(
      main.db
        .prepare("SELECT COUNT(*) AS n FROM regional_applications WHERE region = 'tr' AND status = 'received'")
        .get(),
    ).toEqual({ n: 1 });
    // Another venue is another entity: its own application.
    const [brStatus, body] = await postJson(
      main.base + PATH,
      application({ region: "br", nationalId: CPF, postalCode: "01310-100", city: "São Paulo" }),
    );
    expect(brStatus).toBe(200);
    expect((body as string[])[0]).toMatch(/^BR-/);
    expect((await mailsTo(main.base, "ayse@example.com"))[0]?.subject).toBe(
      "We received your application to Orderflow Brasil",
    );
  });

  it("writes the application and its receipt together or not at all", async () => {
    const before = rows();
    main.db.exec("CREATE TEMP TRIGGER no_mail BEFORE INSERT ON outbox BEGIN SELECT RAISE(ABORT, 'mail down'); END");
    try {
      const [status] = await postJson(
        main.base + PATH,
        application({ email: "kemal@example.com", nationalId: "10000000078" }),
      );
      expect(status).toBe(500);
    } finally {
      main.db.exec("DROP TRIGGER no_mail");
    }
    expect(rows()).toBe(before);
  });
});

describe("the captcha", () => {
  it("is due for an application once the address has used its sign-ups, and counts applications", async () => {
    const small = await host(1);
    try {
      expect((await postJson(`${small.base}/v2/int/captcha/required`, { method: "signup" }))[1]).toEqual([false]);
      expect((await postJson(small.base + PATH, application()))[0]).toBe(200);
      expect((await postJson(`${small.base}/v2/int/captcha/required`, { method: "signup" }))[1]).toEqual([true]);
      expect(
        await postJson(small.base + PATH, application({ email: "b@example.com", nationalId: "10000000078" })),
      ).toEqual(refusal("captcha: required"));
      expect(
        await postJson(
          small.base + PATH,
          application({
            email: "b@example.com",
            nationalId: "10000000078",
            captchaToken: "x",
            captchaProvider: "altcha",
          }),
        ),
      ).toEqual(refusal("captcha: invalid"));
    } finally {
      await small.api.close();
    }
  });
});
