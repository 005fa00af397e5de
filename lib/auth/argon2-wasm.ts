// Argon2id in workerd: the WebAssembly build of the `argon2id` package (openpgpjs), its two modules
// imported as compiled WebAssembly (Workers cannot compile WebAssembly from bytes at run time). SIMD where
// the runtime has it, else the plain build. Loaded once per isolate, on the first hash.
import setupWasm, { type computeHash } from "argon2id/lib/setup.js";
import simd from "argon2id/dist/simd.wasm";
import noSimd from "argon2id/dist/no-simd.wasm";
import type { Argon2idParams } from "./password.ts";

const instantiate = (module: WebAssembly.Module) => async (imports: WebAssembly.Imports) => ({ module, instance: await WebAssembly.instantiate(module, imports) });

let loaded: Promise<computeHash> | undefined;

/** The raw Argon2id tag of `password` under `salt` (version 0x13). */
export async function argon2idRaw(password: Uint8Array, salt: Uint8Array, params: Argon2idParams, length: number): Promise<Uint8Array> {
  loaded ??= setupWasm(instantiate(simd), instantiate(noSimd));
  const argon2id = await loaded;
  return argon2id({ password, salt, parallelism: params.p, passes: params.t, memorySize: params.m, tagLength: length });
}
