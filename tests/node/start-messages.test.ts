// What a developer reads when the Node entrypoint cannot start (`npm start`, and `npm run dev`, which runs
// the same main()): the port already taken, said before the database is touched; a database that cannot be
// reached, naming the variable and the embedded alternative; missing variables, pointing at npm run dev.
import { spawnSync } from "node:child_process";
import { createServer as createHttpServer } from "node:http";
import { createServer, type Server } from "node:net";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { readProcessEnv } from "../../lib/config/index.ts";
import { baseTestEnv } from "../support/env.ts";
import { freePort, runEntrypointToExit } from "../support/entrypoint.ts";

const { PATH } = await readProcessEnv({ dotenvPath: false });
const env = (extra: Record<string, string>) => ({ PATH: PATH ?? "", ...baseTestEnv(), ...extra });

async function listening<T extends Server | ReturnType<typeof createHttpServer>>(server: T): Promise<{ port: number; close(): Promise<void> }> {
  await new Promise<void>((resolve) => server.listen(0, "0.0.0.0", resolve));
  return { port: (server.address() as AddressInfo).port, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe("start-up messages", () => {
  it("a second server on the same port: says the port is taken and by another journal, before touching the database", async () => {
    const other = await listening(
      createHttpServer((_req, res) => {
        res.writeHead(200, { "Content-Type": "application/json" });
        res.end('{"status":"ok","database":"up"}');
      }),
    );
    try {
      // A database that would fail loudly if it were tried.
      const { code, output } = await runEntrypointToExit(env({ PORT: String(other.port), DATABASE_URL: "postgres://nobody:secret@127.0.0.1:1/journal" }));
      expect(code).toBe(1);
      expect(output).toContain(`Port ${other.port} is already in use by another Trading Journal server`);
      expect(output).not.toContain("cannot be reached");
    } finally {
      await other.close();
    }
  });

  it("a port held by something else: says it is taken", async () => {
    const other = await listening(createServer((socket) => socket.destroy()));
    try {
      const { code, output } = await runEntrypointToExit(env({ PORT: String(other.port), DATABASE_URL: "postgres://nobody@127.0.0.1:1/journal" }));
      expect(code).toBe(1);
      expect(output).toContain(`Port ${other.port} is already in use`);
      expect(output).toContain("set PORT to another port");
    } finally {
      await other.close();
    }
  });

  it("npm run dev's banner: one plain line with the address to open and how to stop, before anything else", async () => {
    const port = await freePort();
    const server = new URL("../../functions/node-main.ts", import.meta.url).href;
    const run = spawnSync(process.execPath, ["--input-type=module", "-e", `import { main } from ${JSON.stringify(server)}; await main({ banner: true });`], {
      env: env({ PORT: String(port), DATABASE_URL: "postgres://nobody@127.0.0.1:1/journal" }),
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(run.stdout.split("\n")[0]).toBe(`Trading journal: open http://localhost:${port} in your browser once "listening" appears below. Ctrl+C stops it.`);
    // npm start (no banner) prints none.
    expect((await runEntrypointToExit(env({ PORT: String(port), DATABASE_URL: "postgres://nobody@127.0.0.1:1/journal" }))).output).not.toContain("Trading journal: open");
  });

  it("a DATABASE_URL that cannot be reached: names the variable and where, never the password, and offers the embedded database", async () => {
    const { code, output } = await runEntrypointToExit(env({ PORT: String(await freePort()), DATABASE_URL: "postgres://journal:s3cret-pw@127.0.0.1:1/journal" }));
    expect(code).toBe(1);
    expect(output).toContain("The database of DATABASE_URL at 127.0.0.1:1 cannot be reached");
    expect(output).toContain("leave DATABASE_URL unset to use the embedded database");
    expect(output).not.toContain("s3cret-pw");
  });

  it("required variables missing: names them and points at npm run dev and npm run setup", async () => {
    const { SESSION_SECRET: _s, ENCRYPTION_KEY: _e, ...rest }: Record<string, string> = env({ PORT: String(await freePort()) });
    const { code, output } = await runEntrypointToExit(rest);
    expect(code).toBe(78);
    expect(output).toContain("SESSION_SECRET");
    expect(output).toContain("ENCRYPTION_KEY");
    expect(output).toContain("npm run dev");
    expect(output).toContain("npm run setup");
  });
});
