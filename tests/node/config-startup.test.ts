// Every configuration rule, proven on the real entrypoint: it must exit non-zero before touching the
// database and name the offending variable.
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { readProcessEnv } from "../../lib/config/index.ts";
import { baseTestEnv } from "../support/env.ts";

const ENTRY = fileURLToPath(new URL("../../functions/node.ts", import.meta.url));
const NODE = process.execPath;
// A directory without a .env, so only the variables given here are seen.
const CWD = mkdtempSync(join(tmpdir(), "journal-config-"));

function start(env: Record<string, string | undefined>): Promise<{ code: number | null; stderr: string }> {
  const full: Record<string, string> = { PATH: PATH ?? "" };
  for (const [k, v] of Object.entries({ ...baseTestEnv(), DATABASE_URL: "postgres://nobody@127.0.0.1:1/none", ...env })) {
    if (v !== undefined) full[k] = v;
  }
  return new Promise((resolve, reject) => {
    const child = spawn(NODE, [ENTRY], { cwd: CWD, env: full, stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    // Generous: dozens of entrypoints start at once here, and CI machines have two cores.
    const timer = setTimeout(() => child.kill("SIGKILL"), 90_000);
    child.on("error", reject);
    // "close", not "exit": the process may exit before its stderr is read to the end (seen under load: exit 78
    // with an empty message).
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });
}

const { PATH } = await readProcessEnv({ dotenvPath: false });
const KEY = "ab".repeat(32);

// [description, variables, every variable the message must name]
const cases: Array<[string, Record<string, string | undefined>, string[]]> = [
  ["DBENGINE_PASSWORD is required", { DBENGINE_PASSWORD: undefined }, ["DBENGINE_PASSWORD"]],
  ["DBENGINE_PASSWORD must be URL-safe", { DBENGINE_PASSWORD: "p@ss/word" }, ["DBENGINE_PASSWORD"]],
  ["SESSION_SECRET is required", { SESSION_SECRET: undefined }, ["SESSION_SECRET"]],
  ["SESSION_SECRET needs 32 characters", { SESSION_SECRET: "x".repeat(31) }, ["SESSION_SECRET"]],
  ["ENCRYPTION_KEY is required", { ENCRYPTION_KEY: undefined }, ["ENCRYPTION_KEY"]],
  ["ENCRYPTION_KEY must be 64 hex", { ENCRYPTION_KEY: "ab".repeat(31) }, ["ENCRYPTION_KEY"]],
  ["ENCRYPTION_KEY must be hex", { ENCRYPTION_KEY: "zz".repeat(32) }, ["ENCRYPTION_KEY"]],
  ["ENCRYPTION_KEY_PREVIOUS must be 64 hex", { ENCRYPTION_KEY_PREVIOUS: "abc" }, ["ENCRYPTION_KEY_PREVIOUS"]],
  [
    "ENCRYPTION_KEY_FINGERPRINT must match the key",
    { ENCRYPTION_KEY: KEY, ENCRYPTION_KEY_FINGERPRINT: "00".repeat(32) },
    ["ENCRYPTION_KEY_FINGERPRINT"],
  ],
  ["METRICS_ENABLED only true/false", { METRICS_ENABLED: "yes" }, ["METRICS_ENABLED"]],
  ["METRICS_ENABLED blank is not false", { METRICS_ENABLED: "" }, ["METRICS_ENABLED"]],
  ["FEATURE_GATING only true/false", { FEATURE_GATING: "1" }, ["FEATURE_GATING"]],
  ["DB_TRANSACTION_POOLER only true/false", { DB_TRANSACTION_POOLER: "TRUE" }, ["DB_TRANSACTION_POOLER"]],
  ["OBJECT_STORAGE_FORCE_PATH_STYLE only true/false", { OBJECT_STORAGE_FORCE_PATH_STYLE: "no" }, ["OBJECT_STORAGE_FORCE_PATH_STYLE"]],
  ["the email trio: SMTP_HOST alone", { SMTP_HOST: "smtp.example.com" }, ["EMAIL_FROM", "WEB_BASE_URL"]],
  [
    "the email trio: another email variable alone",
    { EMAIL_FROM_NAME: "Journal" },
    ["SMTP_HOST", "EMAIL_FROM", "WEB_BASE_URL"],
  ],
  ["SMTP_USER needs SMTP_PASS", { SMTP_USER: "u" }, ["SMTP_PASS"]],
  ["SMTP_PASS needs SMTP_USER", { SMTP_PASS: "p" }, ["SMTP_USER"]],
  ["SMTP_TLS_MODE enum", { SMTP_TLS_MODE: "ssl" }, ["SMTP_TLS_MODE"]],
  ["EMAIL_FROM_NAME without CR/LF", { EMAIL_FROM_NAME: "Journal\r\nBcc: x@example.com" }, ["EMAIL_FROM_NAME"]],
  ["WEB_BASE_URL origin only (path)", { WEB_BASE_URL: "https://journal.example.com/app" }, ["WEB_BASE_URL"]],
  ["WEB_BASE_URL origin only (query)", { WEB_BASE_URL: "https://journal.example.com/?x=1" }, ["WEB_BASE_URL"]],
  ["WEB_BASE_URL origin only (fragment)", { WEB_BASE_URL: "https://journal.example.com#top" }, ["WEB_BASE_URL"]],
  ["WEEK_START_DAY 0 or 1", { WEEK_START_DAY: "2" }, ["WEEK_START_DAY"]],
  ["PRICING_MARKUP decimal string", { PRICING_MARKUP: "20%" }, ["PRICING_MARKUP"]],
  ["RESERVATION_TTL_MS above 480000", { RESERVATION_TTL_MS: "480000" }, ["RESERVATION_TTL_MS"]],
  [
    "CSV_IMPORT_CLAIM_TIMEOUT_SECONDS at least twice the proxy timeout",
    { CSV_IMPORT_CLAIM_TIMEOUT_SECONDS: "599" },
    ["CSV_IMPORT_CLAIM_TIMEOUT_SECONDS"],
  ],
  [
    "the claim timeout follows a changed proxy timeout",
    { CSV_IMPORT_NGINX_PROXY_TIMEOUT: "10m" },
    ["CSV_IMPORT_CLAIM_TIMEOUT_SECONDS"],
  ],
  ["CSV_IMPORT_NGINX_PROXY_TIMEOUT nginx syntax", { CSV_IMPORT_NGINX_PROXY_TIMEOUT: "five minutes" }, ["CSV_IMPORT_NGINX_PROXY_TIMEOUT"]],
  ["MAX_UPLOAD_SIZE at least the CSV file cap", { MAX_UPLOAD_SIZE: "5m" }, ["MAX_UPLOAD_SIZE"]],
  ["MAX_UPLOAD_SIZE nginx syntax", { MAX_UPLOAD_SIZE: "20MB" }, ["MAX_UPLOAD_SIZE"]],
  ["PORT is a port", { PORT: "70000" }, ["PORT"]],
  ["DB_POOL_SIZE is a number", { DB_POOL_SIZE: "ten" }, ["DB_POOL_SIZE"]],
  ["TRUSTED_PROXIES are CIDR ranges", { TRUSTED_PROXIES: "172.28.0.0/33" }, ["TRUSTED_PROXIES"]],
  ["CORS_ALLOWED_ORIGINS never a wildcard", { CORS_ALLOWED_ORIGINS: "*" }, ["CORS_ALLOWED_ORIGINS"]],
  ["SHARED_STORE_URL scheme", { SHARED_STORE_URL: "memcached://x" }, ["SHARED_STORE_URL"]],
  ["SHARED_STORE_URL REST store without its token", { SHARED_STORE_URL: "https://eu1-example.upstash.io" }, ["SHARED_STORE_URL"]],
  ["NODE_ENV enum", { NODE_ENV: "staging" }, ["NODE_ENV"]],
  [
    "every bad variable is named at once",
    { SESSION_SECRET: "short", WEEK_START_DAY: "7", METRICS_ENABLED: "on", SMTP_USER: "u", MAX_UPLOAD_SIZE: "1k" },
    ["SESSION_SECRET", "WEEK_START_DAY", "METRICS_ENABLED", "SMTP_PASS", "MAX_UPLOAD_SIZE"],
  ],
];

describe("the Node entrypoint refuses a bad configuration", () => {
  it.concurrent.each(cases)("%s", async (_name, env, named) => {
    const { code, stderr } = await start(env);
    expect(code).toBe(78);
    for (const variable of named) expect(stderr).toMatch(new RegExp(`- ${variable}:`));
    // Values may be secrets: the message names variables, never echoes what they were set to.
    for (const secret of ["SESSION_SECRET", "ENCRYPTION_KEY", "ENCRYPTION_KEY_PREVIOUS", "DBENGINE_PASSWORD", "SMTP_PASS"]) {
      const value = env[secret];
      if (value && value.length > 3) expect(stderr).not.toContain(value);
    }
  }, 120_000);

  it("starts past configuration when everything is valid (then fails on the unreachable database with exit 1)", async () => {
    const { code, stderr } = await start({ SMTP_HOST: "smtp.example.com", EMAIL_FROM: "a@example.com", WEB_BASE_URL: "https://x.example/" });
    expect(stderr).not.toContain("Invalid configuration");
    expect(code).toBe(1);
  }, 120_000);
});
