// Argon2id on Node: the native `argon2` addon (its prebuilt binary, loaded on the first sign-in, not at
// start). The Workers build resolves `#argon2` to argon2-wasm.ts instead (package.json "imports"); both
// compute RFC 9106 Argon2id, so a hash made by one verifies on the other (tests/workers/password.test.ts).
import type { Argon2idParams } from "./password.ts";

let loaded: Promise<typeof import("argon2")> | undefined;

/** The raw Argon2id tag of `password` under `salt` (version 0x13). */
export async function argon2idRaw(password: Uint8Array, salt: Uint8Array, params: Argon2idParams, length: number): Promise<Uint8Array> {
  loaded ??= import("argon2");
  const argon2 = await loaded;
  return argon2.hash(Buffer.from(password), {
    type: argon2.argon2id,
    raw: true,
    salt: Buffer.from(salt),
    memoryCost: params.m,
    timeCost: params.t,
    parallelism: params.p,
    hashLength: length,
    version: 0x13,
  });
}
