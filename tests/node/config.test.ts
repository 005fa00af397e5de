import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ConfigError, ConfigSchema, DESIGN_VARIABLES, SEAM_VARIABLES, parseConfig } from "../../lib/config/index.ts";
import { baseTestEnv, testConfig } from "../support/env.ts";

describe("configuration defaults and derived switches", () => {
  it("applies SPEC's defaults and turns every optional feature off", () => {
    const c = testConfig();
    expect(c.PORT).toBe(3100);
    expect(c.DB_POOL_SIZE).toBe(10);
    expect(c.TRUSTED_PROXIES).toEqual(["172.28.0.0/24"]);
    expect(c.WEEK_START_DAY).toBe(0);
    expect(c.CSV_IMPORT_MAX_FILE_BYTES).toBe(10485760);
    expect(c.CSV_IMPORT_MAX_REQUEST_BYTES).toBe(65536);
    expect(c.CSV_IMPORT_MAX_ROWS).toBe(10000);
    expect(c.CSV_IMPORT_STAGING_TTL_MINUTES).toBe(30);
    expect(c.CSV_IMPORT_MAX_STAGED_BYTES).toBe(25165824);
    expect(c.CSV_IMPORT_CLAIM_TIMEOUT_SECONDS).toBe(600);
    expect(c.proxyTimeoutSeconds).toBe(300);
    expect(c.maxUploadBytes).toBe(20 * 1024 * 1024);
    expect(c.RESERVATION_TTL_MS).toBe(600000);
    expect(c.PRICING_MARKUP).toBe("1.2");
    expect(c.MIN_RESERVATION_CREDITS).toBe(1);
    expect(c.SMTP_PORT).toBe(587);
    expect(c.SMTP_TLS_MODE).toBe("starttls");
    expect(c.METRICS_PORT).toBe(9464);
    expect(c.METRICS_HOST).toBe("0.0.0.0");
    expect(c.OBJECT_STORAGE_FORCE_PATH_STYLE).toBe(true);
    expect(c.APP_VERSION).toBeUndefined();
    expect(Object.values(c.features).every((on) => on === false)).toBe(true);
    expect(Object.isFrozen(c)).toBe(true);
  });

  it("computes each feature switch from its variables", () => {
    const c = testConfig({
      SMTP_HOST: "smtp.example.com",
      EMAIL_FROM: "Journal@Example.com",
      WEB_BASE_URL: "https://journal.example.com/",
      PAYMENT_SECRET_KEY: "sk_test",
      PAYMENT_WEBHOOK_SECRET: "whsec",
      PAYMENT_PRO_PRICE_ID: "price_1",
      STOCK_QUOTE_API_KEY: "q",
      OBJECT_STORAGE_ENDPOINT: "http://127.0.0.1:9000",
      OBJECT_STORAGE_BUCKET: "b",
      OBJECT_STORAGE_ACCESS_KEY_ID: "a",
      OBJECT_STORAGE_SECRET_ACCESS_KEY: "s",
      SHARED_STORE_URL: "redis://127.0.0.1:6379",
      CORS_ALLOWED_ORIGINS: "https://app.example.com, https://other.example.com:8443/",
      METRICS_ENABLED: "true",
      ANALYTICS_API_KEY: "k",
      ANALYTICS_PUBLIC_KEY: "pk",
    });
    expect(c.features).toEqual({
      email: true,
      billing: true,
      pro: true,
      quotes: true,
      objectStorage: true,
      sharedStore: true,
      cors: true,
      metrics: true,
      analytics: true,
      browserAnalytics: true,
      schwab: false,
    });
    expect(c.WEB_BASE_URL).toBe("https://journal.example.com");
    expect(c.EMAIL_FROM).toBe("journal@example.com");
    expect(c.CORS_ALLOWED_ORIGINS).toEqual(["https://app.example.com", "https://other.example.com:8443"]);
  });

  it("needs all of secret key, webhook secret and price id for Pro; empty counts as unset", () => {
    expect(testConfig({ PAYMENT_SECRET_KEY: "sk" }).features.billing).toBe(false);
    const c = testConfig({ PAYMENT_SECRET_KEY: "sk", PAYMENT_WEBHOOK_SECRET: "wh", PAYMENT_PRO_PRICE_ID: "" });
    expect(c.features.billing).toBe(true);
    expect(c.features.pro).toBe(false);
  });

  it("reads empty values as unset for the shared-store, pooler, object-storage and CORS group", () => {
    const c = testConfig({
      SHARED_STORE_URL: "",
      DIRECT_DATABASE_URL: "",
      DB_TRANSACTION_POOLER: "",
      OBJECT_STORAGE_ENDPOINT: "",
      OBJECT_STORAGE_BUCKET: "",
      OBJECT_STORAGE_ACCESS_KEY_ID: "",
      OBJECT_STORAGE_SECRET_ACCESS_KEY: "",
      OBJECT_STORAGE_REGION: "",
      OBJECT_STORAGE_FORCE_PATH_STYLE: "",
      CORS_ALLOWED_ORIGINS: "",
    });
    expect(c.SHARED_STORE_URL).toBeUndefined();
    expect(c.DB_TRANSACTION_POOLER).toBe(false);
    expect(c.OBJECT_STORAGE_FORCE_PATH_STYLE).toBe(true);
    expect(c.CORS_ALLOWED_ORIGINS).toEqual([]);
    expect(c.features.sharedStore || c.features.objectStorage || c.features.cors).toBe(false);
    expect(c.migrationDatabaseUrl).toBe(c.DATABASE_URL);
  });

  it("keeps object storage off while only some of the four variables are set", () => {
    expect(testConfig({ OBJECT_STORAGE_ENDPOINT: "http://127.0.0.1:9000", OBJECT_STORAGE_BUCKET: "b" }).features.objectStorage).toBe(false);
  });

  it("distinguishes APP_VERSION unset (stamp) from blank (dropped)", () => {
    expect(testConfig().APP_VERSION).toBeUndefined();
    expect(testConfig({ APP_VERSION: "" }).APP_VERSION).toBeNull();
    expect(testConfig({ APP_VERSION: " 2.3.4 " }).APP_VERSION).toBe("2.3.4");
  });

  it("migrates through DIRECT_DATABASE_URL when it is set", () => {
    const c = testConfig({ DATABASE_URL: "postgres://a@pooler:6543/db", DIRECT_DATABASE_URL: "postgres://a@direct:5432/db" });
    expect(c.migrationDatabaseUrl).toBe("postgres://a@direct:5432/db");
  });

  it("accepts a key whose fingerprint matches, in either case", () => {
    const key = "cd".repeat(32);
    const fingerprint = createHash("sha256").update(Buffer.from(key, "hex")).digest("hex").toUpperCase();
    expect(testConfig({ ENCRYPTION_KEY: key, ENCRYPTION_KEY_FINGERPRINT: fingerprint }).ENCRYPTION_KEY).toBe(key);
  });

  it("parses a well-formed feedback survey and ignores a malformed one", () => {
    expect(testConfig({ ANALYTICS_PUBLIC_FEEDBACK_SURVEY: "s1:q1:q2" }).ANALYTICS_PUBLIC_FEEDBACK_SURVEY).toEqual({
      surveyId: "s1",
      ratingQuestionId: "q1",
      textQuestionId: "q2",
    });
    expect(testConfig({ ANALYTICS_PUBLIC_FEEDBACK_SURVEY: "s1:q1" }).ANALYTICS_PUBLIC_FEEDBACK_SURVEY).toBeUndefined();
  });

  it("accepts nginx time and size spellings", () => {
    const c = testConfig({ CSV_IMPORT_NGINX_PROXY_TIMEOUT: "1h 30m", CSV_IMPORT_CLAIM_TIMEOUT_SECONDS: "10800", MAX_UPLOAD_SIZE: "1g" });
    expect(c.proxyTimeoutSeconds).toBe(5400);
    expect(c.maxUploadBytes).toBe(1024 ** 3);
  });

  it("takes a REST shared store only with its token, and never repeats the URL in the problem", () => {
    expect(testConfig({ SHARED_STORE_URL: "https://default:T0KEN@eu1-example.upstash.io" }).features.sharedStore).toBe(true);
    expect(testConfig({ SHARED_STORE_URL: "rediss://cache.example.com:6379" }).features.sharedStore).toBe(true);
    for (const url of ["https://eu1-example.upstash.io", "https://default@eu1-example.upstash.io", "https://default:@eu1-example.upstash.io"]) {
      try {
        testConfig({ SHARED_STORE_URL: url });
        expect.unreachable(url);
      } catch (err) {
        expect(err, url).toBeInstanceOf(ConfigError);
        const problems = (err as ConfigError).problems;
        expect(problems.map((p) => p.variable)).toEqual(["SHARED_STORE_URL"]);
        expect(problems[0]!.message).toMatch(/needs its token/);
        expect(JSON.stringify(problems)).not.toContain("upstash.io");
      }
    }
  });

  it("reports every problem at once in one ConfigError", () => {
    const env = { ...baseTestEnv(), SESSION_SECRET: "short", WEEK_START_DAY: "9", SMTP_PASS: "p" };
    try {
      parseConfig(env);
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      expect((err as ConfigError).problems.map((p) => p.variable).sort()).toEqual([
        "EMAIL_FROM",
        "SESSION_SECRET",
        "SMTP_HOST",
        "SMTP_USER",
        "WEB_BASE_URL",
        "WEEK_START_DAY",
      ]);
    }
  });
});

describe("docs/configuration.md", () => {
  const doc = readFileSync(new URL("../../docs/configuration.md", import.meta.url), "utf8");
  const documented = new Set([...doc.matchAll(/^\| `([A-Z0-9_]+)` \|/gm)].map((m) => m[1]!));
  const schemaKeys = Object.keys(ConfigSchema.shape);

  it("documents exactly the variables of the schema", () => {
    expect([...documented].sort()).toEqual([...schemaKeys].sort());
  });

  it("covers the 72 variables of SPEC.md plus the test seams and DESIGN.md's additions", () => {
    expect(schemaKeys.length - SEAM_VARIABLES.length - DESIGN_VARIABLES.length).toBe(72);
  });
});
