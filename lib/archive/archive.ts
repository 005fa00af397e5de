// The complete archive (docs/accounts.md, "Everything, as one ZIP"): one zip file with everything a trader
// has here, streamed as it is written, one screenshot in memory at a time. Its entries, in this order:
//   manifest.json            what the archive holds (format, version, counts)
//   journal.json             the whole-account JSON export (lib/archive/data-export.ts): accounts, ledgers,
//                            fills, trades' journals, playbooks, rules, daily journal, splits, tag kinds
//   screenshots.json         each image's file, type and owner: a trade (its account's place in journal.json
//                            and the ref of the fill that opened it), a playbook (its ref), a journal day, or
//                            a detached note (what was written on a trade whose fills are gone)
//   screenshots/<id>.<ext>   the images' bytes, as stored (stored, not compressed again)
//   detached-notes.json      notes kept apart from their trades (their fills deleted or their import undone)
//   advisor/conversations.json  the advisor conversations with their messages (never a provider key)
//   imports/history.json     every import of every account: file name, format, counts, dates, and the refs of
//                            the fills it wrote (so an archive restored elsewhere can still undo it)
//   bars.json                the price bars the trader uploaded (candle CSVs), by symbol and resolution: each
//                            file's symbol, resolution and bar count (bars fetched on a key are fetched again)
//   bars/<n>.csv             those bars in the candle CSV layout the upload takes, at most BARS_UPLOAD_MAX_ROWS
//                            to a file
//   comments.json            the comments on the trader's trades, detached notes and days (theirs and their
//                            mentors'), each with its owner named as a screenshot's is, and its author: "you",
//                            or the mentor's email
//   settings.json            the trader's settings (base currency, digest, privacy mode) and their own exchange
//                            rates (docs/currencies.md)
// restore.ts reads it back.
import { Buffer } from "node:buffer";
import { sql } from "drizzle-orm";
import type { Zip } from "fflate";
import { exportUserData } from "./data-export.ts";
import type { AuthUser } from "../auth/session.ts";
import { isoUtc, rowsOf } from "../db/rows.ts";
import type { Deps } from "../deps.ts";
import { BARS_UPLOAD_MAX_ROWS, type BarResolution } from "../market/bars.ts";

export const ARCHIVE_FORMAT = "trading-journal-archive";
export const ARCHIVE_VERSION = 1;

const EXTENSIONS: Record<string, string> = { "image/png": "png", "image/jpeg": "jpg", "image/webp": "webp" };

type ImageRow = {
  id: string;
  content_type: string;
  storage_key: string | null;
  created_at: string;
  journal_id: string | null;
  account_id: string | null;
  open_fill: string | null;
  playbook_id: string | null;
  day_account_id: string | null;
  day: string | null;
};

/** An image's owner as the archive names it: by the refs of journal.json, never by this instance's row ids alone. */
function ownerOf(row: ImageRow, accountIndex: Map<string, number>) {
  if (row.playbook_id) return { playbook: row.playbook_id };
  if (row.day_account_id) return { day: { account: accountIndex.get(row.day_account_id) ?? null, date: row.day } };
  if (row.open_fill) return { trade: { account: accountIndex.get(row.account_id!) ?? null, openFill: row.open_fill } };
  return { detachedNote: row.journal_id };
}

/**
 * GET /api/archive: the archive as a stream of zip bytes. The JSON parts are made first (each bounded by
 * the journal's own limits); the images are read and written one at a time, from Postgres or object storage,
 * as the reader takes the stream.
 */
export async function archiveStream(deps: Pick<Deps, "db" | "now" | "storage" | "log">, user: AuthUser): Promise<{ stream: ReadableStream<Uint8Array>; fileName: string }> {
  const journal = await exportUserData(deps, user);
  const accounts = rowsOf<{ id: string; name: string }>(await deps.db.execute(sql`select id::text, name from accounts where user_id = ${user.id}::uuid order by created_at, id`));
  const accountIndex = new Map(accounts.map((a, i) => [a.id, i]));
  const images = rowsOf<ImageRow>(
    await deps.db.execute(sql`select i.id::text, i.content_type, i.storage_key, ${sql.raw(isoUtc("i.created_at"))} as created_at,
        i.journal_id::text, j.account_id::text, p.open_fill_id::text as open_fill, i.playbook_id::text, i.day_account_id::text, to_char(i.day, 'YYYY-MM-DD') as day
      from trade_images i left join trade_journals j on j.id = i.journal_id left join positions p on p.id = j.position_id
      where i.user_id = ${user.id}::uuid order by i.created_at, i.id`),
  );
  const comments = rowsOf<{ account_id: string; journal_id: string | null; open_fill: string | null; day: string | null; author: string; body: string; created_at: string }>(
    await deps.db.execute(sql`select c.account_id::text, c.journal_id::text, p.open_fill_id::text as open_fill, to_char(c.day, 'YYYY-MM-DD') as day,
        case when c.author_id = ${user.id}::uuid then 'you' else coalesce(u.email, c.author_label, 'a deleted user') end as author, c.body,
        ${sql.raw(isoUtc("c.created_at"))} as created_at
      from comments c left join trade_journals j on j.id = c.journal_id left join positions p on p.id = j.position_id left join users u on u.id = c.author_id
      where c.owner_id = ${user.id}::uuid order by c.created_at, c.id`),
  ).map((c) => ({
    owner: c.day
      ? { day: { account: accountIndex.get(c.account_id) ?? null, date: c.day } }
      : c.open_fill
        ? { trade: { account: accountIndex.get(c.account_id) ?? null, openFill: c.open_fill } }
        : { detachedNote: c.journal_id },
    author: c.author,
    body: c.body,
    createdAt: c.created_at,
  }));
  const file = (r: ImageRow) => `screenshots/${r.id}.${EXTENSIONS[r.content_type] ?? "bin"}`;
  const [detached] = rowsOf<{ json: string }>(
    await deps.db.execute(sql`select coalesce(json_agg(json_build_object('ref', j.id, 'account', a.name, 'symbol', j.symbol, 'direction', j.direction,
        'openedAt', ${sql.raw(isoUtc("j.opened_at"))}, 'closedAt', ${sql.raw(isoUtc("j.closed_at"))}, 'netPnl', format_decimal(j.net_pnl),
        'notes', j.notes, 'tags', j.tags, 'setup', j.setup, 'rating', j.rating, 'stopPrice', format_decimal(j.stop_price),
        'targetPrice', format_decimal(j.target_price), 'plannedRisk', format_decimal(j.planned_risk), 'playbook', j.playbook_id,
        'playbookAnswers', j.playbook_answers, 'detachedAt', ${sql.raw(isoUtc("j.detached_at"))})
        order by j.created_at, j.id), '[]'::json)::text as json
      from trade_journals j join accounts a on a.id = j.account_id where a.user_id = ${user.id}::uuid and j.position_id is null`),
  );
  const [conversations] = rowsOf<{ json: string }>(
    await deps.db.execute(sql`select coalesce(json_agg(json_build_object('id', c.id, 'title', c.title, 'provider', c.provider, 'model', c.model,
        'createdAt', ${sql.raw(isoUtc("c.created_at"))}, 'messages', coalesce((select json_agg(json_build_object('role', m.role, 'text', m.text,
          'toolCalls', m.tool_calls, 'status', m.status, 'createdAt', ${sql.raw(isoUtc("m.created_at"))}) order by m.created_at, m.id)
          from advisor_messages m where m.conversation_id = c.id), '[]'::json)) order by c.created_at, c.id), '[]'::json)::text as json
      from advisor_conversations c where c.user_id = ${user.id}::uuid`),
  );
  const [history] = rowsOf<{ json: string }>(
    await deps.db.execute(sql`select coalesce(json_agg(json_build_object('account', a.name, 'fileName', i.file_name, 'format', i.preset_id,
        'status', i.status, 'createdAt', ${sql.raw(isoUtc("i.created_at"))}, 'committedAt', ${sql.raw(isoUtc("i.committed_at"))},
        'undoneAt', ${sql.raw(isoUtc("i.undone_at"))}, 'fillsCreated', i.fills_created, 'summary', i.summary,
        'fills', coalesce((select json_agg(f.id order by f.executed_at, f.id) from fills f where f.import_id = i.id), '[]'::json))
        order by i.created_at, i.id), '[]'::json)::text as json
      from csv_imports i join accounts a on a.id = i.account_id where i.user_id = ${user.id}::uuid and i.status in ('committed', 'undone')`),
  );
  const [settings] = rowsOf<{ json: string }>(
    await deps.db.execute(sql`select json_build_object('baseCurrency', s.base_currency, 'privacyMode', coalesce(s.privacy_mode, false), 'digest', s.digest,
        'fxOverrides', coalesce((select json_agg(json_build_object('date', to_char(o.day, 'YYYY-MM-DD'), 'currency', o.currency, 'base', o.base,
          'rate', format_decimal(o.rate)) order by o.day, o.currency) from fx_overrides o where o.user_id = u.id), '[]'::json),
        'brokerRates', coalesce((select json_agg(json_build_object('account', ba.name, 'date', to_char(b.day, 'YYYY-MM-DD'), 'currency', b.currency, 'base', b.base,
          'rate', format_decimal(b.k)) order by ba.name, b.day, b.base) from fx_broker_rates b join accounts ba on ba.id = b.account_id where b.user_id = u.id), '[]'::json),
        'evaluations', coalesce((select json_agg(json_build_object('account', ea.name, 'firm', e.firm, 'phase', e.phase, 'startDate', to_char(e.start_date, 'YYYY-MM-DD'),
          'rules', e.rules, 'warnings', json_build_object('floorDistance', format_decimal(e.warn_floor), 'dailyLossLeft', format_decimal(e.warn_daily), 'email', e.warn_email))
          order by ea.name) from prop_evaluations e join accounts ea on ea.id = e.account_id where e.user_id = u.id), '[]'::json),
        'washDecisions', coalesce((select json_agg(json_build_object('symbol', w.symbol, 'lossSoldAt', to_char(w.loss_sold_at, 'YYYY-MM-DD'),
          'replacementSymbol', w.replacement_symbol, 'replacementAt', to_char(w.replacement_at, 'YYYY-MM-DD'), 'decision', w.decision)
          order by w.loss_sold_at, w.symbol, w.replacement_at, w.replacement_symbol) from tax_wash_decisions w where w.user_id = u.id), '[]'::json))::text as json
      from users u left join user_settings s on s.user_id = u.id where u.id = ${user.id}::uuid`),
  );
  // The uploaded bars, a file per BARS_UPLOAD_MAX_ROWS of a symbol and resolution: the restore stores each
  // file as an upload of it would be.
  const barFiles = rowsOf<{ symbol: string; resolution: BarResolution; n: number }>(
    await deps.db.execute(sql`select symbol, resolution, count(*)::int as n from bars where user_id = ${user.id}::uuid and source = 'upload'
      group by symbol, resolution order by symbol, resolution`),
  ).flatMap(({ symbol, resolution, n }) =>
    Array.from({ length: Math.ceil(n / BARS_UPLOAD_MAX_ROWS) }, (_, part) => ({ symbol, resolution, part, bars: Math.min(BARS_UPLOAD_MAX_ROWS, n - part * BARS_UPLOAD_MAX_ROWS) })),
  ).map((f, i) => ({ ...f, file: `bars/${i + 1}.csv` }));
  const manifest = {
    format: ARCHIVE_FORMAT,
    version: ARCHIVE_VERSION,
    exportedAt: deps.now().toISOString(),
    accounts: accounts.length,
    screenshots: images.length,
    conversations: (JSON.parse(conversations!.json) as unknown[]).length,
    imports: (JSON.parse(history!.json) as unknown[]).length,
    uploadedBars: barFiles.reduce((n, f) => n + f.bars, 0),
    comments: comments.length,
  };
  const index = images.map((r) => ({ file: file(r), contentType: r.content_type, createdAt: r.created_at, owner: ownerOf(r, accountIndex) }));
  const texts: Array<[string, string]> = [
    ["manifest.json", JSON.stringify(manifest, null, 2)],
    ["journal.json", journal.json],
    ["screenshots.json", JSON.stringify(index, null, 2)],
    ["detached-notes.json", detached!.json],
    ["advisor/conversations.json", conversations!.json],
    ["imports/history.json", history!.json],
    ["bars.json", JSON.stringify(barFiles.map(({ file, symbol, resolution, bars }) => ({ file, symbol, resolution, bars })), null, 2)],
    ["comments.json", JSON.stringify(comments, null, 2)],
    ["settings.json", settings!.json],
  ];

  // The zip writer is loaded with the first archive, not at start.
  const { strToU8, Zip: ZipWriter, ZipDeflate, ZipPassThrough } = await import("fflate");
  let next = 0;
  let zip!: Zip;
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      zip = new ZipWriter((err, chunk, final) => {
        if (err) return controller.error(err);
        if (chunk.length) controller.enqueue(chunk);
        if (final) controller.close();
      });
      for (const [name, text] of texts) {
        const entry = new ZipDeflate(name, { level: 6 });
        zip.add(entry);
        entry.push(strToU8(text), true);
      }
    },
    // One image, or one file of bars, per pull: the stream asks for more as the reader takes what it has.
    async pull(controller) {
      try {
        const k = next++;
        const row = images[k];
        if (row) {
          const bytes = await imageBytes(deps, row);
          const entry = new ZipPassThrough(file(row));
          zip.add(entry);
          entry.push(bytes ?? new Uint8Array(0), true);
          return;
        }
        const bars = barFiles[k - images.length];
        if (!bars) {
          zip.end();
          return;
        }
        const entry = new ZipDeflate(bars.file, { level: 6 });
        zip.add(entry);
        entry.push(strToU8(await barsCsv(deps, user, bars)), true);
      } catch (err) {
        controller.error(err);
      }
    },
  });
  return { stream, fileName: `trading-journal-archive-${deps.now().toISOString().slice(0, 10)}.zip` };
}

/** One file of uploaded bars, in the candle CSV layout POST /api/bars/upload reads (times ISO 8601 UTC). */
async function barsCsv(deps: Pick<Deps, "db">, user: AuthUser, f: { symbol: string; resolution: BarResolution; part: number }): Promise<string> {
  const [row] = rowsOf<{ csv: string | null }>(
    await deps.db.execute(sql`select string_agg(concat_ws(',', ${sql.raw(isoUtc("t"))}, format_decimal(open), format_decimal(high), format_decimal(low),
        format_decimal(close), format_decimal(volume)), E'\n' order by t) as csv
      from (select * from bars where user_id = ${user.id}::uuid and symbol = ${f.symbol} and resolution = ${f.resolution} and source = 'upload'
        order by t offset ${f.part * BARS_UPLOAD_MAX_ROWS} limit ${BARS_UPLOAD_MAX_ROWS}) b`),
  );
  return `time,open,high,low,close,volume\n${row?.csv ?? ""}\n`;
}

/** An image's bytes from where they are kept (an object gone missing is an empty file, logged, not a failed archive). */
async function imageBytes(deps: Pick<Deps, "db" | "storage" | "log">, row: ImageRow): Promise<Uint8Array | null> {
  if (!row.storage_key) {
    const [data] = rowsOf<{ data: string }>(await deps.db.execute(sql`select encode(data, 'base64') as data from trade_images where id = ${row.id}::uuid`));
    return data ? Buffer.from(data.data, "base64") : null;
  }
  if (!deps.storage) {
    deps.log.warn("an image of an archive is in object storage, which is not configured", { imageId: row.id });
    return null;
  }
  const bytes = await deps.storage.getBytes(row.storage_key);
  if (!bytes) deps.log.warn("an image of an archive is missing from object storage", { imageId: row.id });
  return bytes;
}
