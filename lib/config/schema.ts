import * as z from "zod/mini";

// One schema for every deployment-time variable (SPEC.md section 1) plus the outbound test seams
// (DESIGN.md section 5). Each field validates one variable on its own; rules that involve several
// variables live in config/index.ts so a bad value in one never hides a problem in another.
// zod/mini keeps every Worker bundle small (the full zod build is ~90 KB gzip).

const str = () => z.string();
const optionalStr = () => z.optional(z.string());
const rule = <T>(fn: (v: T) => boolean, message: string) => z.refine<T>(fn, message);

function hasUrlPassword(v: string): boolean {
  try {
    return new URL(v).password !== "";
  } catch {
    return false;
  }
}

function int(min: number, max: number, def: number) {
  return z._default(
    z.pipe(
      z.string().check(z.regex(/^\d+$/, "must be a whole number")),
      z.pipe(
        z.transform(Number),
        z.number().check(z.minimum(min, `must be at least ${min}`), z.maximum(max, `must be at most ${max}`)),
      ),
    ),
    def,
  );
}

/** Only the literals `true` and `false` parse. */
function strictBool(def: boolean) {
  return z.pipe(
    z._default(z.enum(["true", "false"], { error: "must be exactly true or false" }), def ? "true" : "false"),
    z.transform((v) => v === "true"),
  );
}

function isHttpUrl(v: string): boolean {
  try {
    const u = new URL(v);
    return u.protocol === "http:" || u.protocol === "https:";
  } catch {
    return false;
  }
}

const httpUrl = () => z.string().check(rule(isHttpUrl, "must be an http(s) URL"));

function isOrigin(v: string): boolean {
  if (/[?#]/.test(v)) return false;
  try {
    const u = new URL(v);
    return (
      (u.protocol === "http:" || u.protocol === "https:") &&
      u.username === "" &&
      u.password === "" &&
      u.pathname === "/"
    );
  } catch {
    return false;
  }
}

const origin = () =>
  z.pipe(
    z.string().check(rule(isOrigin, "must be an origin only (scheme, host, optional port), without path, query or fragment")),
    z.transform((v) => new URL(v).origin),
  );

const NGINX_TIME_UNITS: Record<string, number> = { ms: 0.001, s: 1, m: 60, h: 3600, d: 86400, w: 604800, M: 2592000, y: 31536000 };

/** nginx time syntax ("300s", "5m", "1h 30m", bare number = seconds) to seconds. */
export function parseNginxTime(v: string): number | null {
  const parts = v.trim().split(/\s+/);
  let total = 0;
  for (const p of parts) {
    const m = /^(\d+)(ms|s|m|h|d|w|M|y)?$/.exec(p);
    if (!m) return null;
    total += Number(m[1]) * NGINX_TIME_UNITS[m[2] ?? "s"]!;
  }
  return total;
}

/** nginx size syntax ("20m", "512k", "1g", bare number = bytes) to bytes. */
export function parseNginxSize(v: string): number | null {
  const m = /^(\d+)([kKmMgG]?)$/.exec(v.trim());
  if (!m) return null;
  const unit = (m[2] ?? "").toLowerCase();
  const mult = unit === "k" ? 1024 : unit === "m" ? 1024 ** 2 : unit === "g" ? 1024 ** 3 : 1;
  return Number(m[1]) * mult;
}

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

function isIpv6(v: string): boolean {
  if (!/^[0-9a-fA-F:.]+$/.test(v) || !v.includes(":")) return false;
  try {
    new URL(`http://[${v}]/`);
    return true;
  } catch {
    return false;
  }
}

/** An IP address or CIDR range, IPv4 or IPv6. */
export function isCidr(v: string): boolean {
  const [addr, bits, extra] = v.split("/");
  if (extra !== undefined || !addr) return false;
  const v4 = IPV4.test(addr);
  if (!v4 && !isIpv6(addr)) return false;
  if (bits === undefined) return true;
  if (!/^\d+$/.test(bits)) return false;
  return Number(bits) <= (v4 ? 32 : 128);
}

const splitList = (v: string) =>
  v
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
const list = () => z.pipe(z.string(), z.transform(splitList));

const hex64 = () => z.string().check(z.regex(/^[0-9a-fA-F]{64}$/, "must be exactly 64 hexadecimal characters (32 bytes)"));

const email = () =>
  z.pipe(
    z.pipe(
      z.string(),
      z.transform((v) => v.trim().toLowerCase()),
    ),
    z.email("must be an email address"),
  );

const isPostgresUrl = (v: string) => /^postgres(ql)?:\/\/.+/.test(v);

export const ConfigSchema = z.object({
  // Required
  DBENGINE_PASSWORD: str().check(
    z.minLength(1, "is required"),
    z.regex(/^[A-Za-z0-9._~-]+$/, "must be URL-safe (letters, digits, . _ ~ -); hex is recommended"),
  ),
  SESSION_SECRET: str().check(z.minLength(32, "must be at least 32 characters")),
  ENCRYPTION_KEY: hex64(),

  // Database
  DBENGINE_USER: z._default(str(), "journal"),
  DBENGINE_DB: z._default(str(), "journal"),
  DATABASE_URL: z._default(
    str().check(
      rule(
        (v: string) => /^pglite:/.test(v) || isPostgresUrl(v),
        "must be a postgres:// URL or an embedded pglite: URL (pglite:./path or pglite:memory)",
      ),
    ),
    "postgres://journal:journal@localhost:5433/journal",
  ),
  DB_POOL_SIZE: int(1, 1000, 10),
  /** Node server: requests handled at once; more wait in a queue, and past it are answered 503 (lib/http/shed.ts). */
  MAX_CONCURRENT_REQUESTS: int(1, 100_000, 64),
  MAX_QUEUED_REQUESTS: int(0, 1_000_000, 512),
  QUEUE_TIMEOUT_MS: int(1, 600_000, 2000),
  MIGRATE_TEST_DATABASE_URL: z._default(str(), "postgres://journal:journal@localhost:5433/journal_migrate_test"),
  MIGRATE_TEST_USER_DATABASE_URL: z._default(
    str(),
    "postgres://journal_migrator:journal_migrator@localhost:5433/journal_migrate_user_test",
  ),
  DIRECT_DATABASE_URL: z.optional(str().check(rule(isPostgresUrl, "must be a postgres:// URL"))),
  DB_TRANSACTION_POOLER: strictBool(false),
  SKIP_POST_MIGRATIONS: strictBool(false),

  // Instance
  DISABLE_REGISTRATION: strictBool(false),
  PORT: int(1, 65535, 3100),
  NODE_ENV: z._default(
    z.enum(["development", "production", "test"], { error: "must be development, production or test" }),
    "development",
  ),
  TRUSTED_PROXIES: z._default(
    list().check(rule((l: string[]) => l.every(isCidr), "must be a comma-separated list of IP addresses or CIDR ranges")),
    ["172.28.0.0/24"],
  ),
  WEEK_START_DAY: z.pipe(
    z._default(z.enum(["0", "1"], { error: "must be 0 (Sunday) or 1 (Monday)" }), "0"),
    z.transform(Number),
  ),
  WEB_PORT: int(1, 65535, 8080),
  /** Strict-Transport-Security max-age, sent only on requests that came over TLS; 0: no header. */
  HSTS_MAX_AGE: int(0, 999_999_999, 31_536_000),
  /** Requests a minute one user's bar provider key may make (docs/charts.md): Polygon's free tier allows 5. */
  BARS_REQUESTS_PER_MINUTE: int(1, 100_000, 5),
  API_BASE_URL: z.optional(httpUrl()),
  NEWSLETTER_URL: z.optional(httpUrl()),
  /** undefined: use the build stamp; null: set blank, drop the version. */
  APP_VERSION: z.pipe(
    z.optional(z.string()),
    z.transform((v) => (v === undefined ? undefined : v.trim() === "" ? null : v.trim())),
  ),
  CSV_IMPORT_NGINX_PROXY_TIMEOUT: z._default(
    str().check(rule((v: string) => (parseNginxTime(v) ?? 0) > 0, "must be an nginx time such as 300s or 5m")),
    "300s",
  ),
  MAX_UPLOAD_SIZE: z._default(
    str().check(rule((v: string) => (parseNginxSize(v) ?? 0) > 0, "must be an nginx size such as 20m or 512k")),
    "20m",
  ),

  // Metrics
  METRICS_ENABLED: strictBool(false),
  METRICS_PORT: int(1, 65535, 9464),
  METRICS_HOST: z._default(str(), "0.0.0.0"),

  // Encryption
  ENCRYPTION_KEY_PREVIOUS: z.optional(hex64()),
  ENCRYPTION_KEY_FINGERPRINT: z.optional(z.pipe(hex64(), z.transform((v) => v.toLowerCase()))),

  // CSV import
  CSV_IMPORT_MAX_FILE_BYTES: int(1, Number.MAX_SAFE_INTEGER, 10485760),
  CSV_IMPORT_MAX_REQUEST_BYTES: int(1, Number.MAX_SAFE_INTEGER, 65536),
  CSV_IMPORT_MAX_ROWS: int(1, 10_000_000, 10000),
  CSV_IMPORT_STAGING_TTL_MINUTES: int(1, 525600, 30),
  CSV_IMPORT_MAX_STAGED_BYTES: int(1, Number.MAX_SAFE_INTEGER, 25165824),
  CSV_IMPORT_CLAIM_TIMEOUT_SECONDS: int(1, 31536000, 600),

  // The complete archive's import (POST /api/archive): the largest archive taken, in bytes.
  ARCHIVE_IMPORT_MAX_BYTES: int(1, Number.MAX_SAFE_INTEGER, 1073741824),

  // Billing and credits
  PAYMENT_SECRET_KEY: optionalStr(),
  PAYMENT_WEBHOOK_SECRET: optionalStr(),
  /** The operator's Schwab Trader API app (broker sync, docs/imports.md): both set, traders can connect Schwab. */
  SCHWAB_CLIENT_ID: optionalStr(),
  SCHWAB_CLIENT_SECRET: optionalStr(),
  /** The app's registered callback, exactly (https); unset: WEB_BASE_URL + /api/accounts/broker-oauth/schwab/callback. */
  SCHWAB_REDIRECT_URI: z.optional(httpUrl()),
  PAYMENT_PUBLISHABLE_KEY: optionalStr(),
  PAYMENT_PRO_PRICE_ID: optionalStr(),
  MIN_RESERVATION_CREDITS: int(0, 1_000_000_000, 1),
  RESERVATION_TTL_MS: z._default(
    z.pipe(
      z.string().check(z.regex(/^\d+$/, "must be a whole number of milliseconds")),
      z.pipe(z.transform(Number), z.number().check(z.gt(480000, "must be greater than the 480000 ms per-turn budget"))),
    ),
    600000,
  ),
  PRICING_MARKUP: z._default(
    str().check(rule((v: string) => /^\d+(\.\d+)?$/.test(v) && Number(v) > 0, "must be a positive decimal string such as 1.2")),
    "1.2",
  ),
  FEATURE_GATING: strictBool(false),
  /** DESIGN.md section 11: the yearly risk-free rate of the Greeks at entry (Black-Scholes), a decimal such as 0.04. */
  RISK_FREE_RATE: z._default(
    str().check(rule((v: string) => /^\d(\.\d+)?$/.test(v) && Number(v) < 1, "must be a decimal rate from 0 to less than 1, such as 0.04")),
    "0.04",
  ),
  SEED_ADMIN_EMAIL: z.optional(email()),
  /** DESIGN.md section 9: JSON replacing the built-in credit packs (validated in config/index.ts). */
  CREDIT_PACKS: optionalStr(),
  /** DESIGN.md section 9: JSON overriding the advisor's model price table (validated in config/index.ts). */
  MODEL_PRICES: optionalStr(),

  // Changelog, quotes, symbols
  CHANGELOG_RELEASES_REPO: z._default(
    str().check(z.regex(/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/, "must be an owner/repo slug")),
    "trading-journal/trading-journal",
  ),
  CHANGELOG_RELEASES_BASE_URL: z._default(httpUrl(), "https://api.github.com"),
  STOCK_QUOTE_API_KEY: optionalStr(),
  STOCK_QUOTE_BASE_URL: z.optional(httpUrl()),
  REGULATOR_TICKERS_USER_AGENT: z._default(str(), "TradingJournal/1.0 (self-hosted instance)"),
  REGULATOR_TICKERS_URL: z._default(httpUrl(), "https://www.sec.gov/files/company_tickers_exchange.json"),

  // Email
  SMTP_HOST: optionalStr(),
  EMAIL_FROM: z.optional(email()),
  WEB_BASE_URL: z.optional(origin()),
  SMTP_PORT: int(1, 65535, 587),
  SMTP_TLS_MODE: z._default(
    z.enum(["implicit", "starttls", "none"], { error: "must be one of implicit, starttls, none" }),
    "starttls",
  ),
  SMTP_USER: optionalStr(),
  SMTP_PASS: optionalStr(),
  EMAIL_FROM_NAME: z.optional(str().check(rule((v: string) => !/[\r\n]/.test(v), "must not contain CR or LF"))),

  // Analytics
  ANALYTICS_API_KEY: optionalStr(),
  ANALYTICS_HOST: z.optional(httpUrl()),
  ANALYTICS_ENVIRONMENT: optionalStr(),
  ANALYTICS_PUBLIC_KEY: optionalStr(),
  ANALYTICS_PUBLIC_HOST: z.optional(httpUrl()),
  ANALYTICS_PUBLIC_ENVIRONMENT: optionalStr(),
  /** Malformed means no feedback tab: never a startup error. */
  ANALYTICS_PUBLIC_FEEDBACK_SURVEY: z.pipe(
    z.optional(z.string()),
    z.transform((v) => {
      const m = v ? /^([^:\s]+):([^:\s]+):([^:\s]+)$/.exec(v) : null;
      return m ? { surveyId: m[1]!, ratingQuestionId: m[2]!, textQuestionId: m[3]! } : undefined;
    }),
  ),

  // Shared rate-limit store, object storage, CORS
  SHARED_STORE_URL: z.optional(
    str().check(
      rule((v: string) => /^(https|rediss?):\/\/.+/.test(v), "must be an https:// (REST) or redis:// URL"),
      // Without its token every call to a REST store fails, and limits would run degraded for good.
      rule((v: string) => !/^https:/.test(v) || hasUrlPassword(v), "an https:// (REST) store needs its token: https://default:TOKEN@host"),
    ),
  ),
  OBJECT_STORAGE_ENDPOINT: z.optional(httpUrl()),
  OBJECT_STORAGE_BUCKET: optionalStr(),
  OBJECT_STORAGE_ACCESS_KEY_ID: optionalStr(),
  OBJECT_STORAGE_SECRET_ACCESS_KEY: optionalStr(),
  OBJECT_STORAGE_REGION: optionalStr(),
  OBJECT_STORAGE_FORCE_PATH_STYLE: strictBool(true),
  CORS_ALLOWED_ORIGINS: z._default(
    z.pipe(
      list().check(
        rule(
          (l: string[]) => l.every((o) => o !== "*" && isOrigin(o)),
          "must be a comma-separated list of exact origins (no wildcard, no path)",
        ),
      ),
      z.transform((l) => l.map((o) => new URL(o).origin)),
    ),
    [],
  ),

  // Outbound test seams (DESIGN.md section 5); production leaves them unset
  PAYMENT_API_BASE_URL: z.optional(httpUrl()),
  MARKET_DATA_BASE_URL: z.optional(httpUrl()),
  /** The bar provider (Polygon.io, docs/charts.md). */
  BARS_BASE_URL: z.optional(httpUrl()),
  /** Interactive Brokers' Flex Web Service (broker sync, docs/imports.md); unset: https://ndcdyn.interactivebrokers.com. */
  FLEX_BASE_URL: z.optional(httpUrl()),
  /** How long a sync waits before asking again for a statement being generated (2000 ms); tests shorten it. */
  FLEX_POLL_MS: int(10, 60000, 2000),
  /** Alpaca's Trading API (broker sync); unset: https://api.alpaca.markets (https://paper-api.alpaca.markets for a paper connection). */
  ALPACA_BASE_URL: z.optional(httpUrl()),
  /** Kraken's REST API (broker sync); unset: https://api.kraken.com. */
  KRAKEN_BASE_URL: z.optional(httpUrl()),
  /** Coinbase's Advanced Trade API (broker sync); unset: https://api.coinbase.com. */
  COINBASE_BASE_URL: z.optional(httpUrl()),
  /** tastytrade's Open API (broker sync); unset: https://api.tastyworks.com (https://api.cert.tastyworks.com for a sandbox connection). */
  TASTYTRADE_BASE_URL: z.optional(httpUrl()),
  /** Tradovate's REST API with its version (broker sync); unset: https://live.tradovateapi.com/v1 (https://demo.tradovateapi.com/v1 for a demo connection). */
  TRADOVATE_BASE_URL: z.optional(httpUrl()),
  /** Schwab's Trader API (broker sync); unset: https://api.schwabapi.com. */
  SCHWAB_BASE_URL: z.optional(httpUrl()),
  /** The daily reference rates (a Frankfurter-compatible service, docs/currencies.md); unset: https://api.frankfurter.app. */
  FX_RATES_BASE_URL: z.optional(httpUrl()),
  /** The first wait before a broker's throttled (429) or failing (5xx) answer is asked again, doubling (1000 ms); tests shorten it. */
  BROKER_RETRY_MS: int(10, 60000, 1000),
  OPENAI_BASE_URL: z.optional(httpUrl()),
  ANTHROPIC_BASE_URL: z.optional(httpUrl()),
  GEMINI_BASE_URL: z.optional(httpUrl()),
  OPENROUTER_BASE_URL: z.optional(httpUrl()),
  /** The advisor's whole-turn budget (480000 ms, SPEC.md section 8); tests shorten it. */
  ADVISOR_TURN_BUDGET_MS: int(1000, 480000, 480000),
  /** How often a quiet advisor stream sends a keepalive comment (15000 ms); tests shorten it. */
  ADVISOR_KEEPALIVE_MS: int(100, 60000, 15000),
  /** How long a conversation's claim by a turn lasts unrenewed (60000 ms; renewed every half); tests shorten it. */
  ADVISOR_CLAIM_LEASE_MS: int(500, 600000, 60000),
  /** Email HTTP API (Resend's) used by Workers, which cannot speak SMTP. */
  EMAIL_API_BASE_URL: z.optional(httpUrl()),
  /** Where the serverless driver sends SQL over HTTP; unset means the provider's own endpoint. */
  DB_HTTP_ENDPOINT: z.optional(httpUrl()),
  /** The WebSocket proxy for the rare interactive transaction on the edge; unset means the provider's own. */
  DB_WS_PROXY: z.optional(str().check(z.regex(/^wss?:\/\/\S+$/, "must be a ws:// or wss:// URL"))),
});

export type ConfigInput = z.input<typeof ConfigSchema>;
export type ConfigValues = z.output<typeof ConfigSchema>;
export type ConfigVariable = keyof typeof ConfigSchema.shape;

/**
 * Variables beside SPEC.md's 72 and the test seams: DESIGN.md's (CREDIT_PACKS, MODEL_PRICES) and the
 * project's own decisions, each in docs/configuration.md (HSTS_MAX_AGE: docs/operations.md, "TLS").
 */
export const DESIGN_VARIABLES: readonly ConfigVariable[] = [
  "CREDIT_PACKS", "MODEL_PRICES", "HSTS_MAX_AGE", "BARS_REQUESTS_PER_MINUTE", "ARCHIVE_IMPORT_MAX_BYTES", "RISK_FREE_RATE",
  "SCHWAB_CLIENT_ID", "SCHWAB_CLIENT_SECRET", "SCHWAB_REDIRECT_URI",
  "MAX_CONCURRENT_REQUESTS", "MAX_QUEUED_REQUESTS", "QUEUE_TIMEOUT_MS",
];

/** The outbound test seams (DESIGN.md section 5) and the database transport's. */
export const SEAM_VARIABLES: readonly ConfigVariable[] = [
  "PAYMENT_API_BASE_URL",
  "MARKET_DATA_BASE_URL",
  "BARS_BASE_URL",
  "FLEX_BASE_URL",
  "FLEX_POLL_MS",
  "ALPACA_BASE_URL",
  "KRAKEN_BASE_URL",
  "COINBASE_BASE_URL",
  "TASTYTRADE_BASE_URL",
  "TRADOVATE_BASE_URL",
  "SCHWAB_BASE_URL",
  "BROKER_RETRY_MS",
  "FX_RATES_BASE_URL",
  "OPENAI_BASE_URL",
  "ANTHROPIC_BASE_URL",
  "GEMINI_BASE_URL",
  "OPENROUTER_BASE_URL",
  "EMAIL_API_BASE_URL",
  "ADVISOR_TURN_BUDGET_MS",
  "ADVISOR_KEEPALIVE_MS",
  "ADVISOR_CLAIM_LEASE_MS",
  "DB_HTTP_ENDPOINT",
  "DB_WS_PROXY",
];

/**
 * Empty means "keep the literal": APP_VERSION (blank drops the version) and the booleans whose only
 * accepted values are the literals true/false. Every other empty value is read as unset, which is what
 * SPEC.md requires for the shared-store, pooler, object-storage and CORS group and what a compose file
 * that passes `VAR: ${VAR:-}` for everything needs.
 */
export const EMPTY_IS_A_VALUE: ReadonlySet<ConfigVariable> = new Set<ConfigVariable>([
  "APP_VERSION",
  "METRICS_ENABLED",
  "FEATURE_GATING",
]);
