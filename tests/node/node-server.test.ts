import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { runInNewContext } from "node:vm";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { bundleIsFresh } from "../../functions/node.ts";
import { startNodeServer, type NodeServer } from "../../functions/node-server.ts";
import { readProcessEnv } from "../../lib/config/index.ts";
import { createLogger } from "../../lib/log.ts";
import { freePort } from "../support/entrypoint.ts";
import { baseTestEnv, testConfig } from "../support/env.ts";

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
      expect(res.headers.get("Content-Security-Policy")).toContain("frame-ancestors 'none'");
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
    // A port the kernel just handed out, not a random one another test's server may hold.
    const port = await freePort();
    const child = spawn(process.execPath, [fileURLToPath(new URL("../../functions/node.ts", import.meta.url)), ...args], {
      env: { PATH: PATH ?? "", ...baseTestEnv(), DATABASE_URL: inject("databaseUrl"), PORT: String(port) },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (d: Buffer) => (output += d.toString()));
    child.stderr.on("data", (d: Buffer) => (output += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    try {
      await expect
        .poll(async () => (await fetch(`http://127.0.0.1:${port}/api/health`).catch(() => undefined))?.status, { timeout: 20_000, interval: 100 })
        .toBe(200)
        .catch((err: unknown) => {
          throw new Error(`the entrypoint did not answer /api/health with 200 within 20 s; its output:\n${output}`, { cause: err });
        });
      expect(output).toContain('"message":"listening"');
      if (!args.length) expect(bundleIsFresh()).toBe(true);
      child.kill("SIGTERM");
      expect(await exited).toBe(0);
    } finally {
      child.kill("SIGKILL");
    }
  });
});
