// Column types the tables share. One of lib/db/schema.ts's files (a file per domain).
import { customType, numeric } from "drizzle-orm/pg-core";

/** Money and quantities: exact decimals, never floats. */
export const money = (name: string) => numeric(name, { precision: 28, scale: 10 });

/**
 * Bytes in Postgres. Read and written only through encode()/decode() in SQL (lib/trades/images.ts), so every
 * driver (node-postgres, PGlite, the HTTP driver) sees the same base64 text.
 */
export const bytea = customType<{ data: string }>({ dataType: () => "bytea" });
