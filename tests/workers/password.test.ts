import { describe, expect, it } from "vitest";
import { hashPassword, verifyPassword } from "../../lib/auth/password.ts";

// Made on Node (lib/auth/password.ts) for the password "correct horse battery".
const NODE_HASH = "$scrypt$ln=14,r=8,p=5$uXcJjrpu5vXM8+ZpsJrBnQ==$IiDRBPnfheDe5IhxMYIjfXz4AAtBPA52fG837QgzFJk=";

describe("password hashes inside workerd", () => {
  it("verify a hash made on Node, and refuse a wrong password", async () => {
    expect(await verifyPassword("correct horse battery", NODE_HASH)).toBe(true);
    expect(await verifyPassword("correct horse batterY", NODE_HASH)).toBe(false);
  });

  it("hash and verify in workerd", async () => {
    const hash = await hashPassword("é".repeat(72));
    expect(await verifyPassword("é".repeat(72), hash)).toBe(true);
    expect(await verifyPassword("é".repeat(71) + "e", hash)).toBe(false);
  });
});
