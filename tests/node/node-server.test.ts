import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { runInNewContext } from "node:vm";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { bundleIsFresh } from "../../functions/node.ts";
import { startNodeServer, type NodeServer } from "../../functions/node-server.ts";
import { webContentPolicy } from "../../lib/http/csp.ts";
import { readProcessEnv } from "../../lib/config/index.ts";
import { createLogger } from "../../lib/log.ts";
import { TestClient } from "../support/client.ts";
import { signUpAndImport } from "../support/csv.ts";
import { freePort, startEntrypoint } from "../support/entrypoint.ts";
import { startS3Server } from "../support/s3-server.ts";
import { startSmtpServer } from "../support/smtp-server.ts";
import { baseTestEnv, testConfig } from "../support/env.ts";
import { inOneWindow } from "../support/window.ts";

describe("the Node server", () => {
  let server: NodeServer;
  beforeAll(async () => {
    server = await startNodeServer(
      testConfig({
        DATABASE_URL: inject("databaseUrl"),
        NEWSLETTER_URL: "https://news.example.com/?a=1&b=</script><script>alert(1)</script>",
        ANALYTICS_PUBLIC_KEY: "phc_public",
        ANALYTICS_PUBLIC_FEEDBACK_SURVEY: "s:r:t",
        PAYMENT_SECRET_KEY: "sk_live_must_not_leak",
        PAYMENT_WEBHOOK_SECRET: "whsec_must_not_leak",
      }),
      { port: 0, hostname: "127.0.0.1", scheduler: false, log: createLogger({ silent: true }) },
    );
  });
  afterAll(() => server?.close());

  it("serves the browser app shell at / and for client-side routes, never to be framed, and JSON 404s under /api", async () => {
    for (const path of ["/", "/accounts/123"]) {
      const res = await fetch(`${server.url}${path}`);
      expect(res.status).toBe(200);
      expect(res.headers.get("Content-Type")).toContain("text/html");
      expect(res.headers.get("X-Frame-Options")).toBe("DENY");
      expect(res.headers.get("Content-Security-Policy")).toBe(webContentPolicy(null));
    }
    const api = await fetch(`${server.url}/api/does-not-exist`);
    expect(api.status).toBe(404);
    expect((await api.json()).error.code).toBe("NOT_FOUND");
  });

  it("serves /config.js with public settings only, safe to inline", async () => {
    const res = await fetch(`${server.url}/config.js`);
    expect(res.status).toBe(200);
    const script = await res.text();
    expect(script).not.toContain("</script>");
    expect(script).not.toMatch(/sk_live|whsec/);
    const sandbox: { window: { __JOURNAL_CONFIG__?: unknown } } = { window: {} };
    runInNewContext(script, sandbox);
    expect(sandbox.window.__JOURNAL_CONFIG__).toEqual({
      newsletterUrl: "https://news.example.com/?a=1&b=</script><script>alert(1)</script>",
      analytics: { key: "phc_public", host: null, environment: null, feedbackSurvey: "s:r:t" },
    });
  });
});

describe("npm start (the entrypoint as a process)", () => {
  it.each([
    ["from its bundle (.server/, built when stale)", []],
    ["from source (--from-source)", ["--from-source"]],
  ])("%s: migrates, answers /api/health, and exits 0 on SIGTERM", async (_how, args: string[]) => {
    const { PATH } = await readProcessEnv({ dotenvPath: false });
    // A directory without a .env: exactly these settings.
    const server = await startIn(tmpdir(), args, { PATH: PATH ?? "", ...baseTestEnv(), DATABASE_URL: inject("databaseUrl") });
    try {
      expect(server.output()).toContain('"message":"listening"');
      if (!args.length) expect(bundleIsFresh()).toBe(true);
      server.child.kill("SIGTERM");
      expect(await server.exitCode).toBe(0);
    } finally {
      await server.stop();
    }
  });
});

describe("npm start as a self-hoster runs it: settings in a .env file, two processes on one shared store", () => {
  // The bundle once lost the named exports of CommonJS packages loaded on first use (dotenv, @upstash/ratelimit):
  // a .env file stopped the start, and the shared store was never used (every limit fell back to the local one).
  it.each([
    ["from its bundle", []],
    ["from source", ["--from-source"]],
  ])("%s: reads .env from its working directory and counts a client's registrations across both processes", async (_how, args: string[]) => {
    const { PATH } = await readProcessEnv({ dotenvPath: false });
    const dir = mkdtempSync(join(tmpdir(), "journal-selfhost-"));
    const settings = {
      ...baseTestEnv(),
      DATABASE_URL: inject("databaseUrl"),
      SHARED_STORE_URL: "redis://127.0.0.1:6379",
      // The test client stands behind a proxy on this machine, so each burst can be a client of its own.
      TRUSTED_PROXIES: "127.0.0.1/32",
    };
    writeFileSync(join(dir, ".env"), Object.entries(settings).map(([k, v]) => `${k}=${v}`).join("\n") + "\n");
    const started: Array<{ url: string; stop: () => Promise<void>; output: () => string }> = [];
    try {
      for (let i = 0; i < 2; i++) started.push(await startIn(dir, args, { PATH: PATH ?? "" }));
      const [a, b] = started as [(typeof started)[0], (typeof started)[0]];
      const statuses = await inOneWindow(15 * 60, async () => {
        // A client no earlier run has used: its own /64 (IPv6 clients are counted by /64).
        const client = `2001:db8:${randomBytes(2).toString("hex")}:${randomBytes(2).toString("hex")}::1`;
        const register = (url: string) =>
          fetch(`${url}/api/auth/register`, { method: "POST", headers: { "Content-Type": "application/json", "X-Forwarded-For": client }, body: "{}" }).then((r) => r.status);
        const seen: number[] = [];
        for (let i = 0; i < 5; i++) seen.push(await register(a.url));
        seen.push(await register(b.url));
        return seen;
      });
      // Five refused bodies on one process use the client's five registrations; the other process knows.
      for (const s of started) expect(s.output().split("\n").filter((l) => l.includes("rate limit"))).toEqual([]);
      expect(statuses).toEqual([400, 400, 400, 400, 400, 429]);
      for (const s of started) expect(s.output().split("\n").filter((l) => l.includes("rate limit"))).toEqual([]);
    } finally {
      for (const s of started) await s.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("npm start from its bundle with every optional feature on", () => {
  // What the bundle loads on first use (the SMTP client, the object-storage SDK, the metrics library, the
  // redis:// adapter) is found from .server/, not from lib/: each used once, through the real process.
  it("mails the sign-up's confirmation, stages an import in object storage, serves /metrics and counts limits in Redis", async () => {
    const s3 = await startS3Server();
    const smtp = await startSmtpServer({ tls: "none" });
    const metricsPort = await freePort();
    const { PATH } = await readProcessEnv({ dotenvPath: false });
    const server = await startEntrypoint({
      PATH: PATH ?? "",
      ...baseTestEnv(),
      DATABASE_URL: inject("databaseUrl"),
      ...s3.env,
      ...{ SMTP_HOST: "127.0.0.1", SMTP_PORT: String(smtp.port), SMTP_TLS_MODE: "none", EMAIL_FROM: "journal@example.com", WEB_BASE_URL: "http://localhost:3100" },
      ...{ METRICS_ENABLED: "true", METRICS_HOST: "127.0.0.1", METRICS_PORT: String(metricsPort) },
      SHARED_STORE_URL: "redis://127.0.0.1:6379",
    });
    // What the process says from here on (at start, other tests' stored keys in the shared database may warn).
    const from = server.output().length;
    try {
      const client = new TestClient(server.url);
      await signUpAndImport(client);
      expect((await smtp.waitFor(() => true, 5000)).text).toContain("http://localhost:3100/");
      expect(s3.log.map((line) => line.split(" ")[0] + " " + line.split(" ").at(-1))).toEqual(["PUT 200", "GET 200", "DELETE 204"]);
      const metrics = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
      expect(metrics.status).toBe(200);
      expect(await metrics.text()).toContain("http_requests_total");
      expect(server.output().slice(from).split("\n").filter((line) => /"level":"(warn|error)"/.test(line))).toEqual([]);
    } finally {
      await server.stop();
      await s3.close();
      await smtp.close();
    }
  });
});

/** functions/node.ts started in `cwd` with exactly `env` (plus a port the kernel just handed out), once /api/health answers 200. */
async function startIn(cwd: string, args: string[], env: Record<string, string>) {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [fileURLToPath(new URL("../../functions/node.ts", import.meta.url)), ...args], {
    cwd,
    env: { ...env, PORT: String(port) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr.on("data", (d: Buffer) => (output += d.toString()));
  const exitCode = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    await exitCode;
  };
  await expect
    .poll(async () => (await fetch(`${url}/api/health`).catch(() => undefined))?.status, { timeout: 20_000, interval: 100 })
    .toBe(200)
    .catch(async (err: unknown) => {
      await stop();
      throw new Error(`the entrypoint did not answer /api/health with 200 within 20 s; its output:\n${output}`, { cause: err });
    });
  return { url, child, exitCode, stop, output: () => output };
}
