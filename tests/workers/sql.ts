import { neon, neonConfig, type NeonQueryFunction } from "@neondatabase/serverless";
import { env } from "cloudflare:workers";

/** SQL over HTTP through the bridge, from inside workerd: how the tests seed and inspect the database. */
export function testSql(): NeonQueryFunction<false, false> {
  neonConfig.fetchEndpoint = env.DB_HTTP_ENDPOINT;
  return neon(env.DATABASE_URL);
}

/** A user with a unique email, so tests never depend on each other's rows. */
export async function insertUser(label: string): Promise<{ id: string; email: string }> {
  const email = `${label}-${crypto.randomUUID()}@example.com`;
  const [row] = await testSql()`insert into users (email, password_hash) values (${email}, 'x') returning id`;
  return { id: String(row!.id), email };
}
