// The self-hosting files, checked without a Docker engine: docker-compose.yml through a YAML parser and a
// compose-style interpolation, the web container's start-up scripts run with real shells, and the nginx
// template rendered the way the image renders it, then checked (`nginx -t`) and served by a real nginx.
// Only the nginx part needs a binary (Debian package nginx-light); it is skipped, saying so, without one.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import http, { type IncomingHttpHeaders } from "node:http";
import { createServer as createNetServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { fileURLToPath } from "node:url";
import vm from "node:vm";
import { parse as parseDotenv } from "dotenv";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { ConfigSchema, DESIGN_VARIABLES, parseConfig, readProcessEnv, SEAM_VARIABLES } from "../../lib/config/index.ts";
import { browserConfig } from "../../lib/web-config.ts";
import { API_CONTENT_POLICY, webContentPolicy } from "../../lib/http/csp.ts";
import { baseTestEnv, testConfig } from "../support/env.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const read = (rel: string) => readFileSync(join(ROOT, rel), "utf8");
const { PATH = "/usr/local/bin:/usr/bin:/bin" } = await readProcessEnv({ dotenvPath: false });
const TMP = mkdtempSync(join(tmpdir(), "journal-deploy-"));
afterAll(() => rmSync(TMP, { recursive: true, force: true }));

function onPath(name: string, extra: string[] = []): string | undefined {
  for (const dir of [...PATH.split(delimiter), ...extra]) {
    if (dir && existsSync(join(dir, name))) return join(dir, name);
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------------------
// docker-compose.yml
// ---------------------------------------------------------------------------------------------------------

type Env = Record<string, string | undefined>;

class MissingVariable extends Error {}

/** Compose's interpolation: $$, $NAME, ${NAME}, ${NAME:-default}, ${NAME-default}, ${NAME:?err}, ${NAME?err}, ${NAME:+alt}, nested. */
function interpolate(input: string, env: Env): string {
  let out = "";
  let i = 0;
  while (i < input.length) {
    const c = input[i]!;
    if (c !== "$") {
      out += c;
      i++;
      continue;
    }
    const next = input[i + 1];
    if (next === "$") {
      out += "$";
      i += 2;
    } else if (next === "{") {
      let depth = 1;
      let j = i + 2;
      for (; j < input.length && depth > 0; j++) {
        if (input[j] === "{") depth++;
        else if (input[j] === "}") depth--;
      }
      if (depth !== 0) throw new Error(`unterminated \${ in ${input}`);
      out += expandBraced(input.slice(i + 2, j - 1), env);
      i = j;
    } else {
      const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(input.slice(i + 1))?.[0];
      if (name) {
        out += env[name] ?? "";
        i += 1 + name.length;
      } else {
        out += "$";
        i++;
      }
    }
  }
  return out;
}

function expandBraced(body: string, env: Env): string {
  const m = /^([A-Za-z_][A-Za-z0-9_]*)(?:(:?)([-?+])([\s\S]*))?$/.exec(body);
  if (!m) throw new Error(`bad substitution \${${body}}`);
  const [, name, colon, op, arg = ""] = m;
  const value = env[name!];
  const unset = value === undefined || (colon === ":" && value === "");
  if (!op) return value ?? "";
  if (op === "-") return unset ? interpolate(arg, env) : value!;
  if (op === "+") return unset ? "" : interpolate(arg, env);
  if (unset) throw new MissingVariable(`${name}: ${interpolate(arg, env)}`);
  return value!;
}

function resolveDeep(node: unknown, env: Env): unknown {
  if (typeof node === "string") return interpolate(node, env);
  if (Array.isArray(node)) return node.map((n) => resolveDeep(n, env));
  if (node && typeof node === "object") {
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, resolveDeep(v, env)]));
  }
  return node;
}

type Service = {
  image?: string;
  build?: { context?: string; dockerfile?: string; args?: Record<string, string> };
  env_file?: string | Array<string | { path: string }>;
  environment?: Record<string, string | number | boolean | null> | string[];
  ports?: unknown[];
  expose?: unknown[];
  volumes?: string[];
  networks?: string[] | Record<string, unknown>;
  depends_on?: Record<string, { condition?: string }> | string[];
  healthcheck?: { test: string | string[] };
  network_mode?: string;
};
type Compose = {
  services: Record<string, Service>;
  networks?: Record<string, { ipam?: { config?: Array<{ subnet?: string }> } }>;
  volumes?: Record<string, unknown>;
};

const RAW_COMPOSE = parseYaml(read("docker-compose.yml")) as Compose;
const PASSWORD = "0123456789abcdef";

function compose(env: Env = { DBENGINE_PASSWORD: PASSWORD }): Compose {
  return resolveDeep(RAW_COMPOSE, env) as Compose;
}

function environmentOf(service: Service): Record<string, string> {
  const e = service.environment ?? {};
  if (Array.isArray(e)) {
    return Object.fromEntries(e.map((line) => [line.split("=")[0]!, line.slice(line.indexOf("=") + 1)]));
  }
  return Object.fromEntries(Object.entries(e).map(([k, v]) => [k, v == null ? "" : String(v)]));
}

function envFilesOf(service: Service): string[] {
  const f = service.env_file;
  if (f === undefined) return [];
  return (Array.isArray(f) ? f : [f]).map((x) => (typeof x === "string" ? x : x.path));
}

/** What the container's process sees: the env file underneath, `environment:` on top (compose's precedence). */
function containerEnv(service: Service, envFile: Record<string, string>): Record<string, string> {
  return { ...(envFilesOf(service).length > 0 ? envFile : {}), ...environmentOf(service) };
}

function healthTest(service: Service): string {
  const t = service.healthcheck?.test;
  return Array.isArray(t) ? t.join(" ") : (t ?? "");
}

const PUBLIC_WEB_VARIABLES = [
  "API_BASE_URL",
  "HSTS_MAX_AGE",
  "MAX_UPLOAD_SIZE",
  "CSV_IMPORT_NGINX_PROXY_TIMEOUT",
  "NEWSLETTER_URL",
  "ANALYTICS_PUBLIC_KEY",
  "ANALYTICS_PUBLIC_HOST",
  "ANALYTICS_PUBLIC_ENVIRONMENT",
  "ANALYTICS_PUBLIC_FEEDBACK_SURVEY",
];

describe("docker-compose.yml", () => {
  it("runs db (postgres:16-alpine), api and web, each on the stack's own network", () => {
    const c = compose();
    expect(Object.keys(c.services).sort()).toEqual(["api", "db", "web"]);
    expect(c.services.db!.image).toBe("postgres:16-alpine");
    expect(c.services.api!.build).toMatchObject({ context: ".", dockerfile: "Dockerfile" });
    expect(c.services.web!.build).toMatchObject({ context: ".", dockerfile: "web/Dockerfile" });
    expect(existsSync(join(ROOT, "Dockerfile"))).toBe(true);
    expect(existsSync(join(ROOT, "web/Dockerfile"))).toBe(true);
    const networkNames = Object.keys(c.networks ?? {});
    expect(networkNames).toHaveLength(1);
    for (const service of Object.values(c.services)) {
      expect(service.network_mode).toBeUndefined();
      const nets = Array.isArray(service.networks) ? service.networks : Object.keys(service.networks ?? {});
      expect(nets).toEqual(networkNames);
    }
  });

  it("uses APP_SUBNET (default 172.28.0.0/24) as the subnet, and TRUSTED_PROXIES follows it by default", () => {
    const subnet = (c: Compose) => Object.values(c.networks!)[0]!.ipam!.config![0]!.subnet;
    const trusted = (c: Compose) => environmentOf(c.services.api!).TRUSTED_PROXIES;

    const defaults = compose();
    expect(subnet(defaults)).toBe("172.28.0.0/24");
    expect(trusted(defaults)).toBe("172.28.0.0/24");
    // The API's own default agrees.
    expect(testConfig().TRUSTED_PROXIES).toEqual(["172.28.0.0/24"]);

    const moved = compose({ DBENGINE_PASSWORD: PASSWORD, APP_SUBNET: "10.42.7.0/24" });
    expect(subnet(moved)).toBe("10.42.7.0/24");
    expect(trusted(moved)).toBe("10.42.7.0/24");

    const explicit = compose({ DBENGINE_PASSWORD: PASSWORD, TRUSTED_PROXIES: "10.0.0.0/8" });
    expect(trusted(explicit)).toBe("10.0.0.0/8");
  });

  it("publishes only the web container's port 80, on WEB_PORT (default 8080): never the api, its metrics or the db", () => {
    const c = compose();
    expect(c.services.web!.ports).toEqual(["8080:80"]);
    expect(c.services.api!.ports).toBeUndefined();
    expect(c.services.db!.ports).toBeUndefined();
    expect(compose({ DBENGINE_PASSWORD: PASSWORD, WEB_PORT: "9000" }).services.web!.ports).toEqual(["9000:80"]);
    // Setting METRICS_PORT or PORT in the env file publishes nothing either.
    const withMetrics = compose({ DBENGINE_PASSWORD: PASSWORD, METRICS_ENABLED: "true", METRICS_PORT: "9464", PORT: "3100" });
    expect(withMetrics.services.api!.ports).toBeUndefined();
  });

  it("builds the api's DATABASE_URL from DBENGINE_* and ignores the env file's DATABASE_URL", () => {
    const api = compose().services.api!;
    expect(envFilesOf(api)).toEqual([".env"]);
    const envFile = { DATABASE_URL: "postgres://dev:dev@localhost:5433/journal", SESSION_SECRET: "x".repeat(40) };
    const seen = containerEnv(api, envFile);
    expect(seen.DATABASE_URL).toBe(`postgres://journal:${PASSWORD}@db:5432/journal`);
    expect(seen.SESSION_SECRET).toBe(envFile.SESSION_SECRET);
    expect(seen.DBENGINE_PASSWORD).toBe(PASSWORD);

    const custom = compose({ DBENGINE_PASSWORD: PASSWORD, DBENGINE_USER: "trader", DBENGINE_DB: "book" });
    const url = new URL(environmentOf(custom.services.api!).DATABASE_URL!);
    expect([url.username, url.password, url.hostname, url.port, url.pathname]).toEqual(["trader", PASSWORD, "db", "5432", "/book"]);
    // The database is created with the same three values.
    expect(environmentOf(custom.services.db!)).toMatchObject({ POSTGRES_USER: "trader", POSTGRES_PASSWORD: PASSWORD, POSTGRES_DB: "book" });
    // The api listens where the web container proxies to.
    expect(environmentOf(custom.services.api!).PORT).toBe("3100");
  });

  it("refuses to start without DBENGINE_PASSWORD (unset or empty)", () => {
    expect(() => compose({})).toThrow(MissingVariable);
    expect(() => compose({})).toThrow(/DBENGINE_PASSWORD/);
    expect(() => compose({ DBENGINE_PASSWORD: "" })).toThrow(/DBENGINE_PASSWORD/);
  });

  it("keeps APP_VERSION unset unless the env file sets it (unset keeps the stamp, blank drops it)", () => {
    const c = compose();
    const api = c.services.api!;
    expect(Object.keys(environmentOf(RAW_COMPOSE.services.api!))).not.toContain("APP_VERSION");
    expect(api.build?.args).toHaveProperty("APP_VERSION", "");
    expect(compose({ DBENGINE_PASSWORD: PASSWORD, APP_VERSION: "2.3.4" }).services.api!.build?.args?.APP_VERSION).toBe("2.3.4");

    const required = { SESSION_SECRET: "s".repeat(40), ENCRYPTION_KEY: "ab".repeat(32) };
    const unset = containerEnv(api, required);
    expect(unset).not.toHaveProperty("APP_VERSION");
    expect(parseConfig(unset).APP_VERSION).toBeUndefined();
    expect(parseConfig(containerEnv(api, { ...required, APP_VERSION: "" })).APP_VERSION).toBeNull();
    expect(parseConfig(containerEnv(api, { ...required, APP_VERSION: "7.0.1" })).APP_VERSION).toBe("7.0.1");
  });

  it("starts the api once the db is healthy (pg_isready), and checks the api on /api/health", () => {
    const c = compose();
    expect(healthTest(c.services.db!)).toMatch(/pg_isready/);
    expect(c.services.api!.depends_on).toMatchObject({ db: { condition: "service_healthy" } });
    expect(healthTest(c.services.api!)).toMatch(/http:\/\/127\.0\.0\.1:3100\/api\/health/);
    expect(c.services.web!.depends_on).toMatchObject({ api: { condition: "service_healthy" } });
  });

  it("keeps the database in a named volume", () => {
    const c = compose();
    expect(c.services.db!.volumes).toContain("db-data:/var/lib/postgresql/data");
    expect(Object.keys(c.volumes ?? {})).toContain("db-data");
  });

  it("gives the web container the public proxy and /config.js values only, never the env file", () => {
    const web = compose().services.web!;
    expect(envFilesOf(web)).toEqual([]);
    expect(Object.keys(environmentOf(web)).sort()).toEqual([...PUBLIC_WEB_VARIABLES].sort());
    const everything = Object.fromEntries(
      [...Object.keys(ConfigSchema.shape), "APP_SUBNET"].map((k) => [k, `value-of-${k}`]),
    );
    const seen = environmentOf(compose({ ...everything, DBENGINE_PASSWORD: PASSWORD }).services.web!);
    for (const [k, v] of Object.entries(seen)) expect(v).toBe(`value-of-${k}`);
    expect(environmentOf(web).MAX_UPLOAD_SIZE).toBe("20m");
    expect(environmentOf(web).CSV_IMPORT_NGINX_PROXY_TIMEOUT).toBe("300s");
  });
});

// ---------------------------------------------------------------------------------------------------------
// Dockerfiles
// ---------------------------------------------------------------------------------------------------------

describe("the images", () => {
  const api = read("Dockerfile");
  const web = read("web/Dockerfile");

  it("api: official Node 22, production dependencies only, runs functions/node.ts with the image's node", () => {
    expect(api).toMatch(/^FROM node:22[-\w.]*\s*$/m);
    expect(api).toMatch(/npm ci --omit=dev/);
    // The server bundle is built in a stage of its own (esbuild is a dev dependency) and copied after the
    // sources, so the entrypoint finds it fresh and runs it.
    expect(api).toMatch(/^FROM node:22[-\w.]* AS build$/m);
    expect(api).toMatch(/^RUN node scripts\/build-server\.ts$/m);
    const copies = [...api.matchAll(/^COPY (.+)$/gm)].map((m) => m[1]!);
    const bundle = copies.findIndex((c) => c === "--from=build /app/.server ./.server");
    expect(bundle).toBeGreaterThan(copies.findIndex((c) => c === "lib ./lib" ) );
    expect(bundle).toBeGreaterThan(copies.lastIndexOf("functions ./functions"));
    // Newer than the lib folder the stamp copy touched: set last.
    expect(api.lastIndexOf("RUN touch .server/server.mjs")).toBeGreaterThan(api.indexOf("COPY --from=build /app/.server ./.server"));
    expect(api).toMatch(/^CMD \["node", "functions\/node\.ts"\]$/m);
    expect(api).toMatch(/^ARG APP_VERSION/m);
    // A baked ENV would make "unset" impossible at run time.
    expect(api).not.toMatch(/^ENV\s+APP_VERSION/m);
  });

  it("api: the APP_VERSION build arg stamps lib/build-stamp.json as JSON, before the bundle is built", () => {
    expect(api.indexOf("build-stamp.json\", JSON.stringify")).toBeLessThan(api.indexOf("RUN node scripts/build-server.ts"));
    const script = /node -e '([^']*build-stamp[^']*)'/.exec(api)?.[1];
    expect(script).toBeDefined();
    const dir = mkdtempSync(join(TMP, "stamp-"));
    mkdirSync(join(dir, "lib"));
    const version = 'v1.2.3-rc.1 "quoted" \\ back';
    const r = spawnSync(process.execPath, ["-e", script!], { cwd: dir, env: { PATH, APP_VERSION: version }, encoding: "utf8" });
    expect(r.stderr).toBe("");
    expect(JSON.parse(readFileSync(join(dir, "lib/build-stamp.json"), "utf8"))).toEqual({ version });
  });

  it("web: builds web/dist with Node 22 and serves it from nginx:1.27-alpine with the template and start-up script", () => {
    expect(web).toMatch(/^FROM node:22[-\w.]* AS build$/m);
    expect(web).toMatch(/npm ci/);
    expect(web).toMatch(/npm run build:web/);
    expect(web).toMatch(/^FROM nginx:1\.27-alpine$/m);
    expect(web).toMatch(/COPY web\/nginx\/default\.conf\.template \/etc\/nginx\/templates\/default\.conf\.template/);
    expect(web).toMatch(/COPY web\/write-config-js\.sh \/usr\/local\/bin\/journal-write-config-js/);
    const step = /COPY web\/docker-entrypoint\.d\/(\S+) \/docker-entrypoint\.d\/(\S+)/.exec(web);
    expect(step).not.toBeNull();
    // Sourced (.envsh), and before the image's template step, so its exports reach envsubst.
    const name = step![2]!;
    expect(name).toMatch(/\.envsh$/);
    expect(name.localeCompare("20-envsubst-on-templates.sh", "en", { numeric: true })).toBeLessThan(0);
    expect(web).toMatch(new RegExp(`chmod 0755 .*/docker-entrypoint\\.d/${name.replace(/\./g, "\\.")}`));
  });

  it(".dockerignore keeps secrets, local state and host builds out of the build context", () => {
    const lines = read(".dockerignore").split("\n").map((l) => l.trim());
    for (const entry of [".env", ".dev.vars", "**/node_modules/", "web/dist/", ".git/", ".data/"]) expect(lines).toContain(entry);
    expect(lines).toContain("!.env.example");
  });
});

// ---------------------------------------------------------------------------------------------------------
// web/write-config-js.sh
// ---------------------------------------------------------------------------------------------------------

const WRITER = join(ROOT, "web/write-config-js.sh");
const ENTRY_STEP = join(ROOT, "web/docker-entrypoint.d/19-journal-config.envsh");

/** Shells to run the scripts with: sh, bash, dash, and busybox (sh and awk, as in nginx:alpine) when present. */
function shells(): Array<{ name: string; shell: string; path: string }> {
  const out = [{ name: "sh", shell: "sh", path: PATH }];
  for (const s of ["bash", "dash"]) if (onPath(s)) out.push({ name: s, shell: s, path: PATH });
  const busybox = onPath("busybox");
  if (busybox) {
    const bin = join(TMP, "busybox-bin");
    mkdirSync(bin, { recursive: true });
    for (const applet of ["sh", "awk", "mv", "chmod", "rm", "cat"]) symlinkSync(busybox, join(bin, applet));
    out.push({ name: "busybox", shell: join(bin, "sh"), path: `${bin}${delimiter}${PATH}` });
  }
  return out;
}
const SHELLS = shells();

type Written = { status: number | null; stderr: string; text: string; config: unknown };

function evaluate(text: string): unknown {
  const sandbox: { window: Record<string, unknown> } = { window: {} };
  vm.runInNewContext(text, sandbox);
  return JSON.parse(JSON.stringify(sandbox.window.__JOURNAL_CONFIG__));
}

function writeConfig(env: Record<string, string>, sh = SHELLS[0]!): Written {
  const dir = mkdtempSync(join(TMP, "config-"));
  const out = join(dir, "config.js");
  const r = spawnSync(sh.shell, [WRITER, out], { env: { PATH: sh.path, ...env }, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  const text = existsSync(out) ? readFileSync(out, "utf8") : "";
  expect(readdirSync(dir)).toEqual(r.status === 0 ? ["config.js"] : []);
  return { status: r.status, stderr: r.stderr, text, config: text ? evaluate(text) : undefined };
}

const NULLS = { newsletterUrl: null, analytics: { key: null, host: null, environment: null, feedbackSurvey: null } };

const SECRETS: Record<string, string> = {
  SESSION_SECRET: "SECRET-session-7f3a",
  ENCRYPTION_KEY: "SECRET-encryption-91bc",
  DBENGINE_PASSWORD: "SECRET-dbpassword-c0de",
  DATABASE_URL: "postgres://u:SECRET-dburl-55aa@db/x",
  PAYMENT_SECRET_KEY: "SECRET-payment-sk-1111",
  PAYMENT_WEBHOOK_SECRET: "SECRET-whsec-2222",
  OBJECT_STORAGE_ACCESS_KEY_ID: "SECRET-s3-akid-3333",
  OBJECT_STORAGE_SECRET_ACCESS_KEY: "SECRET-s3-sak-4444",
  ANALYTICS_API_KEY: "SECRET-backend-analytics-5555",
  SMTP_PASS: "SECRET-smtp-6666",
  STOCK_QUOTE_API_KEY: "SECRET-quotes-7777",
  SHARED_STORE_URL: "rediss://:SECRET-redis-8888@cache:6379",
};

describe.each(SHELLS)("web/write-config-js.sh under $name", (sh) => {
  it("writes nulls when nothing is set, and when values are empty or blank", () => {
    const unset = writeConfig({}, sh);
    expect(unset.status).toBe(0);
    expect(unset.text).toMatch(/^window\.__JOURNAL_CONFIG__ = \{.*\};\n$/);
    expect(unset.config).toEqual(NULLS);
    const blank = writeConfig(
      { NEWSLETTER_URL: "", ANALYTICS_PUBLIC_KEY: "  ", ANALYTICS_PUBLIC_HOST: "\t", ANALYTICS_PUBLIC_ENVIRONMENT: "", ANALYTICS_PUBLIC_FEEDBACK_SURVEY: "" },
      sh,
    );
    expect(blank.config).toEqual(NULLS);
  });

  it("writes every public value", () => {
    const w = writeConfig(
      {
        NEWSLETTER_URL: "https://news.example.com/subscribe",
        ANALYTICS_PUBLIC_KEY: "phc_abc123",
        ANALYTICS_PUBLIC_HOST: "https://eu.i.example.com",
        ANALYTICS_PUBLIC_ENVIRONMENT: "production",
        ANALYTICS_PUBLIC_FEEDBACK_SURVEY: "0190-survey:q-rating:q-text",
      },
      sh,
    );
    expect(w.config).toEqual({
      newsletterUrl: "https://news.example.com/subscribe",
      analytics: { key: "phc_abc123", host: "https://eu.i.example.com", environment: "production", feedbackSurvey: "0190-survey:q-rating:q-text" },
    });
  });

  it("escapes quotes, backslashes, control characters and </script> so the value survives exactly", () => {
    const nasty = 'https://example.com/a?b="c"&d=\\e\\\\f</script><script>alert(1)</script><!--\n\tg\r\u0001\u001f\u007fh é 日本 \u2028\u2029 end';
    const env = "prod\"; window.pwned = true; //</script>";
    const w = writeConfig({ NEWSLETTER_URL: nasty, ANALYTICS_PUBLIC_KEY: 'k"\\', ANALYTICS_PUBLIC_ENVIRONMENT: env }, sh);
    expect(w.status).toBe(0);
    expect(w.config).toEqual({ newsletterUrl: nasty, analytics: { key: 'k"\\', host: null, environment: env, feedbackSurvey: null } });
    // One line of script, and nothing in it an HTML parser would act on.
    expect(w.text.split("\n")).toHaveLength(2);
    expect(w.text).not.toMatch(/<\/?script|<!--|[\u0000-\u0009\u000b-\u001f\u007f\u2028\u2029]/i);
    expect(w.text.endsWith(";\n")).toBe(true);
  });

  it("never writes a server-side secret, whatever the environment holds", () => {
    const w = writeConfig({ ...SECRETS, ANALYTICS_PUBLIC_KEY: "phc_public" }, sh);
    expect(w.status).toBe(0);
    for (const value of Object.values(SECRETS)) {
      expect(w.text).not.toContain(value);
      expect(w.stderr).not.toContain(value);
    }
    expect(w.text).not.toContain("SECRET-");
    expect(w.config).toEqual({ ...NULLS, analytics: { ...NULLS.analytics, key: "phc_public" } });
  });

  it("keeps the feedback survey only in the form <surveyId>:<ratingQuestionId>:<textQuestionId>, and only with a key", () => {
    const survey = (value: string, key: string | null = "phc_k") =>
      (writeConfig({ ANALYTICS_PUBLIC_FEEDBACK_SURVEY: value, ...(key !== null ? { ANALYTICS_PUBLIC_KEY: key } : {}) }, sh).config as typeof NULLS)
        .analytics.feedbackSurvey;
    expect(survey("s1:q1:q2")).toBe("s1:q1:q2");
    for (const malformed of ["s1:q1", "s1:q1:q2:q3", "s1::q2", ":q1:q2", "s1:q1:", "s 1:q1:q2", "s1:q1:q2\n", "s1:q1:q2 ", "s1:q1:q2\nx:y:z"]) {
      expect(survey(malformed), JSON.stringify(malformed)).toBeNull();
    }
    expect(survey("s1:q1:q2", null)).toBeNull();
    expect(survey("s1:q1:q2", " ")).toBeNull();
  });

  it("writes only http(s) URLs for NEWSLETTER_URL and ANALYTICS_PUBLIC_HOST", () => {
    const w = writeConfig({ NEWSLETTER_URL: "javascript:alert(document.cookie)", ANALYTICS_PUBLIC_HOST: "ftp://x.example.com" }, sh);
    expect(w.status).toBe(0);
    expect(w.config).toEqual(NULLS);
    expect(w.stderr).toMatch(/NEWSLETTER_URL/);
    expect(w.stderr).not.toContain("javascript:");
    expect((writeConfig({ NEWSLETTER_URL: "HTTP://Example.com/x" }, sh).config as typeof NULLS).newsletterUrl).toBe("HTTP://Example.com/x");
  });

  it("fails without an output path", () => {
    const r = spawnSync(sh.shell, [WRITER], { env: { PATH: sh.path }, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
    expect(r.status).not.toBe(0);
  });
});

describe("web/write-config-js.sh and lib/web-config.ts", () => {
  it("write the same object for the same variables", () => {
    const cases: Array<Record<string, string>> = [
      {},
      {
        NEWSLETTER_URL: 'https://news.example.com/s?list=1&x="y"</script>',
        ANALYTICS_PUBLIC_KEY: "phc_1",
        ANALYTICS_PUBLIC_HOST: "https://eu.i.example.com",
        ANALYTICS_PUBLIC_ENVIRONMENT: "staging",
        ANALYTICS_PUBLIC_FEEDBACK_SURVEY: "a:b:c",
      },
      { ANALYTICS_PUBLIC_FEEDBACK_SURVEY: "a:b:c" },
      { ANALYTICS_PUBLIC_KEY: "phc_2", ANALYTICS_PUBLIC_FEEDBACK_SURVEY: "a:b" },
    ];
    for (const env of cases) {
      expect(writeConfig(env).config, JSON.stringify(env)).toEqual(browserConfig(testConfig(env)));
    }
  });
});

// ---------------------------------------------------------------------------------------------------------
// web/docker-entrypoint.d/19-journal-config.envsh (sourced by the image's entrypoint under `set -eu`)
// ---------------------------------------------------------------------------------------------------------

const EXPORTS = ["API_UPSTREAM", "MAX_UPLOAD_SIZE", "CSV_IMPORT_NGINX_PROXY_TIMEOUT", "JOURNAL_RESOLVERS", "JOURNAL_HSTS", "JOURNAL_CSP"] as const;

function sourceEntryStep(env: Record<string, string>, sh = SHELLS[0]!) {
  const dir = mkdtempSync(join(TMP, "entry-"));
  const out = join(dir, "config.js");
  // `env` in a child process lists exported variables only: what reaches 20-envsubst-on-templates.sh.
  const script = `set -eu; . "$1"; env; if command -v journal_fail >/dev/null 2>&1; then echo LEAKED=1; fi`;
  const r = spawnSync(sh.shell, ["-c", script, "sh", ENTRY_STEP], {
    env: { PATH: sh.path, NGINX_ENTRYPOINT_QUIET_LOGS: "1", JOURNAL_CONFIG_WRITER: WRITER, JOURNAL_CONFIG_JS: out, ...env },
    encoding: "utf8",
    // Not a socket: bash run with a socket on stdin sources ~/.bashrc.
    stdio: ["ignore", "pipe", "pipe"],
  });
  const values = Object.fromEntries(
    r.stdout
      .split("\n")
      .map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)])
      .filter(([name]) => (EXPORTS as readonly string[]).includes(name!)),
  );
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, values, configJs: existsSync(out) ? readFileSync(out, "utf8") : undefined };
}

describe.each(SHELLS)("web/docker-entrypoint.d/19-journal-config.envsh under $name", (sh) => {
  it("exports the defaults and writes config.js", () => {
    const r = sourceEntryStep({ JOURNAL_RESOLVERS: "127.0.0.11" }, sh);
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(r.values).toEqual({
      API_UPSTREAM: "http://api:3100",
      MAX_UPLOAD_SIZE: "20m",
      CSV_IMPORT_NGINX_PROXY_TIMEOUT: "300s",
      JOURNAL_RESOLVERS: "127.0.0.11",
      JOURNAL_HSTS: "max-age=31536000",
      JOURNAL_CSP: webContentPolicy(null),
    });
    // The content policy names the analytics host's origin exactly as the Node entrypoint does; a value that is
    // not an http(s) URL is left out (never pasted into the nginx config).
    for (const host of ["https://eu.posthog.example", "https://Analytics.Example.com:8443/ingest?x=1", "http://10.0.0.5:8000"]) {
      expect(sourceEntryStep({ JOURNAL_RESOLVERS: "127.0.0.11", ANALYTICS_PUBLIC_HOST: host }, sh).values.JOURNAL_CSP, host).toBe(webContentPolicy(host));
    }
    for (const host of ['https://x.example"; add_header X 1; "', "javascript:alert(1)", "https://a b.example"]) {
      expect(sourceEntryStep({ JOURNAL_RESOLVERS: "127.0.0.11", ANALYTICS_PUBLIC_HOST: host }, sh).values.JOURNAL_CSP, host).toBe(webContentPolicy(null));
    }
    // HSTS_MAX_AGE sets the header's value; 0 leaves it empty (no header).
    expect(sourceEntryStep({ JOURNAL_RESOLVERS: "127.0.0.11", HSTS_MAX_AGE: "600" }, sh).values.JOURNAL_HSTS).toBe("max-age=600");
    const off = sourceEntryStep({ JOURNAL_RESOLVERS: "127.0.0.11", HSTS_MAX_AGE: "0" }, sh);
    expect([off.status, off.values.JOURNAL_HSTS]).toEqual([0, ""]);
    expect(r.stdout).not.toMatch(/^LEAKED=/m);
    expect(evaluate(r.configJs!)).toEqual(NULLS);
  });

  it("takes API_BASE_URL (trailing slash dropped) and the operator's limits; blank means the defaults", () => {
    const r = sourceEntryStep(
      { API_BASE_URL: " https://api.example.com:8443/ ", MAX_UPLOAD_SIZE: "64m", CSV_IMPORT_NGINX_PROXY_TIMEOUT: "1h 30m", NEWSLETTER_URL: "https://n.example.com" },
      sh,
    );
    expect(r.status).toBe(0);
    expect(r.values).toMatchObject({ API_UPSTREAM: "https://api.example.com:8443", MAX_UPLOAD_SIZE: "64m", CSV_IMPORT_NGINX_PROXY_TIMEOUT: "1h 30m" });
    expect((evaluate(r.configJs!) as typeof NULLS).newsletterUrl).toBe("https://n.example.com");
    const blank = sourceEntryStep({ API_BASE_URL: "", MAX_UPLOAD_SIZE: "", CSV_IMPORT_NGINX_PROXY_TIMEOUT: " " }, sh);
    expect(blank.values).toMatchObject({ API_UPSTREAM: "http://api:3100", MAX_UPLOAD_SIZE: "20m", CSV_IMPORT_NGINX_PROXY_TIMEOUT: "300s" });
    expect(blank.values.JOURNAL_RESOLVERS).toMatch(/^\S/);
  });

  it("stops the container on a value that would corrupt the nginx config, naming the variable", () => {
    const bad: Array<[string, string]> = [
      ["API_BASE_URL", "http://api:3100; return 200 pwned"],
      ["API_BASE_URL", "http://api:3100/prefix"],
      ["API_BASE_URL", "http://user:pw@api:3100"],
      ["API_BASE_URL", "ftp://api"],
      ["API_BASE_URL", "http://api:3100\nx"],
      ["MAX_UPLOAD_SIZE", "20m; autoindex on"],
      ["MAX_UPLOAD_SIZE", "twenty"],
      ["CSV_IMPORT_NGINX_PROXY_TIMEOUT", '300s"; x'],
      ["CSV_IMPORT_NGINX_PROXY_TIMEOUT", "5 m"],
      ["JOURNAL_RESOLVERS", "8.8.8.8; evil"],
      ["HSTS_MAX_AGE", "31536000; includeSubDomains"],
      ["HSTS_MAX_AGE", "-1"],
    ];
    for (const [name, value] of bad) {
      const r = sourceEntryStep({ [name]: value }, sh);
      expect(r.status, `${name}=${JSON.stringify(value)}`).not.toBe(0);
      expect(r.stderr).toContain(name);
      expect(r.configJs).toBeUndefined();
    }
  });
});

// ---------------------------------------------------------------------------------------------------------
// web/nginx/default.conf.template, rendered as the image renders it, checked and served by a real nginx
// ---------------------------------------------------------------------------------------------------------

const TEMPLATE = read("web/nginx/default.conf.template");
/** NGINX_ENVSUBST_FILTER from web/Dockerfile: the names 20-envsubst-on-templates.sh substitutes. */
const ENVSUBST_FILTER = new RegExp(
  /^ENV NGINX_ENVSUBST_FILTER="(.+)"$/m.exec(read("web/Dockerfile"))![1]!.replace(/\\\$/g, "$"),
);

/** envsubst "${NAME} ..." for every environment variable the filter admits: $NAME and ${NAME} forms only. */
function renderTemplate(vars: Record<string, string>): string {
  // The container's environment also holds names the template must not be affected by.
  const env: Record<string, string> = { PATH, HOME: "/root", HOSTNAME: "web", NGINX_VERSION: "1.27.5", host: "evil", uri: "evil", ...vars };
  let out = TEMPLATE;
  for (const [name, value] of Object.entries(env)) {
    if (!ENVSUBST_FILTER.test(name)) continue;
    out = out.replace(new RegExp(`\\$\\{${name}\\}|\\$${name}(?![A-Za-z0-9_])`, "g"), () => value);
  }
  return out;
}

const RENDER_DEFAULTS = {
  API_UPSTREAM: "http://127.0.0.1:3100",
  MAX_UPLOAD_SIZE: "20m",
  CSV_IMPORT_NGINX_PROXY_TIMEOUT: "300s",
  JOURNAL_RESOLVERS: "127.0.0.1",
  JOURNAL_HSTS: "max-age=31536000",
  JOURNAL_CSP: webContentPolicy(null),
};

describe("web/nginx/default.conf.template", () => {
  it("uses only the variables the entrypoint step exports, and the image substitutes exactly those", () => {
    const used = new Set([...TEMPLATE.matchAll(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g)].map((m) => m[1]));
    expect([...used].sort()).toEqual([...EXPORTS].sort());
    for (const name of EXPORTS) expect(ENVSUBST_FILTER.test(name)).toBe(true);
    for (const name of ["host", "uri", "PATH", "HOME", "MAX_UPLOAD_SIZE_X", "XAPI_UPSTREAM"]) expect(ENVSUBST_FILTER.test(name)).toBe(false);
    const rendered = renderTemplate(RENDER_DEFAULTS);
    expect(rendered).not.toMatch(/\$\{?[A-Z][A-Z0-9_]*\}?/);
    expect(rendered).toContain("$host");
    expect(rendered).toContain("$uri");
  });

  it("sets the body limit, the /api/ proxy and the /api/csv-import/ timeout and streaming", () => {
    const conf = renderTemplate({ ...RENDER_DEFAULTS, MAX_UPLOAD_SIZE: "33m", CSV_IMPORT_NGINX_PROXY_TIMEOUT: "450s" });
    expect(conf).toMatch(/^\s*client_max_body_size "33m";$/m);
    const csv = /location \/api\/csv-import\/ \{([^}]*)\}/.exec(conf)?.[1] ?? "";
    expect(csv).toMatch(/proxy_read_timeout "450s";/);
    expect(csv).toMatch(/proxy_request_buffering off;/);
    expect(csv).toMatch(/proxy_pass /);
    const api = /location \/api\/ \{([^}]*)\}/.exec(conf)?.[1] ?? "";
    expect(api).toMatch(/proxy_pass /);
    expect(api).not.toMatch(/proxy_request_buffering/);
    for (const header of ["Host", "X-Forwarded-For", "X-Forwarded-Proto"]) expect(conf).toMatch(new RegExp(`proxy_set_header ${header} `));
  });
});

const NGINX = onPath("nginx", ["/usr/sbin", "/usr/local/sbin", "/usr/local/nginx/sbin"]);
const NGINX_SUITE = NGINX
  ? `nginx (${NGINX})`
  : "nginx: SKIPPED, no nginx binary on PATH or in /usr/sbin (install the Debian package nginx-light)";
if (!NGINX) console.warn(`deploy-files.test.ts: ${NGINX_SUITE}`);

/** A prefix directory with the image's nginx.conf shape (http {} including conf.d/*.conf) and temp paths under it. */
function nginxPrefix(rendered: string, serve?: { port: number; html: string }): string {
  const prefix = mkdtempSync(join(TMP, "nginx-"));
  for (const d of ["conf.d", "logs", "tmp"]) mkdirSync(join(prefix, d));
  let site = rendered;
  if (serve) site = site.replace(/listen 80 default_server;/, `listen 127.0.0.1:${serve.port} default_server;`).replace(/root \/usr\/share\/nginx\/html;/, `root ${serve.html};`);
  writeFileSync(join(prefix, "conf.d/default.conf"), site);
  const mime = existsSync("/etc/nginx/mime.types")
    ? "include /etc/nginx/mime.types;"
    : "types { text/html html; text/css css; application/javascript js; application/json json; image/svg+xml svg; }";
  writeFileSync(
    join(prefix, "nginx.conf"),
    `${serve ? "daemon off;\nmaster_process off;\n" : ""}worker_processes 1;
error_log ${prefix}/logs/error.log notice;
pid ${prefix}/logs/nginx.pid;
events { worker_connections 256; }
http {
    ${mime}
    default_type application/octet-stream;
    access_log ${prefix}/logs/access.log;
    sendfile on;
    keepalive_timeout 65;
    client_body_temp_path ${prefix}/tmp/body;
    proxy_temp_path ${prefix}/tmp/proxy;
    fastcgi_temp_path ${prefix}/tmp/fastcgi;
    uwsgi_temp_path ${prefix}/tmp/uwsgi;
    scgi_temp_path ${prefix}/tmp/scgi;
    include ${prefix}/conf.d/*.conf;
}
`,
  );
  return prefix;
}

function nginxTest(rendered: string) {
  const prefix = nginxPrefix(rendered);
  const r = spawnSync(NGINX!, ["-t", "-p", prefix, "-c", join(prefix, "nginx.conf")], { encoding: "utf8" });
  return { status: r.status, output: `${r.stdout}${r.stderr}` };
}

describe.skipIf(!NGINX)(NGINX_SUITE, () => {
  it("nginx -t accepts the rendered template (IP upstream, the stack's default upstream, compound times)", () => {
    for (const vars of [
      RENDER_DEFAULTS,
      { ...RENDER_DEFAULTS, API_UPSTREAM: "http://api:3100", JOURNAL_RESOLVERS: "127.0.0.11" },
      { ...RENDER_DEFAULTS, API_UPSTREAM: "https://api.example.com", CSV_IMPORT_NGINX_PROXY_TIMEOUT: "1h 30m", MAX_UPLOAD_SIZE: "1g", JOURNAL_RESOLVERS: "10.0.0.2 [fd00::53]" },
    ]) {
      const r = nginxTest(renderTemplate(vars));
      expect(r.output, JSON.stringify(vars)).toMatch(/test is successful/);
      expect(r.status).toBe(0);
    }
  });

  it("nginx -t rejects a broken rendering (the check can fail)", () => {
    expect(nginxTest(renderTemplate({ ...RENDER_DEFAULTS, MAX_UPLOAD_SIZE: "20x" })).status).not.toBe(0);
    expect(nginxTest(TEMPLATE).status).not.toBe(0);
  });

  describe("serving", () => {
    type Seen = { method: string; url: string; headers: IncomingHttpHeaders; bodyBytes: number };
    const seen: Seen[] = [];
    let secondWrittenAt = 0;
    let upstream: http.Server;
    let upstreamPort = 0;
    let nginx: ChildProcess;
    let port = 0;
    let nginxLog = "";
    const html = join(TMP, "html");
    const bigAsset = `console.log(${JSON.stringify("journal ".repeat(400))});\n`;

    const freePort = () =>
      new Promise<number>((resolve, reject) => {
        const s = createNetServer();
        s.once("error", reject);
        s.listen(0, "127.0.0.1", () => {
          const p = (s.address() as AddressInfo).port;
          s.close(() => resolve(p));
        });
      });

    type Res = { status: number; headers: IncomingHttpHeaders; body: string };
    const request = (path: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}) =>
      new Promise<Res>((resolve, reject) => {
        const req = http.request(
          { host: "127.0.0.1", port, path, method: options.method ?? "GET", headers: { Host: "journal.test:8080", ...options.headers }, agent: false, setHost: false },
          (res) => {
            const chunks: Buffer[] = [];
            res.on("data", (c: Buffer) => chunks.push(c));
            res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString("utf8") }));
            res.on("error", reject);
          },
        );
        req.on("error", reject);
        req.end(options.body);
      });

    beforeAll(async () => {
      upstream = http.createServer((req, res) => {
        let bodyBytes = 0;
        req.on("data", (c: Buffer) => (bodyBytes += c.length));
        req.on("end", () => {
          seen.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, bodyBytes });
          const answer = () => {
            // The API sends its own HSTS when told the request came over TLS; nginx keeps one (its own).
            res.writeHead(200, {
              "Content-Type": "application/json",
              "Cache-Control": "private, max-age=5",
              "X-Content-Type-Options": "nosniff",
              "Strict-Transport-Security": "max-age=1",
              "Content-Security-Policy": API_CONTENT_POLICY,
            });
            res.end(JSON.stringify({ ok: true, url: req.url, bodyBytes }));
          };
          if (req.url?.endsWith("/slow")) setTimeout(answer, 2500);
          else if (req.url?.endsWith("/stream")) {
            // As the advisor's turn stream (functions/advisor.ts): an event now, the next 1.5 s later.
            res.writeHead(200, { "Content-Type": "text/event-stream", "Cache-Control": "no-cache, no-transform", "X-Accel-Buffering": "no" });
            res.write(`data: ${"first ".repeat(300)}\n\n`);
            setTimeout(() => {
              secondWrittenAt = Date.now();
              res.end("data: second\n\n");
            }, 1500);
          } else answer();
        });
      });
      await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
      upstreamPort = (upstream.address() as AddressInfo).port;

      mkdirSync(join(html, "assets"), { recursive: true });
      chmodSync(TMP, 0o755);
      writeFileSync(join(html, "index.html"), "<!doctype html><title>Trading Journal</title><script src=/config.js></script>app-shell\n");
      writeFileSync(join(html, "assets/app-3f9c1d.js"), bigAsset);
      writeFileSync(join(html, "manifest.webmanifest"), '{"name":"Trading Journal"}\n');
      writeFileSync(join(html, "sw.js"), "// service worker\n");
      const written = writeConfig({ NEWSLETTER_URL: "https://news.example.com/" });
      writeFileSync(join(html, "config.js"), written.text);

      port = await freePort();
      const prefix = nginxPrefix(
        renderTemplate({ ...RENDER_DEFAULTS, API_UPSTREAM: `http://127.0.0.1:${upstreamPort}`, MAX_UPLOAD_SIZE: "8k", CSV_IMPORT_NGINX_PROXY_TIMEOUT: "1s" }),
        { port, html },
      );
      nginx = spawn(NGINX!, ["-p", prefix, "-c", join(prefix, "nginx.conf")], { stdio: ["ignore", "pipe", "pipe"] });
      nginx.stderr!.on("data", (d: Buffer) => (nginxLog += d.toString()));
      for (let i = 0; ; i++) {
        try {
          await request("/config.js");
          break;
        } catch (err) {
          if (i > 100 || nginx.exitCode !== null) throw new Error(`nginx did not start: ${nginxLog || String(err)}`);
          await new Promise((r) => setTimeout(r, 50));
        }
      }
    });

    afterAll(async () => {
      if (nginx && nginx.exitCode === null) {
        const exited = new Promise((r) => nginx.once("exit", r));
        nginx.kill("SIGTERM");
        await exited;
      }
      if (upstream?.listening) await new Promise((r) => upstream.close(r));
    });

    const expectSecurityHeaders = (r: Res) => {
      expect(r.headers["x-content-type-options"]).toBe("nosniff");
      expect(r.headers["x-frame-options"]).toBe("DENY");
      // The same policy the Node entrypoint sends with its pages.
      expect(r.headers["content-security-policy"]).toBe(webContentPolicy(null));
      expect(r.headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
    };

    it("sends HSTS on the app shell only when the proxy in front says the request came over TLS", async () => {
      expect((await request("/")).headers["strict-transport-security"]).toBeUndefined();
      expect((await request("/", { headers: { "X-Forwarded-Proto": "https" } })).headers["strict-transport-security"]).toBe("max-age=31536000");
      expect((await request("/nope.txt", { headers: { "X-Forwarded-Proto": "https" } })).headers["strict-transport-security"]).toBe("max-age=31536000");
    });

    it("serves the app shell for / and for client-side routes, revalidated, with the security headers", async () => {
      for (const path of ["/", "/accounts/42/ledger", "/register?closed=1"]) {
        const r = await request(path);
        expect(r.status, path).toBe(200);
        expect(r.body).toContain("app-shell");
        expect(r.headers["content-type"]).toMatch(/^text\/html/);
        expect(r.headers["cache-control"]).toBe("no-cache");
        expectSecurityHeaders(r);
      }
    });

    it("serves a public link's page (/s/<token>) with the app shell, never indexed, and no other page so", async () => {
      const shared = await request("/s/Q2hpY2tlbnMtYXJlLW5vdC1wYXNzd29yZHMtYnV0LXRoaXM");
      expect(shared.status).toBe(200);
      expect(shared.body).toContain("app-shell");
      expect(shared.headers["x-robots-tag"]).toBe("noindex, nofollow");
      expectSecurityHeaders(shared);
      expect((await request("/trades")).headers["x-robots-tag"]).toBeUndefined();
    });

    it("serves /config.js uncached", async () => {
      const r = await request("/config.js");
      expect(r.status).toBe(200);
      expect(r.headers["cache-control"]).toBe("no-store");
      expect(r.headers["content-type"]).toMatch(/javascript/);
      expect(evaluate(r.body)).toMatchObject({ newsletterUrl: "https://news.example.com/" });
    });

    it("serves the installable app's manifest with its type, and the service worker revalidated on every visit", async () => {
      const manifest = await request("/manifest.webmanifest");
      expect(manifest.status).toBe(200);
      expect(manifest.headers["content-type"]).toMatch(/^application\/manifest\+json/);
      const worker = await request("/sw.js");
      expect(worker.status).toBe(200);
      expect(worker.headers["content-type"]).toMatch(/javascript/);
      expect(worker.headers["cache-control"]).toBe("no-cache");
      expectSecurityHeaders(worker);
    });

    it("caches hashed assets for a year, gzips them, and answers 404 (not the shell) for a missing one", async () => {
      const r = await request("/assets/app-3f9c1d.js", { headers: { "Accept-Encoding": "gzip" } });
      expect(r.status).toBe(200);
      expect(r.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
      expect(r.headers["content-encoding"]).toBe("gzip");
      expectSecurityHeaders(r);
      const missing = await request("/assets/app-000000.js");
      expect(missing.status).toBe(404);
      expect(missing.body).not.toContain("app-shell");
    });

    it("proxies /api/ with the original URI, Host, X-Forwarded-For and X-Forwarded-Proto, leaving the API's headers alone", async () => {
      seen.length = 0;
      const r = await request("/api/trades?page=2&q=a%20b", { headers: { "X-Forwarded-For": "203.0.113.7", "X-Request-Id": "req-123" } });
      expect(r.status).toBe(200);
      expect(JSON.parse(r.body)).toMatchObject({ ok: true });
      expect(r.headers["cache-control"]).toBe("private, max-age=5");
      expect(r.headers["x-content-type-options"]).toBe("nosniff");
      expect(r.headers["x-frame-options"]).toBe("DENY");
      expect(r.headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
      // The API's own content policy, alone: the browser app's is for pages.
      expect(r.headers["content-security-policy"]).toBe(API_CONTENT_POLICY);
      expect(seen).toHaveLength(1);
      const got = seen[0]!;
      expect(got.url).toBe("/api/trades?page=2&q=a%20b");
      expect(got.headers.host).toBe("journal.test:8080");
      expect(got.headers["x-forwarded-for"]).toBe("203.0.113.7, 127.0.0.1");
      expect(got.headers["x-forwarded-proto"]).toBe("http");
      expect(got.headers["x-real-ip"]).toBe("127.0.0.1");
      expect(got.headers["x-request-id"]).toBe("req-123");
      expect(r.headers["x-request-id"]).toBe("req-123");

      expect(r.headers["strict-transport-security"]).toBeUndefined(); // plain HTTP: no HSTS, the API's hidden

      seen.length = 0;
      const tls = await request("/api/me", { headers: { "X-Forwarded-Proto": "https", "X-Request-Id": "not a valid id!" } });
      expect(seen[0]!.headers["x-forwarded-proto"]).toBe("https");
      expect(tls.headers["strict-transport-security"]).toBe("max-age=31536000"); // once, nginx's
      expect(seen[0]!.headers["x-request-id"]).toMatch(/^[0-9a-f]{32}$/);
    });

    it("streams an upload under MAX_UPLOAD_SIZE to /api/csv-import/ and refuses a larger body with 413 in the API's envelope", async () => {
      seen.length = 0;
      const ok = await request("/api/csv-import/preview", { method: "POST", headers: { "Content-Type": "text/csv" }, body: "a,b\n".repeat(1500) });
      expect(ok.status).toBe(200);
      expect(seen.map((s) => [s.url, s.bodyBytes])).toEqual([["/api/csv-import/preview", 6000]]);

      seen.length = 0;
      for (const path of ["/api/csv-import/preview", "/api/accounts"]) {
        const big = await request(path, { method: "POST", headers: { "Content-Type": "text/csv" }, body: "x".repeat(9 * 1024) });
        expect(big.status, path).toBe(413);
        expect(big.headers["content-type"]).toMatch(/^application\/json/);
        const body = JSON.parse(big.body) as { error: { code: string; message: string; requestId: string } };
        expect(body.error.code).toBe("PAYLOAD_TOO_LARGE");
        expect(body.error.message).toContain("8k");
        expect(body.error.requestId).toMatch(/^[0-9a-f]{32}$/);
        expect(big.headers["x-request-id"]).toBe(body.error.requestId);
      }
      expect(seen).toEqual([]);
    });

    it("applies CSV_IMPORT_NGINX_PROXY_TIMEOUT to /api/csv-import/ only", async () => {
      const [csv, other] = await Promise.all([request("/api/csv-import/slow"), request("/api/reports/slow")]);
      expect(csv.status).toBe(504);
      expect(other.status).toBe(200);
    });

    it("passes an event stream through as it is written (the advisor's answer), not once it ends", async () => {
      const arrivals = await new Promise<Array<{ at: number; text: string }>>((resolve, reject) => {
        const got: Array<{ at: number; text: string }> = [];
        http
          .get({ host: "127.0.0.1", port, path: "/api/advisor/conversations/x/stream", headers: { Host: "journal.test:8080", "Accept-Encoding": "gzip" }, agent: false, setHost: false }, (res) => {
            expect(res.headers["content-type"]).toBe("text/event-stream");
            expect(res.headers["content-encoding"]).toBeUndefined();
            res.on("data", (c: Buffer) => got.push({ at: Date.now(), text: c.toString("utf8") }));
            res.on("end", () => resolve(got));
            res.on("error", reject);
          })
          .on("error", reject);
      });
      // The first event reached the client before the API had written the second.
      expect(arrivals[0]!.text).toContain("first");
      expect(arrivals[0]!.at).toBeLessThan(secondWrittenAt);
      expect(arrivals.map((a) => a.text).join("")).toContain("data: second");
    });

    it("answers 503 in the API's envelope when the API is down", async () => {
      await new Promise((r) => upstream.close(r));
      const r = await request("/api/health");
      expect(r.status).toBe(503);
      expect(JSON.parse(r.body)).toMatchObject({ error: { code: "SERVICE_UNAVAILABLE" } });
      expect(r.headers["x-request-id"]).toBe((JSON.parse(r.body) as { error: { requestId: string } }).error.requestId);
      // The static app is unaffected.
      expect((await request("/")).status).toBe(200);
    });
  });
});

// ---------------------------------------------------------------------------------------------------------
// .env.example and .dev.vars.example
// ---------------------------------------------------------------------------------------------------------

const SPEC_VARIABLES = (Object.keys(ConfigSchema.shape) as Array<keyof typeof ConfigSchema.shape>).filter(
  (k) => !SEAM_VARIABLES.includes(k) && !DESIGN_VARIABLES.includes(k),
);
const REQUIRED = ["DBENGINE_PASSWORD", "SESSION_SECRET", "ENCRYPTION_KEY"];

/** `NAME=value` and `# NAME=value` lines, in order. */
function assignments(text: string): Array<{ name: string; value: string; commented: boolean }> {
  return [...text.matchAll(/^(#\s*)?([A-Z][A-Z0-9_]*)=(.*)$/gm)].map((m) => ({
    name: m[2]!,
    value: parseDotenv(`${m[2]}=${m[3]}`)[m[2]!] ?? "",
    commented: Boolean(m[1]),
  }));
}

describe(".env.example", () => {
  const text = read(".env.example");
  const lines = assignments(text);

  it("starts with the three required variables, the only ones not commented out, and says how to generate them", () => {
    expect(lines.slice(0, 3).map((l) => l.name)).toEqual(REQUIRED);
    expect(lines.filter((l) => !l.commented).map((l) => l.name)).toEqual(REQUIRED);
    expect(parseDotenv(text)).toEqual({ DBENGINE_PASSWORD: "", SESSION_SECRET: "", ENCRYPTION_KEY: "" });
    expect(text).toContain("openssl rand -hex 32");
  });

  it("lists every variable of the specification once, plus APP_SUBNET and DESIGN.md's additions", () => {
    expect(SPEC_VARIABLES).toHaveLength(72);
    const names = lines.map((l) => l.name);
    const listed = [...SPEC_VARIABLES, ...DESIGN_VARIABLES, "APP_SUBNET"] as string[];
    for (const name of listed) expect(names.filter((n) => n === name), name).toHaveLength(1);
    expect(names.filter((n) => !listed.includes(n))).toEqual([]);
  });

  it("shows each default exactly as the configuration parser applies it", () => {
    // The email trio keeps SMTP_PORT and friends legal on their own.
    const { NODE_ENV: _mode, REGULATOR_TICKERS_URL: _seam, CHANGELOG_RELEASES_BASE_URL: _releases, ...required } = baseTestEnv();
    const base = { ...required, SMTP_HOST: "smtp.example.com", EMAIL_FROM: "journal@example.com", WEB_BASE_URL: "https://journal.example.com" };
    const defaults = parseConfig(base) as unknown as Record<string, unknown>;
    let checked = 0;
    for (const { name, value, commented } of lines) {
      if (!commented || value === "" || !(name in ConfigSchema.shape)) continue;
      const parsed = parseConfig({ ...base, [name]: value }) as unknown as Record<string, unknown>;
      expect(parsed[name], `${name}=${value}`).toEqual(defaults[name]);
      checked++;
    }
    expect(checked).toBeGreaterThan(30);
    expect(lines.find((l) => l.name === "APP_SUBNET")?.value).toBe("172.28.0.0/24");
  });
});

describe(".dev.vars.example", () => {
  it("holds the required variables to fill in and the local database, bridge and mode", () => {
    const text = read(".dev.vars.example");
    const vars = parseDotenv(text);
    expect(vars).toEqual({
      DBENGINE_PASSWORD: "",
      SESSION_SECRET: "",
      ENCRYPTION_KEY: "",
      DATABASE_URL: "postgres://postgres@127.0.0.1:5432/journal_dev",
      DB_HTTP_ENDPOINT: "http://127.0.0.1:4444/sql",
      NODE_ENV: "development",
    });
    expect(text).toContain("openssl rand -hex 32");
    const filled = { ...vars, DBENGINE_PASSWORD: "ab".repeat(16), SESSION_SECRET: "cd".repeat(32), ENCRYPTION_KEY: "ef".repeat(32) };
    expect(parseConfig(filled).DB_HTTP_ENDPOINT).toBe("http://127.0.0.1:4444/sql");
  });
});
