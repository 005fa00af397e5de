import { describe, expect, it } from "vitest";
import { hashPassword, needsRehash, verifyPassword } from "../../lib/auth/password.ts";

// Made on Node (lib/auth/password.ts, the native addon) for the password "correct horse battery".
const NODE_HASH = "$argon2id$v=19$m=19456,t=2,p=1$y1vTc8IM7jyvu1daDa06gw$Bs2SlmWNHe1/96yOITkU7VsQTKW/2Hoq7fkJMV68UPs";
// Made on Node for 72 x "é" (144 bytes).
const NODE_HASH_LONG = "$argon2id$v=19$m=19456,t=2,p=1$tphHPm53xiiMju6yzqCkXQ$jOGbrtV8G+wXtd7y+WpBkRqhs6enYSpWa58cGodR27o";
// A scrypt hash of an earlier version, made on Node: still verifies here, and is due for an upgrade.
const NODE_SCRYPT = "$scrypt$ln=14,r=8,p=5$uXcJjrpu5vXM8+ZpsJrBnQ==$IiDRBPnfheDe5IhxMYIjfXz4AAtBPA52fG837QgzFJk=";

describe("password hashes inside workerd (Argon2id in WebAssembly)", () => {
  it("verify hashes made on Node by the native addon, and refuse a wrong password", async () => {
    expect(await verifyPassword("correct horse battery", NODE_HASH)).toBe(true);
    expect(await verifyPassword("correct horse batterY", NODE_HASH)).toBe(false);
    expect(await verifyPassword("é".repeat(72), NODE_HASH_LONG)).toBe(true);
    expect(await verifyPassword("é".repeat(71) + "e", NODE_HASH_LONG)).toBe(false);
  });

  it("verify a legacy scrypt hash made on Node, which needs an upgrade", async () => {
    expect(await verifyPassword("correct horse battery", NODE_SCRYPT)).toBe(true);
    expect(needsRehash(NODE_SCRYPT)).toBe(true);
  });

  it("hash and verify in workerd, at the current parameters; nothing past byte 72 is ignored", async () => {
    const hash = await hashPassword("é".repeat(72));
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(needsRehash(hash)).toBe(false);
    expect(await verifyPassword("é".repeat(72), hash)).toBe(true);
    expect(await verifyPassword("é".repeat(71) + "e", hash)).toBe(false);
    const shared = "é".repeat(36);
    const a = await hashPassword(`${shared}alpha`);
    expect(await verifyPassword(`${shared}omega`, a)).toBe(false);
    // The other direction: tests/node/auth.test.ts verifies on Node a hash this runtime made.
  });
});
