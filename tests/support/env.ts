// Configuration for tests: the three required variables plus whatever a test overrides. Tests build
// Config objects through the real parser, never by hand.
import { parseConfig, type Config } from "../../lib/config/index.ts";

export const TEST_ENCRYPTION_KEY = "0f".repeat(32);

export function baseTestEnv(): Record<string, string> {
  return {
    DBENGINE_PASSWORD: "testpassword",
    SESSION_SECRET: "test-session-secret-that-is-long-enough-0123",
    ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
    NODE_ENV: "test",
    // Nothing in a test reaches the regulator: a server that runs its scheduler tries a closed local port.
    REGULATOR_TICKERS_URL: "http://127.0.0.1:9/company_tickers_exchange.json",
    // Nor the releases API: a page of the app asks for the changelog.
    CHANGELOG_RELEASES_BASE_URL: "http://127.0.0.1:9",
    FX_RATES_BASE_URL: "http://127.0.0.1:9",
  };
}

export function testConfig(overrides: Record<string, string | undefined> = {}): Config {
  const env: Record<string, string> = baseTestEnv();
  for (const [k, v] of Object.entries(overrides)) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return parseConfig(env);
}

/** The local Postgres server every test database lives on (127.0.0.1:5432, trust auth). */
export const ADMIN_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/postgres";

export function databaseUrl(name: string, user = "postgres"): string {
  return `postgres://${user}@127.0.0.1:5432/${name}`;
}
