// Stored provider and market-data keys (DESIGN.md section 9, "Key envelope"): AES-256-GCM through WebCrypto,
// so the same code runs on Node and in workerd. An envelope is
//   [format 0x01][key id: 4 bytes][nonce: 12 random bytes][ciphertext + 16-byte tag]
// and its additional data binds it to one user and one provider, so a row copied to another user or
// provider does not decrypt. The key id is the first 4 bytes of SHA-256(raw key): decryption picks
// ENCRYPTION_KEY or ENCRYPTION_KEY_PREVIOUS by it, which is what lets the keys rotate.

export const ENVELOPE_FORMAT = 0x01;
const ID_BYTES = 4;
const NONCE_BYTES = 12;
const HEADER_BYTES = 1 + ID_BYTES + NONCE_BYTES;

export type KeyEntry = { id: string; key: CryptoKey };
/** The current key, and the previous one during a rotation. */
export type KeyRing = { current: KeyEntry; previous?: KeyEntry };

/** Why an envelope could not be opened; never carries key material or plaintext. */
export class EnvelopeError extends Error {
  override name = "EnvelopeError";
  readonly reason: "format" | "unknown-key" | "authentication";
  readonly keyId: string | undefined;
  constructor(reason: "format" | "unknown-key" | "authentication", keyId?: string) {
    super(
      reason === "format"
        ? "not a key envelope this version understands"
        : reason === "unknown-key"
          ? `encrypted under key id ${keyId}, which is neither ENCRYPTION_KEY nor ENCRYPTION_KEY_PREVIOUS`
          : `does not decrypt under key id ${keyId} (wrong key, or the row was moved to another user or provider)`,
    );
    this.reason = reason;
    this.keyId = keyId;
  }
}

const hex = (bytes: Uint8Array) => [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");

function fromHex(value: string): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(value.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(value.slice(i * 2, i * 2 + 2), 16);
  return out;
}

/** The id of a raw 32-byte key (64 hex characters): the first 4 bytes of its SHA-256, as hex. */
export async function keyIdOf(rawHex: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", fromHex(rawHex)));
  return hex(digest.subarray(0, ID_BYTES));
}

async function importKey(rawHex: string): Promise<KeyEntry> {
  const key = await crypto.subtle.importKey("raw", fromHex(rawHex), { name: "AES-GCM" }, false, ["encrypt", "decrypt"]);
  return { id: await keyIdOf(rawHex), key };
}

const rings = new Map<string, Promise<KeyRing>>();

/** The key ring of ENCRYPTION_KEY (and ENCRYPTION_KEY_PREVIOUS), imported once per process or isolate. */
export function keyRing(config: { ENCRYPTION_KEY: string; ENCRYPTION_KEY_PREVIOUS?: string | undefined }): Promise<KeyRing> {
  const cacheKey = `${config.ENCRYPTION_KEY}:${config.ENCRYPTION_KEY_PREVIOUS ?? ""}`;
  let ring = rings.get(cacheKey);
  if (!ring) {
    ring = (async () => {
      const current = await importKey(config.ENCRYPTION_KEY);
      const previous = config.ENCRYPTION_KEY_PREVIOUS ? await importKey(config.ENCRYPTION_KEY_PREVIOUS) : undefined;
      return previous && previous.id !== current.id ? { current, previous } : { current };
    })();
    rings.set(cacheKey, ring);
  }
  return ring;
}

/** The "provider" of a second-factor TOTP secret's envelope (lib/auth/two-factor.ts). */
export const TOTP_AAD = "totp";

/** What binds an envelope to its row: the user and the provider ("openai", ..., "market-data", TOTP_AAD). */
export function additionalData(userId: string, provider: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(new TextEncoder().encode(`${userId}\u0000${provider}`));
}

function toBase64(bytes: Uint8Array): string {
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}

function fromBase64(value: string): Uint8Array<ArrayBuffer> {
  const binary = atob(value);
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

/** Seals `plaintext` under the ring's current key; the envelope as base64 (what the database stores). */
export async function seal(ring: KeyRing, plaintext: string, aad: Uint8Array<ArrayBuffer>): Promise<string> {
  const nonce = crypto.getRandomValues(new Uint8Array(NONCE_BYTES));
  const sealed = new Uint8Array(
    await crypto.subtle.encrypt({ name: "AES-GCM", iv: nonce, additionalData: aad }, ring.current.key, new TextEncoder().encode(plaintext)),
  );
  const out = new Uint8Array(HEADER_BYTES + sealed.length);
  out[0] = ENVELOPE_FORMAT;
  out.set(fromHex(ring.current.id), 1);
  out.set(nonce, 1 + ID_BYTES);
  out.set(sealed, HEADER_BYTES);
  return toBase64(out);
}

/** The key id an envelope was sealed under (hex), or null when it is not an envelope. */
export function envelopeKeyId(envelope: string): string | null {
  try {
    const bytes = fromBase64(envelope);
    return bytes[0] === ENVELOPE_FORMAT && bytes.length > HEADER_BYTES ? hex(bytes.subarray(1, 1 + ID_BYTES)) : null;
  } catch {
    return null;
  }
}

/** Opens an envelope with whichever key of the ring sealed it; EnvelopeError otherwise. */
export async function open(ring: KeyRing, envelope: string, aad: Uint8Array<ArrayBuffer>): Promise<string> {
  let bytes: Uint8Array<ArrayBuffer>;
  try {
    bytes = fromBase64(envelope);
  } catch {
    throw new EnvelopeError("format");
  }
  if (bytes[0] !== ENVELOPE_FORMAT || bytes.length <= HEADER_BYTES + 16) throw new EnvelopeError("format");
  const id = hex(bytes.subarray(1, 1 + ID_BYTES));
  const entry = ring.current.id === id ? ring.current : ring.previous?.id === id ? ring.previous : undefined;
  if (!entry) throw new EnvelopeError("unknown-key", id);
  try {
    const plain = await crypto.subtle.decrypt(
      { name: "AES-GCM", iv: bytes.subarray(1 + ID_BYTES, HEADER_BYTES), additionalData: aad },
      entry.key,
      bytes.subarray(HEADER_BYTES),
    );
    return new TextDecoder().decode(plain);
  } catch {
    throw new EnvelopeError("authentication", id);
  }
}
