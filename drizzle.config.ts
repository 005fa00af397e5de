import { defineConfig } from "drizzle-kit";

// Only used by `npm run db:generate` (drizzle-kit generate), which needs no database connection.
export default defineConfig({
  dialect: "postgresql",
  schema: "./lib/db/schema.ts",
  out: "./migrations",
});
