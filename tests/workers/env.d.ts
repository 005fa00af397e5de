// The bindings tests/workers/vitest.config.ts gives the Worker under test.
declare namespace Cloudflare {
  interface Env {
    DBENGINE_PASSWORD: string;
    SESSION_SECRET: string;
    ENCRYPTION_KEY: string;
    NODE_ENV: string;
    DATABASE_URL: string;
    DB_HTTP_ENDPOINT: string;
    DB_WS_PROXY: string;
  }
}
