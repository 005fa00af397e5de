import { eq } from "drizzle-orm";
import { env } from "cloudflare:workers";
import { expect, it } from "vitest";
import { withNeonTransaction } from "../../lib/db/neon.ts";
import { users } from "../../lib/db/schema.ts";
import { testSql } from "./sql.ts";

// Interactive transactions inside workerd: the serverless driver's WebSocket Pool, through the bridge's
// /v2 proxy to the real Postgres. State is checked afterwards over the HTTP path.

const options = () => ({ wsEndpoint: env.DB_WS_PROXY });
const usersWithEmail = (email: string) => testSql()`select id from users where email = ${email}`;

it("rolls back everything when the callback throws", async () => {
  const email = `rollback-${crypto.randomUUID()}@example.com`;
  let insertedInside: unknown[] = [];
  const attempt = withNeonTransaction(env.DATABASE_URL, options(), async (tx) => {
    await tx.insert(users).values({ email, passwordHash: "x" });
    // Visible inside the transaction, so the insert really happened before the rollback.
    insertedInside = await tx.select({ id: users.id }).from(users).where(eq(users.email, email));
    throw new Error("abort the transaction");
  });

  await expect(attempt).rejects.toThrow("abort the transaction");
  expect(insertedInside).toHaveLength(1);
  expect(await usersWithEmail(email)).toHaveLength(0);
});

it("commits when the callback returns", async () => {
  const email = `commit-${crypto.randomUUID()}@example.com`;
  const id = await withNeonTransaction(env.DATABASE_URL, options(), async (tx) => {
    const [row] = await tx.insert(users).values({ email, passwordHash: "x" }).returning({ id: users.id });
    return row!.id;
  });

  expect(await usersWithEmail(email)).toEqual([{ id }]);
});
