// Types for the Worker under test: the bindings tests/workers/vitest.config.ts gives it, and its main
// module (what `exports.default` from cloudflare:workers calls).
declare namespace Cloudflare {
  interface Env {
    DBENGINE_PASSWORD: string;
    SESSION_SECRET: string;
    ENCRYPTION_KEY: string;
    NODE_ENV: string;
    DATABASE_URL: string;
    DB_HTTP_ENDPOINT: string;
    DB_WS_PROXY: string;
    OBJECT_STORAGE_ENDPOINT: string;
    OBJECT_STORAGE_BUCKET: string;
    OBJECT_STORAGE_ACCESS_KEY_ID: string;
    OBJECT_STORAGE_SECRET_ACCESS_KEY: string;
    OBJECT_STORAGE_REGION: string;
  }
  interface GlobalProps {
    mainModule: typeof import("../../functions/workers/all.ts");
  }
}
