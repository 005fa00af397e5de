// Password hashing: Argon2id at OWASP's recommended minimum (m = 19 MiB, t = 2, p = 1) over the password's
// exact UTF-8 bytes (nothing truncated, unlike bcrypt's 72 bytes), in the PHC string format
// (`$argon2id$v=19$m=19456,t=2,p=1$<salt>$<hash>`). Node computes it with the native addon, workerd with
// WebAssembly (`#argon2`, package.json "imports"); the results are identical. Hashes carry their
// parameters: older ones (the scrypt hashes of earlier versions, or Argon2id at other costs) still verify
// and are replaced at the next successful sign-in (needsRehash).
import { scrypt as nodeScrypt, timingSafeEqual, randomBytes } from "node:crypto";
import { argon2idRaw } from "#argon2";

export type Argon2idParams = { m: number; t: number; p: number };
/** Legacy scrypt parameters (hashes made before Argon2id): verified, never made any more. */
export type ScryptParams = { logN: number; r: number; p: number };

/** Current cost: OWASP's Argon2id minimum, 19 MiB of memory, 2 passes, 1 lane. */
export const CURRENT_PARAMS: Argon2idParams = { m: 19_456, t: 2, p: 1 };

const KEY_LENGTH = 32;
const SALT_LENGTH = 16;

/** Password length bounds, in characters (code points), on every route that accepts one. */
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 72;

export function passwordLength(password: string): number {
  return [...password].length;
}

const utf8 = (s: string) => new TextEncoder().encode(s);
const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64").replace(/=+$/, "");

export async function hashPassword(password: string, params: Argon2idParams = CURRENT_PARAMS): Promise<string> {
  const salt = randomBytes(SALT_LENGTH);
  const key = await argon2idRaw(utf8(password), salt, params, KEY_LENGTH);
  return `$argon2id$v=19$m=${params.m},t=${params.t},p=${params.p}$${b64(salt)}$${b64(key)}`;
}

type Parsed =
  | { kind: "argon2id"; params: Argon2idParams; salt: Buffer; key: Buffer }
  | { kind: "scrypt"; params: ScryptParams; salt: Buffer; key: Buffer };

const ARGON2ID = /^\$argon2id\$v=19\$([a-z]=\d{1,10}(?:,[a-z]=\d{1,10}){2})\$([A-Za-z0-9+/]+={0,2})\$([A-Za-z0-9+/]+={0,2})$/;
const SCRYPT = /^\$scrypt\$ln=(\d{1,2}),r=(\d{1,2}),p=(\d{1,2})\$([A-Za-z0-9+/]+={0,2})\$([A-Za-z0-9+/]+={0,2})$/;

function parse(hash: string): Parsed | null {
  const a = ARGON2ID.exec(hash);
  if (a) {
    const fields = Object.fromEntries(a[1]!.split(",").map((kv) => kv.split("=") as [string, string]));
    const params = { m: Number(fields.m), t: Number(fields.t), p: Number(fields.p) };
    // Bounds that keep a tampered row from costing the server more than a few times the current hash.
    if (!(params.m >= 8 * params.p && params.m <= 262_144 && params.t >= 1 && params.t <= 10 && params.p >= 1 && params.p <= 8)) return null;
    const salt = Buffer.from(a[2]!, "base64");
    const key = Buffer.from(a[3]!, "base64");
    if (salt.length < 8 || key.length < 16) return null;
    return { kind: "argon2id", params, salt, key };
  }
  const s = SCRYPT.exec(hash);
  if (!s) return null;
  const params = { logN: Number(s[1]), r: Number(s[2]), p: Number(s[3]) };
  if (params.logN < 10 || params.logN > 20 || params.r < 1 || params.p < 1) return null;
  return { kind: "scrypt", params, salt: Buffer.from(s[4]!, "base64"), key: Buffer.from(s[5]!, "base64") };
}

function scrypt(password: string, salt: Uint8Array, params: ScryptParams, length: number): Promise<Buffer> {
  const N = 2 ** params.logN;
  return new Promise((resolve, reject) => {
    nodeScrypt(utf8(password), salt, length, { N, r: params.r, p: params.p, maxmem: 256 * N * params.r + 1024 * 1024 }, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

/** A legacy scrypt hash, as versions before Argon2id made them (for tests of the upgrade path). */
export async function hashPasswordScrypt(password: string, params: ScryptParams = { logN: 14, r: 8, p: 5 }): Promise<string> {
  const salt = randomBytes(SALT_LENGTH);
  const key = await scrypt(password, salt, params, KEY_LENGTH);
  return `$scrypt$ln=${params.logN},r=${params.r},p=${params.p}$${salt.toString("base64")}$${key.toString("base64")}`;
}

export async function verifyPassword(password: string, hash: string): Promise<boolean> {
  const parsed = parse(hash);
  if (!parsed) return false;
  const key =
    parsed.kind === "argon2id"
      ? Buffer.from(await argon2idRaw(utf8(password), parsed.salt, parsed.params, parsed.key.length))
      : await scrypt(password, parsed.salt, parsed.params, parsed.key.length);
  return key.length === parsed.key.length && timingSafeEqual(key, parsed.key);
}

/** True when the hash is not Argon2id at the current parameters (then the next sign-in replaces it). */
export function needsRehash(hash: string): boolean {
  const parsed = parse(hash);
  if (!parsed || parsed.kind !== "argon2id") return true;
  const { m, t, p } = parsed.params;
  return m !== CURRENT_PARAMS.m || t !== CURRENT_PARAMS.t || p !== CURRENT_PARAMS.p || parsed.key.length !== KEY_LENGTH;
}

let dummy: Promise<string> | undefined;
/**
 * A hash of a random password at the current cost, verified against when the email is unknown so both
 * failures cost the same time.
 */
export function dummyHash(): Promise<string> {
  dummy ??= hashPassword(randomBytes(16).toString("hex"));
  return dummy;
}
