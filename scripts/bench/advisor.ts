// The advisor through the real entrypoint and the model provider's stand-in (its first chunk after `#slow`
// ms): the server's overhead before the first answer text reaches the client (time to the first delta event
// minus the stand-in's own time to its first chunk, asked directly, in turns), and the memory of open streams
// (the process's RSS growth while 100 slow turns stream at once, against the same process at rest).
import { readFileSync } from "node:fs";
import { startEntrypoint } from "../../tests/support/entrypoint.ts";
import { startProviderServer } from "../../tests/support/provider-server.ts";
import { registerBenchUser, request } from "./http.ts";

export const TTFB_ROUNDS = 25;
export const OPEN_STREAMS = 100;
/** The stand-in's delay before each chunk in the first-byte runs. */
export const STAND_IN_DELAY_MS = 20;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Milliseconds from sending `init` to `url` until the body holds `marker`; the rest of the body is cancelled. */
async function timeToMarker(url: string, init: RequestInit, marker: string): Promise<number> {
  const started = performance.now();
  const res = await fetch(url, init);
  if (res.status !== 200) throw new Error(`${url} answered ${res.status}: ${await res.text()}`);
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) throw new Error(`the stream ended without ${marker}`);
    text += decoder.decode(value, { stream: true });
    if (text.includes(marker)) {
      const ms = performance.now() - started;
      await reader.cancel();
      return ms;
    }
  }
}

const rssOf = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]) * 1024;

export async function measureAdvisor(env: Record<string, string>, databaseUrl: string) {
  const stand = await startProviderServer();
  const server = await startEntrypoint({ ...env, ...stand.env, DATABASE_URL: databaseUrl });
  try {
    // 30 turns a minute per user and one turn per conversation at a time: five users (the most one address may register at once) of 25 conversations each.
    const users = await Promise.all(Array.from({ length: 5 }, (_, i) => registerBenchUser(server.url, `advisor-${i}`)));
    const conversations: Array<{ cookie: string; id: string }> = [];
    for (const { cookie } of users) {
      const saved = await request(`${server.url}/api/advisor/provider-keys/openai`, {
        method: "PUT",
        headers: { "Content-Type": "application/json", Cookie: cookie },
        body: JSON.stringify({ apiKey: `sk-bench-${crypto.randomUUID()}` }),
      });
      if (saved.status !== 200) throw new Error(`key save answered ${saved.status}`);
      for (let i = 0; i < 25; i++) {
        const created = await request(`${server.url}/api/advisor/conversations`, { method: "POST", headers: { "Content-Type": "application/json", Cookie: cookie }, body: "{}" });
        conversations.push({ cookie, id: (JSON.parse(created.body) as { id: string }).id });
      }
    }
    const turnInit = (c: { cookie: string }, text: string): RequestInit => ({
      method: "POST",
      headers: { "Content-Type": "application/json", Cookie: c.cookie },
      body: JSON.stringify({ clientMessageId: crypto.randomUUID(), text }),
    });
    const directInit = (text: string): RequestInit => ({
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: "Bearer sk-bench-direct" },
      body: JSON.stringify({ model: "gpt-5.1", stream: true, stream_options: { include_usage: true }, messages: [{ role: "user", content: text }] }),
    });

    // Time to first answer text, the server against the stand-in asked directly, in turns.
    const prompt = `Hello #slow:${STAND_IN_DELAY_MS} #chunks:3`;
    const server_: number[] = [];
    const direct: number[] = [];
    let next = 0;
    for (let round = -3; round < TTFB_ROUNDS; round++) {
      const c = conversations[OPEN_STREAMS + (next++ % 25)]!; // the last user's: the first four stream below
      const viaServer = await timeToMarker(`${server.url}/api/advisor/conversations/${c.id}/turns`, turnInit(c, prompt), "event: delta");
      const viaDirect = await timeToMarker(`${stand.env.OPENAI_BASE_URL}/chat/completions`, directInit(prompt), '"content"');
      if (round >= 0) {
        server_.push(viaServer);
        direct.push(viaDirect);
      }
    }

    // Memory: 100 turns streaming at once (a chunk a second). At rest: the median of 10 samples over 2 s of quiet;
    // busy: the highest of 15 samples over the 3 s after every stream has sent its first text.
    const sample = async (n: number, every: number) => {
      const out: number[] = [];
      for (let i = 0; i < n; i++) {
        out.push(rssOf(server.child.pid!));
        await new Promise((r) => setTimeout(r, every));
      }
      return out;
    };
    await new Promise((r) => setTimeout(r, 1000));
    const idle = median(await sample(10, 200));
    const open = conversations.slice(0, OPEN_STREAMS).map(async (c) => {
      const res = await fetch(`${server.url}/api/advisor/conversations/${c.id}/turns`, turnInit(c, "Stream slowly #slow:1000 #chunks:8"));
      if (res.status !== 200) throw new Error(`turn answered ${res.status}`);
      const reader = res.body!.getReader();
      const decoder = new TextDecoder();
      let text = "";
      while (!text.includes("event: delta")) {
        const { done, value } = await reader.read();
        if (done) break;
        text += decoder.decode(value, { stream: true });
      }
      return reader;
    });
    // (the streams keep flowing while sampled: a chunk a second for 8 s)
    const readers = await Promise.all(open);
    const busy = Math.max(...(await sample(15, 200)));
    await Promise.all(readers.map((r) => r.cancel()));
    return {
      serverMs: median(server_),
      directMs: median(direct),
      overheadP50: median(server_.map((s, i) => s - direct[i]!)),
      idleRss: idle,
      busyRss: busy,
      perStream: (busy - idle) / OPEN_STREAMS,
    };
  } finally {
    await server.stop();
    await stand.close();
  }
}
