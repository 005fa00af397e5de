import { createHash } from "node:crypto";
import { DEFAULT_CREDIT_PACKS, parseCreditPacks, type CreditPack } from "./packs.ts";
import { parseModelPrices, type PriceOverrides } from "./prices.ts";
import type * as z from "zod/mini";
import {
  ConfigSchema,
  EMPTY_IS_A_VALUE,
  parseNginxSize,
  parseNginxTime,
  type ConfigValues,
  type ConfigVariable,
} from "./schema.ts";

export { ConfigSchema, DESIGN_VARIABLES, SEAM_VARIABLES, parseNginxSize, parseNginxTime, isCidr } from "./schema.ts";
export type { ConfigValues, ConfigVariable } from "./schema.ts";

export type Features = Readonly<{
  email: boolean;
  billing: boolean;
  pro: boolean;
  quotes: boolean;
  objectStorage: boolean;
  sharedStore: boolean;
  cors: boolean;
  metrics: boolean;
  analytics: boolean;
  browserAnalytics: boolean;
  /** The operator's Schwab app is set up (SCHWAB_CLIENT_ID, SCHWAB_CLIENT_SECRET, and a callback): traders can connect Schwab. */
  schwab: boolean;
}>;

export type Config = Readonly<
  ConfigValues & {
    features: Features;
    /** CSV_IMPORT_NGINX_PROXY_TIMEOUT in seconds. */
    proxyTimeoutSeconds: number;
    /** MAX_UPLOAD_SIZE in bytes. */
    maxUploadBytes: number;
    /** The URL migrations and the CLI use: DIRECT_DATABASE_URL when set, else DATABASE_URL. */
    migrationDatabaseUrl: string;
    /** CREDIT_PACKS, or the built-in packs. */
    creditPacks: readonly CreditPack[];
    /** MODEL_PRICES: overrides of the built-in model price table. */
    modelPrices: PriceOverrides;
  }
>;

export type ConfigProblem = { variable: string; message: string };

export class ConfigError extends Error {
  readonly problems: readonly ConfigProblem[];
  constructor(problems: ConfigProblem[]) {
    super(
      `Invalid configuration (${problems.length} problem${problems.length === 1 ? "" : "s"}):\n` +
        problems.map((p) => `  - ${p.variable}: ${p.message}`).join("\n"),
    );
    this.name = "ConfigError";
    this.problems = problems;
  }
}

export type EnvSource = Readonly<Record<string, unknown>>;

const EMAIL_VARIABLES = [
  "SMTP_HOST",
  "EMAIL_FROM",
  "SMTP_PORT",
  "SMTP_TLS_MODE",
  "SMTP_USER",
  "SMTP_PASS",
  "EMAIL_FROM_NAME",
] as const;
const EMAIL_TRIO = ["SMTP_HOST", "EMAIL_FROM", "WEB_BASE_URL"] as const;
const OBJECT_STORAGE_FOUR = [
  "OBJECT_STORAGE_ENDPOINT",
  "OBJECT_STORAGE_BUCKET",
  "OBJECT_STORAGE_ACCESS_KEY_ID",
  "OBJECT_STORAGE_SECRET_ACCESS_KEY",
] as const;

/** Keeps only string values and reads empty strings as unset, except where empty is meaningful. */
function normalise(env: EnvSource): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const key of Object.keys(ConfigSchema.shape) as ConfigVariable[]) {
    const raw = env[key];
    if (typeof raw !== "string") continue;
    if (raw.trim() === "" && !EMPTY_IS_A_VALUE.has(key)) continue;
    out[key] = raw;
  }
  return out;
}

/**
 * Parses an environment (process.env on Node, the bindings on a Worker) into a frozen Config.
 * Throws ConfigError naming every offending variable; values are never echoed (they may be secrets).
 */
export function parseConfig(env: EnvSource): Config {
  const raw = normalise(env);
  const problems: ConfigProblem[] = [];
  const values: Record<string, unknown> = {};
  const shape = ConfigSchema.shape as Record<string, z.ZodMiniType>;

  for (const [key, schema] of Object.entries(shape)) {
    const result = schema.safeParse(raw[key]);
    if (result.success) values[key] = result.data;
    else {
      const isMissing = raw[key] === undefined;
      problems.push({
        variable: key,
        message: isMissing ? "is required" : (result.error.issues[0]?.message ?? "is invalid"),
      });
    }
  }
  const ok = (...keys: string[]) => keys.every((k) => !problems.some((p) => p.variable === k));
  const v = values as ConfigValues;

  // Cross-variable rules (SPEC.md sections 1 and 8).
  if (ok("ENCRYPTION_KEY", "ENCRYPTION_KEY_FINGERPRINT") && v.ENCRYPTION_KEY_FINGERPRINT) {
    const actual = createHash("sha256").update(Buffer.from(v.ENCRYPTION_KEY, "hex")).digest("hex");
    if (actual !== v.ENCRYPTION_KEY_FINGERPRINT) {
      problems.push({
        variable: "ENCRYPTION_KEY_FINGERPRINT",
        message: "does not match the SHA-256 of ENCRYPTION_KEY (wrong key loaded?)",
      });
    }
  }

  const emailSet = EMAIL_VARIABLES.filter((k) => raw[k] !== undefined);
  const trioMissing = EMAIL_TRIO.filter((k) => raw[k] === undefined);
  if (emailSet.length > 0 && trioMissing.length > 0) {
    for (const k of trioMissing) {
      problems.push({
        variable: k,
        message: `is required because ${emailSet.join(", ")} ${emailSet.length === 1 ? "is" : "are"} set (email needs SMTP_HOST, EMAIL_FROM and WEB_BASE_URL together)`,
      });
    }
  }
  if ((raw.SMTP_USER === undefined) !== (raw.SMTP_PASS === undefined)) {
    const missing = raw.SMTP_USER === undefined ? "SMTP_USER" : "SMTP_PASS";
    const present = missing === "SMTP_USER" ? "SMTP_PASS" : "SMTP_USER";
    problems.push({ variable: missing, message: `is required because ${present} is set (SMTP_USER and SMTP_PASS go together)` });
  }

  let proxyTimeoutSeconds = 0;
  if (ok("CSV_IMPORT_NGINX_PROXY_TIMEOUT", "CSV_IMPORT_CLAIM_TIMEOUT_SECONDS")) {
    proxyTimeoutSeconds = parseNginxTime(v.CSV_IMPORT_NGINX_PROXY_TIMEOUT)!;
    if (v.CSV_IMPORT_CLAIM_TIMEOUT_SECONDS < 2 * proxyTimeoutSeconds) {
      problems.push({
        variable: "CSV_IMPORT_CLAIM_TIMEOUT_SECONDS",
        message: `must be at least 2 x CSV_IMPORT_NGINX_PROXY_TIMEOUT (${2 * proxyTimeoutSeconds} seconds)`,
      });
    }
  }
  let maxUploadBytes = 0;
  if (ok("MAX_UPLOAD_SIZE", "CSV_IMPORT_MAX_FILE_BYTES")) {
    maxUploadBytes = parseNginxSize(v.MAX_UPLOAD_SIZE)!;
    if (maxUploadBytes < v.CSV_IMPORT_MAX_FILE_BYTES) {
      problems.push({
        variable: "MAX_UPLOAD_SIZE",
        message: `must be at least CSV_IMPORT_MAX_FILE_BYTES (${v.CSV_IMPORT_MAX_FILE_BYTES} bytes)`,
      });
    }
  }

  let creditPacks = DEFAULT_CREDIT_PACKS;
  if (ok("CREDIT_PACKS") && v.CREDIT_PACKS) {
    const parsed = parseCreditPacks(v.CREDIT_PACKS);
    if ("error" in parsed) problems.push({ variable: "CREDIT_PACKS", message: parsed.error });
    else creditPacks = parsed.packs;
  }
  let modelPrices: PriceOverrides = {};
  if (ok("MODEL_PRICES") && v.MODEL_PRICES) {
    const parsed = parseModelPrices(v.MODEL_PRICES);
    if ("error" in parsed) problems.push({ variable: "MODEL_PRICES", message: parsed.error });
    else modelPrices = parsed.prices;
  }
  // Checkout's return URLs never come from a request header in cross-origin mode (DESIGN.md section 9).
  if (ok("PAYMENT_SECRET_KEY", "CORS_ALLOWED_ORIGINS", "WEB_BASE_URL") && v.PAYMENT_SECRET_KEY && v.CORS_ALLOWED_ORIGINS.length > 0 && !v.WEB_BASE_URL) {
    problems.push({ variable: "WEB_BASE_URL", message: "is required when billing (PAYMENT_SECRET_KEY) and CORS_ALLOWED_ORIGINS are both set: checkout returns there" });
  }

  if (problems.length > 0) throw new ConfigError(problems);

  const features: Features = Object.freeze({
    email: EMAIL_TRIO.every((k) => raw[k] !== undefined),
    billing: Boolean(v.PAYMENT_SECRET_KEY && v.PAYMENT_WEBHOOK_SECRET),
    pro: Boolean(v.PAYMENT_SECRET_KEY && v.PAYMENT_WEBHOOK_SECRET && v.PAYMENT_PRO_PRICE_ID),
    quotes: Boolean(v.STOCK_QUOTE_API_KEY),
    objectStorage: OBJECT_STORAGE_FOUR.every((k) => raw[k] !== undefined),
    sharedStore: Boolean(v.SHARED_STORE_URL),
    cors: v.CORS_ALLOWED_ORIGINS.length > 0,
    metrics: v.METRICS_ENABLED,
    analytics: Boolean(v.ANALYTICS_API_KEY),
    browserAnalytics: Boolean(v.ANALYTICS_PUBLIC_KEY),
    schwab: Boolean(v.SCHWAB_CLIENT_ID && v.SCHWAB_CLIENT_SECRET && (v.SCHWAB_REDIRECT_URI || v.WEB_BASE_URL)),
  });

  return Object.freeze({
    ...v,
    TRUSTED_PROXIES: Object.freeze([...v.TRUSTED_PROXIES]),
    CORS_ALLOWED_ORIGINS: Object.freeze([...v.CORS_ALLOWED_ORIGINS]),
    features,
    proxyTimeoutSeconds,
    maxUploadBytes,
    migrationDatabaseUrl: v.DIRECT_DATABASE_URL ?? v.DATABASE_URL,
    creditPacks,
    modelPrices,
  }) as Config;
}

/**
 * The process environment, with `.env` from the working directory merged underneath (real environment
 * variables win). The only place in the code base that reads process.env.
 */
export async function readProcessEnv(options: { dotenvPath?: string | false } = {}): Promise<Record<string, string>> {
  const merged: Record<string, string> = {};
  const path = options.dotenvPath ?? ".env";
  if (path !== false) {
    const { existsSync, readFileSync } = await import("node:fs");
    if (existsSync(path)) {
      const { parse } = await import("dotenv");
      Object.assign(merged, parse(readFileSync(path)));
    }
  }
  for (const [k, val] of Object.entries(process.env)) if (typeof val === "string") merged[k] = val;
  return merged;
}

/** Node: parse the environment or exit non-zero with a message naming every bad variable. */
export async function loadNodeConfigOrExit(): Promise<Config> {
  try {
    return parseConfig(await readProcessEnv());
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(
        `${err.message}\nSee docs/configuration.md for every variable. For a journal on this machine with nothing to set up, run \`npm run dev\` (it writes .env with fresh secrets and uses the embedded database), or \`npm run setup\` to write .env first.\n`,
      );
      process.exit(78); // EX_CONFIG
    }
    throw err;
  }
}
