// Broker sync (DESIGN.md sections 10 and 11, "Broker sync", "More brokers"; docs/imports.md "Broker sync"): an
// account's connection to its broker, pulled on the schedule (the broker-sync job) and on demand into the same
// staged import pipeline as an upload. The provider's adapter (lib/sync/adapter.ts) pulls its records and
// normalises them to rows under its CSV preset; they are previewed (duplicates of fills already in the account,
// by execution id, are skipped, and so are fills the trader deleted) and committed in one statement, so a run is
// all or nothing and can be undone from the import history like any import. One run at a time per account (a
// partial unique index).
import { sql } from "drizzle-orm";
import Papa from "papaparse";
import { requireOwnAccount } from "../accounts/accounts.ts";
import type { AuthUser } from "../auth/session.ts";
import { additionalData, keyRing, open, seal } from "../crypto/envelope.ts";
import { pgError, UNIQUE_VIOLATION } from "../db/errors.ts";
import { isoUtc, rowsOf } from "../db/rows.ts";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { brokerBrokenEmail } from "../email/messages.ts";
import { commitImport, discardImport, previewImport } from "../imports/imports.ts";
import { FACTS, hintOf, tableOf, type Credentials, type Provider } from "./adapter.ts";
import { breaksConnection, SyncError } from "./errors.ts";
import { brokerConfigOf, type BrokerCall, type PulledRows } from "../ports/broker.ts";
import { credentialsOf, type BrokerConnectionInput } from "./schema.ts";

/** A run that has been "running" this long died with its process (or its Worker): the job marks it failed. */
export const RUN_LEASE_MINUTES = 15;
/**
 * How often the schedule pulls a healthy connection: twice a day, so a provider that keeps only a day of fills
 * is never missed, and Flex statements (end-of-day data) are fresh each morning.
 */
export const SYNC_EVERY_HOURS = 12;
/** A failed run (the service down, a statement not ready) is tried again this much later. */
export const RETRY_AFTER_HOURS = 1;
/**
 * The most fills one run imports (a first sync of a long history; an upload's limit is CSV_IMPORT_MAX_ROWS, when
 * larger, that one): more is refused with a way out (a later start date, the older history as files).
 */
export const SYNC_MAX_ROWS = 100_000;
/** At most this many connections are pulled per tick of the job, one after another. */
const SYNC_PER_TICK = 20;

const aad = (userId: string, accountId: string) => additionalData(userId, `broker:${accountId}`);

export type RunView = {
  id: string;
  trigger: "schedule" | "manual";
  status: "running" | "succeeded" | "failed";
  startedAt: string;
  finishedAt: string | null;
  imported: number;
  duplicates: number;
  /** Fills of the statement the trader had deleted by hand: left out, never brought back. */
  skippedDeleted: number;
  /** Every row the run left out, counted per reason (not a trade, before the start date, deleted by you...). */
  skipped: Array<{ reason: string; count: number }>;
  error: string | null;
  importId: string | null;
};

type RunRow = {
  id: string;
  trigger: RunView["trigger"];
  status: RunView["status"];
  started_at: string;
  finished_at: string | null;
  imported: number;
  duplicates: number;
  skipped_deleted: number;
  skipped: Array<{ reason: string; count: number }> | string;
  error: string | null;
  import_id: string | null;
};

const RUN_COLUMNS = sql.raw(`id::text, trigger, status, ${isoUtc("started_at")} as started_at, ${isoUtc("finished_at")} as finished_at, imported, duplicates, skipped_deleted, skipped, error, import_id::text`);

const toRun = (r: RunRow): RunView => ({
  id: r.id,
  trigger: r.trigger,
  status: r.status,
  startedAt: r.started_at,
  finishedAt: r.finished_at,
  imported: r.imported,
  duplicates: r.duplicates,
  skippedDeleted: r.skipped_deleted,
  skipped: typeof r.skipped === "string" ? JSON.parse(r.skipped) : r.skipped,
  error: r.error,
  importId: r.import_id,
});

export type ConnectionView = {
  provider: Provider;
  /** Interactive Brokers: the Flex query's id. */
  queryId?: string;
  /** Alpaca: the connection reads the paper trading API. */
  paper?: boolean;
  /** Alpaca: the account the keys open (a later answer for another account is refused); tastytrade: the account synced. */
  accountNumber?: string;
  /** tastytrade: the sandbox (cert) API. */
  sandbox?: boolean;
  /** Schwab: the last four digits of the account synced. */
  accountTail?: string;
  /** Tradovate: the account synced, and the demo API. */
  accountName?: string;
  demo?: boolean;
  /** Nothing executed before this day (the account's zone) is imported; null: everything the statement has. */
  startDate: string | null;
  /** The token's last four characters: the token itself is never shown again. */
  tokenHintTail: string;
  verified: boolean;
  /** Why the broker refused the token or the query on the last try (null while it works): the schedule skips it. */
  broken: string | null;
  /** Schwab: the sign-in has ended (a refused refresh, or its 7 days over): the trader signs in at Schwab again. */
  needsReauth: boolean;
  /** Paused by the trader: not pulled on the schedule (Sync now still pulls). */
  paused: boolean;
  lastRun: RunView | null;
};

async function lastRun(deps: Pick<Deps, "db">, accountId: string): Promise<RunView | null> {
  const [row] = rowsOf<RunRow>(await deps.db.execute(sql`select ${RUN_COLUMNS} from broker_sync_runs where account_id = ${accountId}::uuid order by started_at desc, id desc limit 1`));
  return row ? toRun(row) : null;
}

/** What of the settings a trader sees (Schwab's account hash stays with the server). */
const shownSettings = ({ accountHash: _hash, ...shown }: Record<string, string | boolean>) => shown;

async function view(deps: Pick<Deps, "db">, accountId: string): Promise<ConnectionView | null> {
  const [row] = rowsOf<{ provider: Provider; settings: Record<string, string | boolean> | string; start_date: string | null; token_tail: string; verified: boolean; broken: string | null; paused: boolean }>(
    await deps.db.execute(sql`select provider, settings, to_char(start_date, 'YYYY-MM-DD') as start_date, token_tail, verified, broken, paused from broker_connections where account_id = ${accountId}::uuid`),
  );
  if (!row) return null;
  return {
    provider: row.provider,
    ...shownSettings(typeof row.settings === "string" ? JSON.parse(row.settings) : row.settings),
    startDate: row.start_date,
    tokenHintTail: row.token_tail,
    verified: row.verified,
    broken: row.broken,
    needsReauth: row.provider === "schwab" && row.broken !== null,
    paused: row.paused,
    lastRun: await lastRun(deps, accountId),
  };
}

/**
 * One broker call through deps.brokers (in this process, or the brokers Worker): its answer, or the provider's
 * refusal thrown as the SyncError it was.
 */
async function brokerCall(deps: Pick<Deps, "brokers" | "config">, call: BrokerCall): Promise<{ verified?: Partial<Credentials>; pulled?: PulledRows }> {
  if (!deps.brokers) throw new SyncError(null, "unavailable", "Broker sync is not available on this server.");
  const result = await deps.brokers(call, brokerConfigOf(deps.config));
  if (!result.ok) throw new SyncError(result.error.code, result.error.problem, result.error.message, result.error.field);
  return result;
}

/** GET: `{connection}`, null when the account has none (not a 404: a page asks before there is one). */
export async function getConnection(deps: Pick<Deps, "db">, user: AuthUser, accountId: string): Promise<{ connection: ConnectionView | null }> {
  await requireOwnAccount(deps, user, accountId);
  return { connection: await view(deps, accountId) };
}

/**
 * PUT: the provider's credentials, checked with it first (one request). Credentials or settings the provider
 * refuses are a 400 naming the field, and nothing is saved; a provider that cannot answer now (down,
 * throttled) leaves the connection saved but not verified, and the first run says more. Saving starts the
 * cursor afresh (new keys may be another account's): the next run reads from the start date again, and what
 * the account has already is skipped as duplicates.
 */
export async function saveConnection(deps: Pick<Deps, "db" | "config" | "brokers">, user: AuthUser, accountId: string, input: BrokerConnectionInput): Promise<ConnectionView> {
  await requireOwnAccount(deps, user, accountId);
  const { provider, ...credentials } = credentialsOf(input);
  let verified = false;
  try {
    Object.assign(credentials, (await brokerCall(deps, { op: "verify", provider, credentials })).verified);
    verified = true;
  } catch (err) {
    if (!(err instanceof SyncError)) throw err;
    if (err.problem === "credentials" || err.problem === "settings" || err.problem === "reauth") {
      const words = err.message.replace(/^[^:]*: /, "");
      throw new AppError("VALIDATION_ERROR", err.message, { fields: [{ path: err.field ?? "", message: words }] });
    }
  }
  await storeConnection(deps, user.id, accountId, provider, credentials, input.startDate ?? null, verified);
  return (await view(deps, accountId))!;
}

/**
 * Writes an account's connection (the secret sealed, its hint, what may be shown), replacing the one it had:
 * not broken, its cursor started afresh. Shared by the PUT and Schwab's sign-in callback.
 */
export async function storeConnection(deps: Pick<Deps, "db" | "config">, userId: string, accountId: string, provider: Provider, credentials: Credentials, startDate: string | null, verified: boolean): Promise<void> {
  const ring = await keyRing(deps.config);
  const ciphertext = await seal(ring, JSON.stringify(credentials.secret), aad(userId, accountId));
  const tail = hintOf(provider, credentials.secret);
  await deps.db.execute(sql`insert into broker_connections (account_id, user_id, provider, ciphertext, key_id, token_tail, settings, start_date, verified, broken)
    values (${accountId}::uuid, ${userId}::uuid, ${provider}, ${ciphertext}, ${ring.current.id}, ${tail}, ${JSON.stringify(credentials.settings)}::jsonb, ${startDate}::date, ${verified}, null)
    on conflict (account_id) do update set provider = excluded.provider, ciphertext = excluded.ciphertext, key_id = excluded.key_id,
      token_tail = excluded.token_tail, settings = excluded.settings, start_date = excluded.start_date, verified = excluded.verified, broken = null,
      cursor = null, updated_at = now()`);
}

/** PATCH: pause the schedule's pulls of the connection, or resume them. */
export async function pauseConnection(deps: Pick<Deps, "db">, user: AuthUser, accountId: string, paused: boolean): Promise<ConnectionView> {
  await requireOwnAccount(deps, user, accountId);
  const done = rowsOf(await deps.db.execute(sql`update broker_connections set paused = ${paused}, updated_at = now() where account_id = ${accountId}::uuid returning 1`));
  if (done.length === 0) throw new AppError("NOT_FOUND", "This account has no broker connection.");
  return (await view(deps, accountId))!;
}

/**
 * POST test: the kept credentials checked with the provider now, nothing imported. Refused: the connection is
 * broken as a run would break it (the trader is told on the page; no email, they are looking at it). A
 * provider that cannot answer says so and changes nothing.
 */
export async function testConnection(deps: Pick<Deps, "db" | "config" | "brokers">, user: AuthUser, accountId: string): Promise<{ ok: boolean; message: string | null; connection: ConnectionView }> {
  await requireOwnAccount(deps, user, accountId);
  const [conn] = rowsOf<{ provider: Provider; ciphertext: string; settings: Record<string, string | boolean> | string }>(
    await deps.db.execute(sql`select provider, ciphertext, settings from broker_connections where account_id = ${accountId}::uuid`),
  );
  if (!conn) throw new AppError("NOT_FOUND", "This account has no broker connection.");
  const ring = await keyRing(deps.config);
  const secret = secretOf(await open(ring, conn.ciphertext, aad(user.id, accountId)));
  const settings = typeof conn.settings === "string" ? (JSON.parse(conn.settings) as Record<string, string | boolean>) : conn.settings;
  let outcome: { ok: boolean; message: string | null };
  try {
    const told = (await brokerCall(deps, { op: "verify", provider: conn.provider, credentials: { secret, settings } })).verified;
    if (told?.secret) {
      const sealed = await seal(ring, JSON.stringify(told.secret), aad(user.id, accountId));
      await deps.db.execute(sql`update broker_connections set ciphertext = ${sealed}, key_id = ${ring.current.id} where account_id = ${accountId}::uuid`);
    }
    await deps.db.execute(sql`update broker_connections set verified = true, broken = null, updated_at = now() where account_id = ${accountId}::uuid`);
    outcome = { ok: true, message: null };
  } catch (err) {
    if (!(err instanceof SyncError)) throw err;
    if (breaksConnection(err)) await deps.db.execute(sql`update broker_connections set broken = ${err.message}, verified = false, updated_at = now() where account_id = ${accountId}::uuid`);
    outcome = { ok: false, message: err.message };
  }
  return { ...outcome, connection: (await view(deps, accountId))! };
}

/** DELETE: the connection goes (its runs stay in the history of the account's imports, as imports). */
export async function deleteConnection(deps: Pick<Deps, "db">, user: AuthUser, accountId: string): Promise<void> {
  await requireOwnAccount(deps, user, accountId);
  const gone = rowsOf(await deps.db.execute(sql`delete from broker_connections where account_id = ${accountId}::uuid returning 1`));
  if (gone.length === 0) throw new AppError("NOT_FOUND", "This account has no broker connection.");
}

/** GET runs: the account's runs, newest first (the last 50). */
export async function listRuns(deps: Pick<Deps, "db">, user: AuthUser, accountId: string): Promise<{ runs: RunView[] }> {
  await requireOwnAccount(deps, user, accountId);
  const rows = rowsOf<RunRow>(await deps.db.execute(sql`select ${RUN_COLUMNS} from broker_sync_runs where account_id = ${accountId}::uuid order by started_at desc, id desc limit 50`));
  return { runs: rows.map(toRun) };
}

/**
 * Claims a run of the account: a new "running" row, or null when one is running already (the partial unique
 * index decides, whichever process asks).
 */
async function claimRun(deps: Pick<Deps, "db">, accountId: string, trigger: RunView["trigger"]): Promise<string | null> {
  try {
    const [row] = rowsOf<{ id: string }>(await deps.db.execute(sql`insert into broker_sync_runs (account_id, trigger) values (${accountId}::uuid, ${trigger}) returning id::text`));
    return row!.id;
  } catch (err) {
    if (pgError(err)?.code === UNIQUE_VIOLATION) return null;
    throw err;
  }
}

/**
 * POST sync: a run now, carried on after the answer (deps.defer). The run already going when there is one:
 * its id, and no second run.
 */
export async function startSync(deps: Deps, user: AuthUser, accountId: string): Promise<{ runId: string }> {
  await requireOwnAccount(deps, user, accountId);
  if (!(await view(deps, accountId))) throw new AppError("NOT_FOUND", "This account has no broker connection.");
  const runId = await claimRun(deps, accountId, "manual");
  if (!runId) {
    const [running] = rowsOf<{ id: string }>(await deps.db.execute(sql`select id::text from broker_sync_runs where account_id = ${accountId}::uuid and status = 'running'`));
    if (running) return { runId: running.id };
    return startSync(deps, user, accountId); // it finished between the two statements
  }
  deps.defer(() => runSync(deps, runId));
  return { runId };
}

type Connection = {
  account_id: string;
  user_id: string;
  provider: Provider;
  ciphertext: string;
  settings: Record<string, string | boolean> | string;
  cursor: string | null;
  /** The start of the connection's start date in the account's zone, as an instant (null: none). */
  not_before: string | null;
  email: string;
  email_verified: boolean;
  is_admin: boolean;
  plan: AuthUser["plan"];
};

type Outcome = { status: "succeeded" | "failed"; imported: number; duplicates: number; skippedDeleted: number; skipped?: Array<{ reason: string; count: number }>; error: string | null; importId: string | null; cursor: string | null };

/** The sealed secret: JSON of the provider's keys (an IBKR connection saved before adapters: the bare token). */
const secretOf = (text: string): Record<string, string> => (text.startsWith("{") ? (JSON.parse(text) as Record<string, string>) : { token: text });

/**
 * One run, to its end: the provider's records pulled since the connection's cursor, normalised to its preset's
 * rows, previewed and committed (nothing to import: no commit), and the run marked with its counts, or failed
 * with the provider's words. The cursor moves only with a run that succeeded; a secret the provider rotated is
 * sealed at once (the old one may be dead already). Credentials the provider refuses mark the connection
 * broken. Never throws: a run's failure is its row.
 */
export async function runSync(deps: Deps, runId: string): Promise<void> {
  let outcome: Outcome;
  const [conn] = rowsOf<Connection>(
    await deps.db.execute(sql`select c.account_id::text, c.user_id::text, c.provider, c.ciphertext, c.settings, c.cursor,
        ${sql.raw(isoUtc("(c.start_date::timestamp at time zone a.timezone)"))} as not_before, u.email, u.email_verified, u.is_admin, u.plan
      from broker_sync_runs r join broker_connections c on c.account_id = r.account_id join accounts a on a.id = c.account_id
      join users u on u.id = c.user_id where r.id = ${runId}::uuid`),
  );
  const adapter = conn ? FACTS[conn.provider] : null;
  try {
    if (!conn || !adapter) throw new SyncError(null, "unavailable", "The broker connection was removed.");
    const user: AuthUser = { id: conn.user_id, email: conn.email, emailVerified: conn.email_verified, isAdmin: conn.is_admin, plan: conn.plan };
    const ring = await keyRing(deps.config);
    const secret = secretOf(await open(ring, conn.ciphertext, aad(conn.user_id, conn.account_id)));
    const settings = typeof conn.settings === "string" ? (JSON.parse(conn.settings) as Record<string, string | boolean>) : conn.settings;
    const notBefore = conn.not_before ? new Date(conn.not_before) : null;
    const pulled = (await brokerCall(deps, { op: "pull", provider: conn.provider, credentials: { secret, settings }, since: { cursor: conn.cursor, notBefore: notBefore?.toISOString() ?? null } })).pulled!;
    if (pulled.secret) {
      const sealed = await seal(ring, JSON.stringify(pulled.secret), aad(conn.user_id, conn.account_id));
      await deps.db.execute(sql`update broker_connections set ciphertext = ${sealed}, key_id = ${ring.current.id}, updated_at = now() where account_id = ${conn.account_id}::uuid`);
    }
    if (pulled.settings) {
      await deps.db.execute(sql`update broker_connections set settings = ${JSON.stringify(pulled.settings)}::jsonb where account_id = ${conn.account_id}::uuid`);
    }
    const rows = pulled.rows;
    const cursor = pulled.cursor ?? conn.cursor;
    const maxRows = Math.max(SYNC_MAX_ROWS, deps.config.CSV_IMPORT_MAX_ROWS);
    if (rows.length > maxRows) {
      throw new SyncError(null, "unavailable", `${adapter.name} sent ${rows.length} fills at once, more than a run imports (${maxRows}): set a later "Import from" date on the connection and import the older history as files.`);
    }
    if (rows.length === 0) {
      outcome = { status: "succeeded", imported: 0, duplicates: 0, skippedDeleted: 0, error: null, importId: null, cursor };
    } else {
      const table = tableOf(adapter);
      const csv = Papa.unparse({ fields: table.headers, data: rows });
      const preview = await previewImport(deps, user, {
        fileName: `${adapter.name} sync ${deps.now().toISOString().slice(0, 10)}.csv`,
        bytes: new TextEncoder().encode(csv),
        request: { accountId: conn.account_id, presetId: adapter.presetId, ...(adapter.extraColumns ? { mapping: table.mapping } : {}) },
        sync: { notBefore, maxRows },
      });
      const skippedDeleted = preview.skippedDeleted ?? 0;
      const skipped = preview.skippedReasons ?? [];
      const invalid = preview.summary.invalid > 0 ? `${preview.summary.invalid} rows could not be read (${preview.errors[0]?.message ?? "see the import"}).` : null;
      if (preview.summary.toImport === 0) {
        await discardImport(deps, user, preview.importId);
        outcome = { status: "succeeded", imported: 0, duplicates: preview.summary.duplicate, skippedDeleted, skipped, error: invalid, importId: null, cursor };
      } else {
        const done = await commitImport(deps, user, preview.importId, false);
        outcome = { status: "succeeded", imported: done.fillsCreated ?? 0, duplicates: preview.summary.duplicate, skippedDeleted, skipped, error: invalid, importId: preview.importId, cursor };
      }
    }
    await deps.db.execute(sql`update broker_connections set verified = true where account_id = ${conn.account_id}::uuid and not verified`);
  } catch (err) {
    const message = err instanceof SyncError || err instanceof AppError ? err.message : "The sync failed unexpectedly; it will be tried again.";
    if (!(err instanceof SyncError) && !(err instanceof AppError)) deps.log.error("broker sync failed", { runId, error: err instanceof Error ? err.message : String(err) });
    if (conn && adapter && err instanceof SyncError && breaksConnection(err)) {
      // The trader is told once, when it breaks (by email when the instance sends email; the page says it too).
      const [newly] = rowsOf<{ name: string }>(
        await deps.db.execute(sql`update broker_connections c set broken = ${err.message}, verified = false, updated_at = now()
          from accounts a where c.account_id = ${conn.account_id}::uuid and a.id = c.account_id and c.broken is null returning a.name`),
      );
      const mailer = deps.mailer;
      if (newly && mailer) deps.defer(() => mailer.send({ to: conn.email, ...brokerBrokenEmail(deps.config, conn.account_id, newly.name, err.message, adapter.name, adapter.mend) }));
      if (!newly) await deps.db.execute(sql`update broker_connections set broken = ${err.message}, updated_at = now() where account_id = ${conn.account_id}::uuid`);
    }
    outcome = { status: "failed", imported: 0, duplicates: 0, skippedDeleted: 0, error: message, importId: null, cursor: null };
  }
  const [finished] = rowsOf(
    await deps.db.execute(sql`update broker_sync_runs set status = ${outcome.status}, finished_at = now(), imported = ${outcome.imported},
      duplicates = ${outcome.duplicates}, skipped_deleted = ${outcome.skippedDeleted}, skipped = ${JSON.stringify(outcome.skipped ?? [])}::jsonb, error = ${outcome.error}, import_id = ${outcome.importId}::uuid
      where id = ${runId}::uuid and status = 'running' returning 1`),
  );
  if (finished && conn && outcome.status === "succeeded" && outcome.cursor !== conn.cursor) {
    await deps.db.execute(sql`update broker_connections set cursor = ${outcome.cursor} where account_id = ${conn.account_id}::uuid and cursor is not distinct from ${conn.cursor}`);
  }
}

/**
 * The broker-sync job: runs still "running" past their lease are failed (their process died; a commit is one
 * statement, so nothing of them was half-written), then each healthy connection not pulled for
 * SYNC_EVERY_HOURS (RETRY_AFTER_HOURS after a failed run) is run, one after another, claiming its run as a click would (one at a time per account,
 * across processes). Returns the runs made.
 */
export async function syncDueConnections(deps: Deps): Promise<number> {
  await deps.db.execute(sql`update broker_sync_runs set status = 'failed', finished_at = now(),
    error = 'The sync was interrupted (its process stopped); nothing of it was written. The next one starts on schedule.'
    where status = 'running' and started_at < now() - make_interval(mins => ${RUN_LEASE_MINUTES})`);
  const due = rowsOf<{ account_id: string }>(
    await deps.db.execute(sql`select c.account_id::text from broker_connections c
      where c.broken is null and not c.paused and not exists (select 1 from broker_sync_runs r where r.account_id = c.account_id
        and (r.started_at > now() - make_interval(hours => ${SYNC_EVERY_HOURS}) and r.status <> 'failed'
          or r.started_at > now() - make_interval(hours => ${RETRY_AFTER_HOURS})))
      order by c.updated_at limit ${SYNC_PER_TICK}`),
  );
  let runs = 0;
  for (const { account_id } of due) {
    const runId = await claimRun(deps, account_id, "schedule");
    if (!runId) continue;
    await runSync(deps, runId);
    runs++;
  }
  return runs;
}
