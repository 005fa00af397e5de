// Before the Node entrypoint touches the database: is its port free? And if not, who holds it?
import { execFile } from "node:child_process";
import { createServer } from "node:net";

/** True when nothing listens on `port` (checked by listening on it for a moment). */
export function portIsFree(port: number, host = "0.0.0.0"): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once("error", () => resolve(false));
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve(true)));
  });
}

/** What holds the port, when it can be told: another journal server (it answers /api/health), or a process `ss` names. */
export async function portHolder(port: number): Promise<string | undefined> {
  try {
    const res = await fetch(`http://127.0.0.1:${port}/api/health`, { signal: AbortSignal.timeout(1000) });
    const body = (await res.json()) as { database?: unknown };
    if (typeof body.database === "string") return "another Trading Journal server (a second `npm run dev` or `npm start`?)";
  } catch {
    // not a journal, or not HTTP
  }
  return new Promise((resolve) => {
    execFile("ss", ["-ltnpH", `sport = :${port}`], { timeout: 1000 }, (err, stdout) => {
      const match = /users:\(\("([^"]+)",pid=(\d+)/.exec(err ? "" : stdout);
      resolve(match ? `${match[1]} (pid ${match[2]})` : undefined);
    });
  });
}
