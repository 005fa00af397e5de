// Password hashing with scrypt over the password's exact UTF-8 bytes: nothing is truncated (unlike
// bcrypt's 72 bytes), and the same hash verifies on Node and on Workers. Hashes carry their parameters,
// so raising the cost later only means rehashing at the next successful sign-in.
import { scrypt as nodeScrypt, timingSafeEqual, randomBytes } from "node:crypto";

export type ScryptParams = { logN: number; r: number; p: number };

/** Current cost: N = 2^14, r = 8, p = 5 (16 MiB of memory per hash). */
export const CURRENT_PARAMS: ScryptParams = { logN: 14, r: 8, p: 5 };

const KEY_LENGTH = 32;
const SALT_LENGTH = 16;
const FORMAT = /^\$scrypt\$ln=(\d{1,2}),r=(\d{1,2}),p=(\d{1,2})\$([A-Za-z0-9+/]+={0,2})\$([A-Za-z0-9+/]+={0,2})$/;

/** Password length bounds, in characters (code points), on every route that accepts one. */
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 72;

export function passwordLength(password: string): number {
  return [...password].length;
}

function derive(password: string, salt: Uint8Array, params: ScryptParams): Promise<Buffer> {
  const N = 2 ** params.logN;
  return new Promise((resolve, reject) => {
    nodeScrypt(
      Buffer.from(password, "utf8"),
      salt,
      KEY_LENGTH,
      { N, r: params.r, p: params.p, maxmem: 256 * N * params.r + 1024 * 1024 },
      (err, key) => (err ? reject(err) : resolve(key)),
    );
  });
}

export async function hashPassword(password: string, params: ScryptParams = CURRENT_PARAMS): Promise<string> {
  const salt = randomBytes(SALT_LENGTH);
  const key = await derive(password, salt, params);
  return `$scrypt$ln=${params.logN},r=${params.r},p=${params.p}$${salt.toString("base64")}$${key.toString("base64")}`;
}

function parse(hash: string): { params: ScryptParams; salt: Buffer; key: Buffer } | null {
  const m = FORMAT.exec(hash);
  if (!m) return null;
  const params = { logN: Number(m[1]), r: Number(m[2]), p: Number(m[3]) };
  if (params.logN < 10 || params.logN > 20 || params.r < 1 || params.p < 1) return null;
  return { params, salt: Buffer.from(m[4]!, "base64"), key: Buffer.from(m[5]!, "base64") };
}

export async function verifyPassword(password: string, hash: string): Promise<boolean> {
  const parsed = parse(hash);
  if (!parsed) return false;
  const key = await derive(password, parsed.salt, parsed.params);
  return key.length === parsed.key.length && timingSafeEqual(key, parsed.key);
}

/** True when the hash was made with other parameters than the current ones. */
export function needsRehash(hash: string): boolean {
  const parsed = parse(hash);
  if (!parsed) return true;
  const { logN, r, p } = parsed.params;
  return logN !== CURRENT_PARAMS.logN || r !== CURRENT_PARAMS.r || p !== CURRENT_PARAMS.p;
}

let dummy: Promise<string> | undefined;
/**
 * A hash of a random password, verified against when the email is unknown so both failures cost the
 * same time.
 */
export function dummyHash(): Promise<string> {
  dummy ??= hashPassword(randomBytes(16).toString("hex"));
  return dummy;
}
