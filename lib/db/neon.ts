// Edge transports: the serverless driver over HTTP, and a short-lived WebSocket pool for the rare
// interactive transaction.
import { schema } from "./schema.ts";
import type { Db, DbHandle } from "./client.ts";

export type NeonOptions = {
  /** Where SQL-over-HTTP goes; unset means the provider's own endpoint for the URL's host. */
  httpEndpoint?: string | undefined;
};

/**
 * Edge: the serverless driver over HTTP. One statement (or one `batch`) per round trip, each atomic;
 * no interactive transactions (use single-statement mutations, or `withNeonTransaction`).
 */
export async function createNeonHttpDb(url: string, options: NeonOptions): Promise<DbHandle> {
  const { neon, neonConfig } = await import("@neondatabase/serverless");
  const { drizzle } = await import("drizzle-orm/neon-http");
  if (options.httpEndpoint) neonConfig.fetchEndpoint = options.httpEndpoint;
  const db = drizzle(neon(url), { schema }) as unknown as Db;
  return { db, kind: "neon-http", interactiveTransactions: false, close: async () => {} };
}

/**
 * Edge, where an interactive transaction is unavoidable: a WebSocket pool that lives for one call.
 * `wsEndpoint` replaces the provider's WebSocket proxy (tests and local runs use the bridge).
 */
export async function withNeonTransaction<T>(
  url: string,
  options: { wsEndpoint?: string | undefined },
  fn: (tx: Db) => Promise<T>,
): Promise<T> {
  const { Pool, neonConfig } = await import("@neondatabase/serverless");
  const { drizzle } = await import("drizzle-orm/neon-serverless");
  if (options.wsEndpoint) {
    // The driver prepends ws:// or wss:// itself and expects host[:port]/path.
    const bare = options.wsEndpoint.replace(/^wss?:\/\//, "");
    neonConfig.useSecureWebSocket = options.wsEndpoint.startsWith("wss:");
    neonConfig.wsProxy = (host, port) => `${bare}?address=${host}:${port}`;
    neonConfig.pipelineConnect = false;
  }
  const pool = new Pool({ connectionString: url, max: 1 });
  pool.on("error", () => {});
  try {
    const db = drizzle(pool, { schema }) as unknown as Db;
    return await db.transaction((tx) => fn(tx as unknown as Db));
  } finally {
    await pool.end();
  }
}
