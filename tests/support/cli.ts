// Runs the operator CLI (scripts/cli.ts) in its own process, as an operator would, with stdin piped.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { readProcessEnv } from "../../lib/config/index.ts";
import { baseTestEnv } from "./env.ts";

const CLI = fileURLToPath(new URL("../../scripts/cli.ts", import.meta.url));
const { PATH } = await readProcessEnv({ dotenvPath: false });

/** Exit code and everything written to stdout and stderr. */
export function runCliProcess(databaseUrl: string, args: string[], stdin = "", env: Record<string, string> = {}): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd: "/tmp",
      env: { PATH: PATH ?? "", ...baseTestEnv(), DATABASE_URL: databaseUrl, ...env },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (out += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, out }));
    child.stdin.end(stdin);
  });
}
