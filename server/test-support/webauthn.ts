/**
 * A software security key for the server tests: a P-256 key pair that answers WebAuthn's
 * registration ("none" attestation) and sign-in ceremonies the way an authenticator does, so the
 * exchange's SimpleWebAuthn checks run on real signatures. Only what the two ceremonies need of
 * CBOR is encoded here (maps, byte and text strings, small integers).
 */
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from "node:crypto";

type Cbor = number | string | Uint8Array | Map<Cbor, Cbor>;

function head(major: number, n: number): Buffer {
  if (n < 24) return Buffer.from([(major << 5) | n]);
  if (n < 256) return Buffer.from([(major << 5) | 24, n]);
  const b = Buffer.alloc(3);
  b[0] = (major << 5) | 25;
  b.writeUInt16BE(n, 1);
  return b;
}

function cbor(v: Cbor): Buffer {
  if (typeof v === "number") return v >= 0 ? head(0, v) : head(1, -1 - v);
  if (typeof v === "string") {
    const text = Buffer.from(v, "utf8");
    return Buffer.concat([head(3, text.length), text]);
  }
  if (v instanceof Uint8Array) return Buffer.concat([head(2, v.length), Buffer.from(v)]);
  const parts: Buffer[] = [head(5, v.size)];
  for (const [k, val] of v) parts.push(cbor(k), cbor(val));
  return Buffer.concat(parts);
}

const b64url = (b: Uint8Array): string => Buffer.from(b).toString("base64url");
const sha256 = (b: Uint8Array | string): Buffer => createHash("sha256").update(b).digest();

export class SoftKey {
  readonly id = randomBytes(16);
  readonly #key: KeyObject;
  readonly #cose: Buffer;
  counter = 0;

  constructor() {
    const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
    this.#key = privateKey;
    const jwk = publicKey.export({ format: "jwk" });
    // COSE_Key: kty EC2 (2), alg ES256 (-7), crv P-256 (1), x, y.
    this.#cose = cbor(
      new Map<Cbor, Cbor>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, Buffer.from(jwk.x ?? "", "base64url")],
        [-3, Buffer.from(jwk.y ?? "", "base64url")],
      ]),
    );
  }

  get credentialId(): string {
    return b64url(this.id);
  }

  #authData(rpId: string, attested: boolean): Buffer {
    const count = Buffer.alloc(4);
    count.writeUInt32BE(this.counter);
    // Flags: user present (0x01), attested credential data included (0x40).
    const flags = Buffer.from([attested ? 0x41 : 0x01]);
    if (!attested) return Buffer.concat([sha256(rpId), flags, count]);
    const len = Buffer.alloc(2);
    len.writeUInt16BE(this.id.length);
    return Buffer.concat([sha256(rpId), flags, count, Buffer.alloc(16), len, this.id, this.#cose]);
  }

  /** The answer to registration options (`challenge`, `rp.id`) as the browser would send it. */
  register(options: { challenge: string; rp: { id?: string } }, origin: string): Record<string, unknown> {
    const clientData = Buffer.from(
      JSON.stringify({ type: "webauthn.create", challenge: options.challenge, origin, crossOrigin: false }),
    );
    const attestation = cbor(
      new Map<Cbor, Cbor>([
        ["fmt", "none"],
        ["attStmt", new Map()],
        ["authData", this.#authData(options.rp.id ?? new URL(origin).hostname, true)],
      ]),
    );
    return {
      id: this.credentialId,
      rawId: this.credentialId,
      type: "public-key",
      response: { clientDataJSON: b64url(clientData), attestationObject: b64url(attestation), transports: ["usb"] },
      clientExtensionResults: {},
    };
  }

  /** The answer to sign-in options (`challenge`, `rpId`); each signature moves the counter on. */
  assert(
    options: { challenge: string; rpId?: string },
    origin: string,
    counter = this.counter + 1,
  ): Record<string, unknown> {
    this.counter = counter;
    const clientData = Buffer.from(
      JSON.stringify({ type: "webauthn.get", challenge: options.challenge, origin, crossOrigin: false }),
    );
    const authData = this.#authData(options.rpId ?? new URL(origin).hostname, false);
    const signature = sign("sha256", Buffer.concat([authData, sha256(clientData)]), this.#key);
    return {
      id: this.credentialId,
      rawId: this.credentialId,
      type: "public-key",
      response: {
        clientDataJSON: b64url(clientData),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
      },
      clientExtensionResults: {},
    };
  }
}
