// A software WebAuthn authenticator for tests, built from the specification (W3C WebAuthn Level 2, section 6):
// an ES256 key pair per credential (WebCrypto, so it runs in Node and in workerd alike), "none" attestation,
// and assertions signed over authenticatorData || SHA-256(clientDataJSON), DER-encoded, exactly what a browser
// hands the page from a platform authenticator.
import { encodeCBOR } from "@levischuck/tiny-cbor";

const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64url");
const concat = (...parts: Uint8Array[]): Uint8Array<ArrayBuffer> => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};
const sha256 = async (data: Uint8Array<ArrayBuffer>) => new Uint8Array(await crypto.subtle.digest("SHA-256", data));
const utf8 = (text: string): Uint8Array<ArrayBuffer> => Uint8Array.from(new TextEncoder().encode(text));

/** WebCrypto's ECDSA signature (r || s) as the DER SEQUENCE WebAuthn carries. */
function derSignature(raw: Uint8Array): Uint8Array {
  const integer = (bytes: Uint8Array) => {
    let i = 0;
    while (i < bytes.length - 1 && bytes[i] === 0) i++;
    const trimmed = bytes.subarray(i);
    const body = trimmed[0]! & 0x80 ? concat(new Uint8Array([0]), trimmed) : trimmed;
    return concat(new Uint8Array([0x02, body.length]), body);
  };
  const r = integer(raw.subarray(0, 32));
  const s = integer(raw.subarray(32));
  return concat(new Uint8Array([0x30, r.length + s.length]), r, s);
}

type Options = { challenge: string; rp?: { id?: string }; rpId?: string; user?: { id: string } };
type Stored = { key: CryptoKey; counter: number; userHandle: string; rpId: string };

export class SoftwareAuthenticator {
  private readonly credentials = new Map<string, Stored>();

  readonly origin: string;
  readonly userVerified: boolean;

  /** `origin`: the page's origin as the browser would report it. `userVerified`: the PIN or biometric passed. */
  constructor(origin: string, userVerified = true) {
    this.origin = origin;
    this.userVerified = userVerified;
  }

  /** The answer navigator.credentials.create() would give for these options (their JSON form). */
  async create(options: Options): Promise<Record<string, unknown>> {
    const rpId = options.rp?.id ?? new URL(this.origin).hostname;
    const pair = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"])) as CryptoKeyPair;
    const jwk = (await crypto.subtle.exportKey("jwk", pair.publicKey)) as JsonWebKey;
    const rawId = crypto.getRandomValues(new Uint8Array(16));
    const id = b64url(rawId);
    this.credentials.set(id, { key: pair.privateKey, counter: 0, userHandle: options.user!.id, rpId });
    const cose = new Map<number, number | Uint8Array>([
      [1, 2], // kty: EC2
      [3, -7], // alg: ES256
      [-1, 1], // crv: P-256
      [-2, new Uint8Array(Buffer.from(jwk.x!, "base64url"))],
      [-3, new Uint8Array(Buffer.from(jwk.y!, "base64url"))],
    ]);
    const attested = concat(new Uint8Array(16), new Uint8Array([0, rawId.length]), rawId, new Uint8Array(encodeCBOR(cose)));
    const authData = concat(await this.header(rpId, 0x40, 0), attested);
    const attestationObject = encodeCBOR(new Map<string, unknown>([["fmt", "none"], ["attStmt", new Map()], ["authData", authData]]) as never);
    return {
      id,
      rawId: id,
      type: "public-key",
      clientExtensionResults: {},
      authenticatorAttachment: "platform",
      response: { clientDataJSON: b64url(this.clientData("webauthn.create", options.challenge)), attestationObject: b64url(new Uint8Array(attestationObject)), transports: ["internal"] },
    };
  }

  /** The answer navigator.credentials.get() would give, from the given credential or the first one. */
  async get(options: Options, credentialId?: string, tamper?: { origin?: string }): Promise<Record<string, unknown>> {
    const id = credentialId ?? [...this.credentials.keys()][0]!;
    const credential = this.credentials.get(id)!;
    credential.counter += 1;
    const authData = await this.header(options.rpId ?? credential.rpId, 0, credential.counter);
    const clientDataJSON = this.clientData("webauthn.get", options.challenge, tamper?.origin);
    const raw = new Uint8Array(await crypto.subtle.sign({ name: "ECDSA", hash: "SHA-256" }, credential.key, concat(authData, await sha256(clientDataJSON))));
    return {
      id,
      rawId: id,
      type: "public-key",
      clientExtensionResults: {},
      authenticatorAttachment: "platform",
      response: { clientDataJSON: b64url(clientDataJSON), authenticatorData: b64url(authData), signature: b64url(derSignature(raw)), userHandle: credential.userHandle },
    };
  }

  /** rpIdHash, flags (user present, user verified when so, plus `extra`), and the signature counter. */
  private async header(rpId: string, extra: number, counter: number): Promise<Uint8Array<ArrayBuffer>> {
    const flags = 0x01 | (this.userVerified ? 0x04 : 0) | extra;
    const count = new Uint8Array([(counter >>> 24) & 0xff, (counter >>> 16) & 0xff, (counter >>> 8) & 0xff, counter & 0xff]);
    return concat(await sha256(utf8(rpId)), new Uint8Array([flags]), count);
  }

  private clientData(type: string, challenge: string, origin = this.origin): Uint8Array<ArrayBuffer> {
    return utf8(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  }
}
