// Simulated traders for the load harness (issue 61; `npm run bench -- load`, tests/node/load.test.ts,
// docs/operations.md "Under load"): each signs in, then loops over a realistic mix with think time between
// steps (the dashboard, the trades list and a trade's page, notes and tags written, ledger entries, fills pushed
// with a personal access token, now and then a small CSV import and its undo), every loop bounded in steps and
// in time, every request in time. Each trader keeps a log of its writes and what they were answered, so that
// afterwards the database can be checked against it: every write answered 2xx present exactly once, every write
// answered an error absent.
import pg from "pg";
import { Agent, fetch as undiciFetch, FormData } from "undici";

export type Trader = {
  n: number;
  email: string;
  password: string;
  cookie: string;
  accountId: string;
  token: string;
  tradeIds: string[];
  startingBalance: string;
  /** An advisor conversation on the model providers' stand-in (tests/support/provider-server.ts), when set up with one. */
  conversationId?: string;
};

/** One request: its route group, status (0: no answer in time, or the connection failed) and time. */
export type Sample = { route: string; status: number; ms: number; at: number; retryAfter?: string; failure?: string };

/** One write and its answer; `key` finds it in the database. */
export type WriteLog = { kind: "ledger" | "fill" | "note" | "import" | "undo"; key: string; status: number; amount?: string; importId?: string };

export const PASSWORD = "load harness password";
const REQUEST_TIMEOUT_MS = 15_000;

// Many keep-alive connections, as many browsers would open; undici directly (Node's fetch is undici too).
const agent = new Agent({ connections: 2048, keepAliveTimeout: 30_000, connect: { timeout: 10_000 } });

async function call(base: string, path: string, init: { method?: string; cookie?: string; token?: string; json?: unknown; form?: FormData; client: number; idempotencyKey?: string }) {
  const headers: Record<string, string> = { "X-Forwarded-For": `10.${(init.client >> 16) & 255}.${(init.client >> 8) & 255}.${init.client & 255}` };
  if (init.idempotencyKey) headers["Idempotency-Key"] = init.idempotencyKey;
  if (init.cookie) headers.Cookie = init.cookie;
  if (init.token) headers.Authorization = `Bearer ${init.token}`;
  if (init.json !== undefined) headers["Content-Type"] = "application/json";
  const started = performance.now();
  try {
    const res = await undiciFetch(`${base}${path}`, {
      method: init.method ?? "GET",
      headers,
      body: init.json !== undefined ? JSON.stringify(init.json) : init.form,
      dispatcher: agent,
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    const text = await res.text();
    return { status: res.status, text, headers: res.headers, ms: performance.now() - started };
  } catch (err) {
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    return { status: 0, text: `${(err as Error).name}: ${cause?.code ?? cause?.message ?? (err as Error).message}`, headers: new Headers(), ms: performance.now() - started };
  }
}

/** A generic-preset CSV of two fills (a round trip) with execution ids unique to this import. */
function smallCsv(tag: string, when: Date) {
  const t = (m: number) => new Date(when.getTime() + m * 60_000).toISOString().slice(0, 19);
  return ["Date/Time,Symbol,Side,Quantity,Price,Fees,Execution ID", `${t(0)},IMPT,BUY,10,50.00,1.00,${tag}-1`, `${t(5)},IMPT,SELL,10,50.50,1.00,${tag}-2`].join("\r\n");
}

/**
 * `count` traders (numbered from `first`), set up through the API as a new user would be: registered (each as
 * its own client address: the server must trust 127.0.0.1 as a proxy), an account with a starting balance, two
 * closed trades pushed as fills, a personal access token for pushing fills, and with `advisor` (the server's
 * provider seams on the stand-in) a model key and a conversation. `parallel` at a time.
 */
export async function setUpTraders(base: string, count: number, { first = 0, parallel = 16, tag = "load", advisor = false } = {}): Promise<Trader[]> {
  const out: Trader[] = [];
  let next = 0;
  const one = async (n: number): Promise<Trader> => {
    const email = `${tag}-${n}-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const reg = await call(base, "/api/auth/register", { method: "POST", json: { email, password: PASSWORD }, client: n });
    if (reg.status !== 201) throw new Error(`register answered ${reg.status}: ${reg.text.slice(0, 200)}`);
    const cookie = reg.headers.getSetCookie()[0]!.split(";")[0]!;
    const acc = await call(base, "/api/accounts", { method: "POST", cookie, json: { name: "Main", currency: "USD", startingBalance: "10000" }, client: n });
    if (acc.status !== 201) throw new Error(`account answered ${acc.status}: ${acc.text.slice(0, 200)}`);
    const accountId = (JSON.parse(acc.text) as { id: string }).id;
    const tok = await call(base, "/api/auth/tokens", { method: "POST", cookie, json: { name: "load", scopes: ["read", "fills:write"], password: PASSWORD }, client: n });
    if (tok.status !== 201) throw new Error(`token answered ${tok.status}: ${tok.text.slice(0, 200)}`);
    const token = (JSON.parse(tok.text) as { token: string }).token;
    const day = Date.parse("2026-10-01T14:00:00Z") + n * 60_000;
    const fills = [0, 1, 2, 3].map((i) => ({ symbol: i < 2 ? "AAA" : "BBB", side: i % 2 ? "sell" : "buy", quantity: "10", price: i % 2 ? "101" : "100", fees: "1", executedAt: new Date(day + i * 3_600_000).toISOString(), executionId: `setup-${n}-${i}` }));
    const push = await call(base, "/api/fills/push", { method: "POST", token, json: { accountId, fills }, client: n, idempotencyKey: `setup-${n}-${email}` });
    if (push.status !== 200 && push.status !== 201) throw new Error(`push answered ${push.status}: ${push.text.slice(0, 200)}`);
    const trades = await call(base, `/api/trades?accountId=${accountId}`, { cookie, client: n });
    const tradeIds = (JSON.parse(trades.text) as { trades: Array<{ id: string }> }).trades.map((t) => t.id);
    let conversationId: string | undefined;
    if (advisor) {
      const key = await call(base, "/api/advisor/provider-keys/openai", { method: "PUT", cookie, json: { apiKey: `sk-load-${crypto.randomUUID().replaceAll("-", "")}` }, client: n });
      if (key.status !== 200) throw new Error(`provider key answered ${key.status}: ${key.text.slice(0, 200)}`);
      const made = await call(base, "/api/advisor/conversations", { method: "POST", cookie, json: {}, client: n });
      if (made.status !== 201) throw new Error(`conversation answered ${made.status}: ${made.text.slice(0, 200)}`);
      conversationId = (JSON.parse(made.text) as { id: string }).id;
    }
    return { n, email, password: PASSWORD, cookie, accountId, token, tradeIds, startingBalance: "10000", ...(conversationId ? { conversationId } : {}) };
  };
  await Promise.all(
    Array.from({ length: Math.min(parallel, count) }, async () => {
      for (let i = next++; i < count; i = next++) out.push(await one(first + i));
    }),
  );
  return out.sort((a, b) => a.n - b.n);
}

export type LoadOptions = {
  /** How long each trader keeps going. */
  durationMs: number;
  /** Think time between steps, uniform in [min, max] ms. */
  thinkMs: [number, number];
  /** The most steps one trader takes. */
  maxSteps?: number;
  /** Starts spread over this long (a ramp), so that the sign-ins do not all land at once. */
  rampMs?: number;
  /** Imports (preview, commit, undo) are one step in this many. */
  importEvery?: number;
};

export type LoadResult = { samples: Sample[]; writes: Map<number, WriteLog[]>; started: number; finished: number };

/** Runs every trader's loop until its time or steps are up. */
export async function runLoad(base: string, traders: Trader[], options: LoadOptions): Promise<LoadResult> {
  const samples: Sample[] = [];
  const writes = new Map<number, WriteLog[]>();
  const started = performance.now();
  const until = started + options.durationMs;
  const think = () => new Promise((r) => setTimeout(r, options.thinkMs[0] + Math.random() * (options.thinkMs[1] - options.thinkMs[0])));
  const record = (route: string, r: { status: number; ms: number; headers: Headers; text: string }) => {
    const retryAfter = r.headers.get("Retry-After");
    samples.push({ route, status: r.status, ms: r.ms, at: performance.now() - started, ...(retryAfter ? { retryAfter } : {}), ...(r.status === 0 ? { failure: r.text } : {}) });
  };

  const loop = async (t: Trader) => {
    const log: WriteLog[] = [];
    writes.set(t.n, log);
    await new Promise((r) => setTimeout(r, Math.random() * (options.rampMs ?? 0)));
    const c = { client: t.n };
    const login = await call(base, "/api/auth/login", { method: "POST", json: { email: t.email, password: t.password }, ...c });
    record("sign-in", login);
    // The newest session is the trader's from now on (a user keeps a bounded number of sessions).
    if (login.status === 200) t.cookie = login.headers.getSetCookie()[0]!.split(";")[0]!;
    const cookie = t.cookie;
    for (let step = 0; step < (options.maxSteps ?? 10_000) && performance.now() < until; step++) {
      await think();
      if (performance.now() >= until) break;
      const trade = t.tradeIds[step % t.tradeIds.length]!;
      const roll = Math.random();
      const key = `${t.n}-${step}-${crypto.randomUUID().slice(0, 8)}`;
      if (options.importEvery && step % options.importEvery === options.importEvery - 1) {
        const form = new FormData();
        form.set("file", new Blob([smallCsv(`imp-${key}`, new Date(Date.parse("2026-10-05T14:00:00Z") + step * 600_000))]), "load.csv");
        form.set("request", JSON.stringify({ accountId: t.accountId, presetId: "generic" }));
        const preview = await call(base, "/api/csv-import/preview", { method: "POST", cookie, form, ...c });
        record("import", preview);
        if (preview.status !== 201) continue;
        const importId = (JSON.parse(preview.text) as { importId: string }).importId;
        const commit = await call(base, "/api/csv-import/commit", { method: "POST", cookie, json: { importId }, ...c });
        record("import", commit);
        log.push({ kind: "import", key: `imp-${key}`, status: commit.status, importId });
        if (commit.status !== 200) continue;
        await think();
        const undo = await call(base, `/api/csv-import/${importId}/undo`, { method: "POST", cookie, ...c });
        record("import", undo);
        log.push({ kind: "undo", key: `imp-${key}`, status: undo.status, importId });
      } else if (t.conversationId && roll < 0.03) {
        // An advisor turn, timed to its whole streamed answer.
        const r = await call(base, `/api/advisor/conversations/${t.conversationId}/turns`, { method: "POST", cookie, json: { clientMessageId: crypto.randomUUID(), text: "How did my last week go?" }, ...c });
        // A stream that ends in an error event (or not at all) is counted as no answer, with what it said.
        record("advisor", r.status === 200 && !/event: done/.test(r.text) ? { ...r, status: 0, text: /event: error/.test(r.text) ? "the stream ended in an error event" : "the stream ended without done" } : r);
      } else if (roll < 0.22) {
        record("dashboard", await call(base, `/api/stats/summary?accountId=${t.accountId}`, { cookie, ...c }));
      } else if (roll < 0.4) {
        record("trades", await call(base, `/api/trades?accountId=${t.accountId}&pageSize=25`, { cookie, ...c }));
      } else if (roll < 0.58) {
        record("trade", await call(base, `/api/trades/${trade}`, { cookie, ...c }));
      } else if (roll < 0.66) {
        record("ledger read", await call(base, `/api/ledger/${t.accountId}`, { cookie, ...c }));
      } else if (roll < 0.8) {
        const notes = `note ${key}`;
        const r = await call(base, `/api/trades/${trade}`, { method: "PATCH", cookie, json: { notes, tags: [`t${step % 5}`] }, ...c });
        record("note", r);
        log.push({ kind: "note", key: `${trade} ${notes}`, status: r.status });
      } else if (roll < 0.9) {
        const amount = `${1 + (step % 9)}.25`;
        const r = await call(base, `/api/ledger/${t.accountId}/entries`, { method: "POST", cookie, json: { type: "deposit", amount, note: `dep ${key}` }, ...c });
        record("ledger write", r);
        log.push({ kind: "ledger", key: `dep ${key}`, status: r.status, amount });
      } else {
        const at = new Date(Date.parse("2026-11-02T15:00:00Z") + step * 60_000).toISOString();
        const r = await call(base, "/api/fills/push", { method: "POST", token: t.token, json: { accountId: t.accountId, fills: [{ symbol: "CCC", side: step % 2 ? "sell" : "buy", quantity: "1", price: "20", fees: "0.5", executedAt: at, executionId: `fill-${key}` }] }, idempotencyKey: `fill-${key}`, ...c });
        record("fills", r);
        log.push({ kind: "fill", key: `fill-${key}`, status: r.status });
      }
    }
  };
  await Promise.all(traders.map(loop));
  return { samples, writes, started, finished: performance.now() };
}

const ok = (status: number) => status >= 200 && status < 300;

/**
 * The database against the traders' logs: each ledger entry, fill and import commit answered 2xx present exactly
 * once (an undone import's fills gone), each answered an error (a status) absent; each trade's notes the last
 * ones answered 2xx; each account's balance (GET /api/accounts/:id) the sum of its ledger entries, and its
 * deposits the sum of the ones answered 2xx. A write that got no answer at all (status 0) may or may not have landed: it is
 * counted, not judged. Returns the problems found (none: nothing lost or doubled).
 */
export async function checkWrites(
  base: string,
  databaseUrl: string,
  traders: Trader[],
  writes: Map<number, WriteLog[]>,
): Promise<{ problems: string[]; checked: number; unanswered: number; lostAnswers: string[] }> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const problems: string[] = [];
  const lostAnswers: string[] = [];
  let checked = 0;
  let unanswered = 0;
  try {
    for (const t of traders) {
      const log = writes.get(t.n) ?? [];
      const ledger = await client.query<{ note: string; n: number; amount: string }>("select note, count(*)::int as n, sum(amount)::text as amount from ledger_entries where account_id = $1 and type = 'deposit' and note like 'dep %' group by note", [t.accountId]);
      const deposits = new Map(ledger.rows.map((r) => [r.note, r.n]));
      const depositAmounts = new Map(ledger.rows.map((r) => [r.note, r.amount]));
      const fills = await client.query<{ execution_id: string; n: number }>("select execution_id, count(*)::int as n from fills where account_id = $1 and execution_id like 'fill-%' group by 1", [t.accountId]);
      const pushed = new Map(fills.rows.map((r) => [r.execution_id, r.n]));
      const imported = await client.query<{ execution_id: string; n: number }>("select execution_id, count(*)::int as n from fills where account_id = $1 and execution_id like 'imp-%' group by 1", [t.accountId]);
      const importedBy = new Map(imported.rows.map((r) => [r.execution_id, r.n]));
      let expectedDeposits = 0n;
      const lastNote = new Map<string, string>();
      const undone = new Set(log.filter((w) => w.kind === "undo" && ok(w.status)).map((w) => w.key));
      for (const w of log) {
        if (w.status === 0) {
          unanswered++;
          continue;
        }
        checked++;
        const want = ok(w.status) ? 1 : 0;
        if (w.kind === "ledger") {
          const have = deposits.get(w.key) ?? 0;
          if (have !== want) problems.push(`trader ${t.n}: deposit "${w.key}" answered ${w.status}, present ${have} times`);
          if (want) expectedDeposits += BigInt(Math.round(Number(w.amount) * 100));
        } else if (w.kind === "fill") {
          const have = pushed.get(w.key) ?? 0;
          if (have !== want) problems.push(`trader ${t.n}: fill ${w.key} answered ${w.status}, present ${have} times`);
        } else if (w.kind === "note") {
          if (ok(w.status)) lastNote.set(w.key.split(" ")[0]!, w.key.slice(w.key.indexOf(" ") + 1));
        } else if (w.kind === "import") {
          const have = (importedBy.get(`${w.key}-1`) ?? 0) + (importedBy.get(`${w.key}-2`) ?? 0);
          const expected = ok(w.status) && !undone.has(w.key) ? 2 : 0;
          // An undo that got no answer leaves the import's fate open.
          const open = log.some((u) => u.kind === "undo" && u.key === w.key && u.status === 0);
          if (!open && have !== expected) {
            // A commit whose answer was lost with its connection after it committed (the database gone between
            // the commit and the answer) cannot be told from one that failed: the server says 503, and the retry
            // a client makes then answers what happened. Anything else is a lost or doubled write.
            const retry = w.status === 503 && have === 2 ? await call(base, "/api/csv-import/commit", { method: "POST", cookie: t.cookie, json: { importId: w.importId }, client: t.n }) : null;
            if (retry?.status === 409 && /already committed/.test(retry.text)) lostAnswers.push(`trader ${t.n}: import ${w.key} answered 503 after it committed; the retry answered 409 already committed`);
            else problems.push(`trader ${t.n}: import ${w.key} answered ${w.status}${undone.has(w.key) ? ", undone" : ""}, ${have} of its fills present`);
          }
        }
      }
      for (const [trade, notes] of lastNote) {
        const row = await client.query<{ notes: string | null }>("select notes from trade_journals where position_id = $1", [trade]);
        const unsure = log.some((w) => w.kind === "note" && w.status === 0 && w.key.startsWith(trade));
        if (!unsure && row.rows[0]?.notes !== notes) problems.push(`trader ${t.n}: trade ${trade} has notes "${row.rows[0]?.notes}", the last answered 2xx was "${notes}"`);
      }
      const sums = await client.query<{ total: string }>("select coalesce(sum(amount), 0)::text as total from ledger_entries where account_id = $1", [t.accountId]);
      // This run's deposits as stored, against what they were answered.
      const stored = log.filter((w) => w.kind === "ledger").reduce((sum, w) => sum + Number(depositAmounts.get(w.key) ?? 0), 0);
      const account = await call(base, `/api/accounts/${t.accountId}`, { cookie: t.cookie, client: t.n });
      if (account.status !== 200) {
        problems.push(`trader ${t.n}: GET /api/accounts/:id answered ${account.status} after the run: ${account.text.slice(0, 200)}`);
        continue;
      }
      const balance = (JSON.parse(account.text) as { balance: string }).balance;
      const s = { ...sums.rows[0]!, balance, deposits: String(stored) };
      const cents = (v: string) => BigInt(Math.round(Number(v) * 100));
      const unsureDeposits = log.some((w) => w.kind === "ledger" && w.status === 0);
      if (!unsureDeposits && cents(s.deposits) !== expectedDeposits) problems.push(`trader ${t.n}: deposits sum to ${s.deposits}, the ones answered 2xx to ${Number(expectedDeposits) / 100}`);
      if (cents(s.total) !== cents(s.balance)) problems.push(`trader ${t.n}: balance ${s.balance} but the entries sum to ${s.total}`);
    }
  } finally {
    await client.end();
  }
  return { problems, checked, unanswered, lostAnswers };
}

/** p-th percentile (0-100) of `xs`. */
export function percentile(xs: number[], p: number): number {
  if (xs.length === 0) return Number.NaN;
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** Per route group: count, p50/p95/p99 (ms) of the answered ones, and the statuses. */
export function summarize(samples: Sample[]) {
  const groups = new Map<string, Sample[]>();
  for (const s of samples) groups.set(s.route, [...(groups.get(s.route) ?? []), s]);
  return [...groups].map(([route, list]) => {
    const answered = list.filter((s) => s.status !== 0).map((s) => s.ms);
    const statuses: Record<string, number> = {};
    for (const s of list) statuses[s.status] = (statuses[s.status] ?? 0) + 1;
    return { route, count: list.length, p50: percentile(answered, 50), p95: percentile(answered, 95), p99: percentile(answered, 99), statuses };
  });
}
