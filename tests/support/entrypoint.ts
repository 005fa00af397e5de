// The real Node entrypoint (`npm start`) as a child process on a free port, for tests that must cross a
// real socket (end-to-end browser tests, process-level behaviour).
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const ENTRY = fileURLToPath(new URL("../../functions/node.ts", import.meta.url));
/**
 * The working directory of every entrypoint started here: empty, so a developer's .env (which `npm run dev`
 * writes at the root) never adds settings to a test's exact `env`.
 */
const EMPTY_DIR = join(tmpdir(), "journal-entrypoint-cwd");
mkdirSync(EMPTY_DIR, { recursive: true });

export type Entrypoint = { url: string; child: ChildProcess; output: () => string; stop: () => Promise<void> };

/** A port that was free a moment ago (the kernel picks it). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Runs functions/node.ts (from source) with exactly `env` in an empty directory (no .env) until it exits: its code and output. */
export async function runEntrypointToExit(env: Record<string, string>, timeoutMs = 30_000): Promise<{ code: number | null; output: string }> {
  // A port of its own unless the test names one: never the 3100 of an `npm run dev` running beside the tests.
  const port = env.PORT ?? String(await freePort());
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [ENTRY, "--from-source"], { cwd: EMPTY_DIR, env: { ...env, PORT: port }, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout!.on("data", (d: Buffer) => (output += d.toString()));
    child.stderr!.on("data", (d: Buffer) => (output += d.toString()));
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`the entrypoint was still running after ${timeoutMs} ms:\n${output}`));
    }, timeoutMs);
    child.once("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

/**
 * Starts functions/node.ts (its bundle) with exactly `env` (plus PORT: a free one, unless `env` names one its
 * other settings depend on) and resolves once /api/health answers 200.
 */
export async function startEntrypoint(env: Record<string, string>, timeoutMs = 30_000): Promise<Entrypoint> {
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [ENTRY], { cwd: EMPTY_DIR, env: { ...env, PORT: String(port) }, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout!.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (output += d.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
      await exited;
      clearTimeout(timer);
    }
  };
  const started = Date.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the entrypoint exited with ${child.exitCode}:\n${output}`);
    const status = await fetch(`${url}/api/health`).then((r) => r.status, () => 0);
    if (status === 200) return { url, child, output: () => output, stop };
    if (Date.now() - started > timeoutMs) {
      await stop();
      throw new Error(`the entrypoint did not answer /api/health within ${timeoutMs} ms:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}
