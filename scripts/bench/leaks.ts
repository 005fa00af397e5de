// Leak watch: the Node entrypoint's resident memory (VmRSS) after a warm-up, then after 100,000 reads of
// GET /api/accounts (32 at a time) and after 50 previews of a 10,000-row CSV file (each discarded), each
// measured at the half and at the end. A leak shows as growth that goes on in the second half; the
// baseline is the same process's RSS after the warm-up, measured in the same run.
import { readFileSync } from "node:fs";
import { Agent, request as undiciRequest } from "undici";
import { startEntrypoint } from "../../tests/support/entrypoint.ts";
import { generateCsv } from "./imports.ts";
import { registerBenchUser } from "./http.ts";

export const READS = 100_000;
export const PREVIEWS = 50;
const CONCURRENCY = 32;

const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) / 1024;

export async function measureLeaks(env: Record<string, string>, databaseUrl: string) {
  const server = await startEntrypoint({ ...env, DATABASE_URL: databaseUrl });
  const pid = server.child.pid!;
  const agent = new Agent({ connections: CONCURRENCY });
  try {
    const { cookie } = await registerBenchUser(server.url, "leaks");
    const call = async (path: string, init: { method?: "POST"; body?: FormData | string; headers?: Record<string, string> } = {}) => {
      const res = await undiciRequest(`${server.url}${path}`, { method: init.method ?? "GET", headers: { Cookie: cookie, ...init.headers }, body: init.body as string | undefined, dispatcher: agent });
      const text = await res.body.text();
      return { status: res.statusCode, text };
    };
    const created = await call("/api/accounts", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ name: "Leaks", currency: "USD" }) });
    const accountId = (JSON.parse(created.text) as { id: string }).id;
    const reads = async (n: number) => {
      let next = 0;
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (next < n) {
            next++;
            const res = await call("/api/accounts");
            if (res.status !== 200) throw new Error(`GET /api/accounts answered ${res.status}`);
          }
        }),
      );
    };
    const csv = generateCsv(10_000);
    const preview = async () => {
      const form = new FormData();
      form.set("file", new Blob([csv]), "leaks.csv");
      form.set("request", JSON.stringify({ accountId, presetId: "generic" }));
      const res = await fetch(`${server.url}/api/csv-import/preview`, { method: "POST", headers: { Cookie: cookie }, body: form });
      if (res.status !== 201) throw new Error(`preview answered ${res.status}`);
      const { importId } = (await res.json()) as { importId: string };
      await fetch(`${server.url}/api/csv-import/${importId}`, { method: "DELETE", headers: { Cookie: cookie } });
    };

    // Warm-up: the code paths loaded and the heap grown to its working size.
    await reads(5_000);
    for (let i = 0; i < 3; i++) await preview();
    // Each run of work in two halves: a leak keeps growing in the second half, a heap settling into its
    // working size does not.
    const baseline = rssMb(pid);
    await reads(READS / 2);
    const halfReads = rssMb(pid);
    await reads(READS / 2);
    const afterReads = rssMb(pid);
    for (let i = 0; i < PREVIEWS / 2; i++) await preview();
    const halfPreviews = rssMb(pid);
    for (let i = 0; i < PREVIEWS / 2; i++) await preview();
    const afterPreviews = rssMb(pid);
    return { baseline, halfReads, afterReads, halfPreviews, afterPreviews };
  } finally {
    await agent.close();
    await server.stop();
  }
}
