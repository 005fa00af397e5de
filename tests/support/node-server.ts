// The real Node server (functions/node-server.ts startNodeServer) for tests: on a free port of 127.0.0.1, silent,
// without the scheduler, on the test database unless `env` names another.
import { inject } from "vitest";
import { startNodeServer, type NodeServer, type StartOptions } from "../../functions/node-server.ts";
import { createLogger } from "../../lib/log.ts";
import { testConfig } from "./env.ts";
import { startTcpProxy, type TcpProxy } from "./tcp-proxy.ts";

export function startTestServer(env: Record<string, string> = {}, options: StartOptions = {}): Promise<NodeServer> {
  return startNodeServer(testConfig({ DATABASE_URL: inject("databaseUrl"), ...env }), {
    port: 0,
    hostname: "127.0.0.1",
    scheduler: false,
    log: createLogger({ silent: true }),
    ...options,
  });
}

/** The server reaching the test database through a TCP proxy the test can cut and restore. */
export async function startTestServerBehindProxy(
  env: Record<string, string> = {},
  options: StartOptions = {},
): Promise<{ server: NodeServer; proxy: TcpProxy; close(): Promise<void> }> {
  const proxy = await startTcpProxy();
  const url = new URL(inject("databaseUrl"));
  url.port = String(proxy.port);
  try {
    const server = await startTestServer({ ...env, DATABASE_URL: url.toString() }, options);
    return {
      server,
      proxy,
      close: async () => {
        await server.close();
        await proxy.close();
      },
    };
  } catch (err) {
    await proxy.close();
    throw err;
  }
}
