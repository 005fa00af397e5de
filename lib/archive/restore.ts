// The complete archive taken back (docs/accounts.md, "Everything, as one ZIP"): POST /api/archive reads a zip
// made by archive.ts, here or on another instance, into the signed-in user's data, all or nothing.
//
// The upload goes to a scratch file as it arrives (deps.scratch), never whole in memory; the zip is then read
// from its central directory (@zip.js/zip.js, random access, each entry's CRC checked), so an image's bytes can
// never be mistaken for the next entry. Everything is checked before anything is written: the manifest,
// journal.json exactly as the JSON import checks it, and every other part against its schema and the refs of
// journal.json. The images are then read one at a time, checked as an upload is (image-bytes.ts), and staged
// in archive_restore_images (their bytes inline, or put in object storage under their final key); one
// statement (archive_restore) then writes the journal, takes the staged images onto their owners and adds the
// detached notes, conversations, import history and uploaded bars. A refusal at any step discards what was staged.
import { Buffer } from "node:buffer";
import { sql } from "drizzle-orm";
import * as z from "zod/mini";
import type { Entry, FileEntry } from "@zip.js/zip.js";
import { canonicalizeFileTags, checkUserData, restoreCap, restoreError, type RestoreSummary } from "./data-export.ts";
import type { DataExport } from "./data-export.ts";
import type { AuthUser } from "../auth/session.ts";
import { pgError, RAISED_EXCEPTION } from "../db/errors.ts";
import { rowsOf } from "../db/rows.ts";
import type { Deps } from "../deps.ts";
import { AppError, validationError } from "../errors.ts";
import { StorageUnavailableError, tradeImageKey } from "../storage/index.ts";
import { ScratchTooLarge, type ScratchFile } from "../storage/scratch.ts";
import { BAR_RESOLUTIONS, chartableSymbol, daysOf } from "../market/bars.ts";
import { parseCandleCsv } from "../market/bars-upload.ts";
import { TagListSchema } from "../tags/tag.ts";
import { textProblems } from "../text.ts";
import { cleanImage, ImageRejected } from "../trades/image-bytes.ts";
import { IMAGE_MAX_BYTES, IMAGE_MAX_SIDE } from "../trades/images.ts";
import { ARCHIVE_FORMAT, ARCHIVE_VERSION } from "./archive.ts";
import { COMMENT_MAX_CHARS } from "../sharing/comments.ts";
import { RulesSchema } from "../prop/schema.ts";

/** Largest JSON part read (journal.json and the others), uncompressed. */
export const ARCHIVE_PART_MAX_BYTES = 64 * 1024 * 1024;

export type ArchiveRestoreSummary = RestoreSummary & { screenshots: number; detachedNotes: number; conversations: number; imports: number; bars: number; comments: number };

const iso = () => z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z$/, "must be an ISO-8601 UTC time"));
const ref = () => z.string().check(z.minLength(1), z.maxLength(64, "is too long"));
const decimal = () => z.nullable(z.string().check(z.regex(/^-?\d{1,18}(\.\d{1,8})?$/, "must be a decimal")));

const ManifestSchema = z.looseObject({ format: z.literal(ARCHIVE_FORMAT), version: z.literal(ARCHIVE_VERSION) });

const TradeOwner = z.strictObject({ trade: z.strictObject({ account: z.int().check(z.nonnegative()), openFill: ref() }) });
const DayOwner = z.strictObject({ day: z.strictObject({ account: z.int().check(z.nonnegative()), date: z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date")) }) });
const NoteOwner = z.strictObject({ detachedNote: ref() });
const OwnerSchema = z.union([TradeOwner, z.strictObject({ playbook: ref() }), DayOwner, NoteOwner]);
const ScreenshotsSchema = z.array(
  z.looseObject({
    file: z.string().check(z.regex(/^screenshots\/[A-Za-z0-9-]{1,64}\.(png|jpg|webp|bin)$/, "must name an entry under screenshots/")),
    contentType: z.enum(["image/png", "image/jpeg", "image/webp"]),
    createdAt: iso(),
    owner: OwnerSchema,
  }),
);
/** comments.json (older archives have none): a playbook has no comments. */
const CommentsSchema = z.array(
  z.looseObject({
    owner: z.union([TradeOwner, DayOwner, NoteOwner]),
    author: z.string().check(z.minLength(1), z.maxLength(254)),
    body: z.string().check(z.minLength(1), z.maxLength(COMMENT_MAX_CHARS)),
    createdAt: iso(),
  }),
).check(z.maxLength(100_000));
const DetachedNotesSchema = z.array(
  z.looseObject({
    ref: ref(),
    account: z.string(),
    symbol: z.string().check(z.minLength(1), z.maxLength(64)),
    direction: z.nullable(z.enum(["long", "short"])),
    openedAt: z.nullable(iso()),
    closedAt: z.nullable(iso()),
    netPnl: z.optional(decimal()),
    notes: z.nullable(z.string().check(z.maxLength(20_000, "is too long"))),
    tags: z.nullable(TagListSchema),
    setup: z.nullable(z.string().check(z.maxLength(200))),
    rating: z.nullable(z.int().check(z.minimum(1), z.maximum(5))),
    stopPrice: z.optional(decimal()),
    targetPrice: z.optional(decimal()),
    plannedRisk: z.optional(decimal()),
    playbook: z.optional(z.nullable(ref())),
    playbookAnswers: z.optional(z.nullable(z.record(z.string(), z.unknown()))),
    detachedAt: z.nullable(iso()),
  }),
);
const ConversationsSchema = z.array(
  z.looseObject({
    title: z.string().check(z.maxLength(500)),
    provider: z.string().check(z.minLength(1), z.maxLength(64)),
    model: z.string().check(z.minLength(1), z.maxLength(200)),
    createdAt: iso(),
    messages: z.array(
      z.looseObject({
        role: z.enum(["user", "assistant"]),
        text: z.nullable(z.string()),
        toolCalls: z.nullable(z.array(z.unknown())),
        status: z.enum(["complete", "incomplete", "failed"]),
        createdAt: iso(),
      }),
    ),
  }),
);
const ImportsSchema = z.array(
  z.looseObject({
    account: z.string(),
    fileName: z.nullable(z.string().check(z.maxLength(500))),
    format: z.nullable(z.string().check(z.maxLength(64))),
    status: z.enum(["committed", "undone"]),
    createdAt: iso(),
    committedAt: z.nullable(iso()),
    undoneAt: z.nullable(iso()),
    fillsCreated: z.nullable(z.int().check(z.nonnegative())),
    summary: z.record(z.string(), z.unknown()),
    fills: z.optional(z.array(ref())),
  }),
);

const BarsIndexSchema = z.array(
  z.looseObject({
    file: z.string().check(z.regex(/^bars\/\d{1,6}\.csv$/, "must name an entry under bars/")),
    symbol: z.string().check(z.minLength(1), z.maxLength(40)),
    resolution: z.enum(BAR_RESOLUTIONS),
  }),
);

const code = () => z.string().check(z.regex(/^[A-Z]{3}$/, "must be a 3-letter currency code"));
/** A list of rates per date and currency to a base, of up to `decimals` decimals. */
const rateList = (decimals: number, more: Record<string, z.ZodMiniType> = {}) =>
  z.array(
    z.looseObject({
      ...more,
      date: z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date")),
      currency: code(),
      base: code(),
      rate: z.string().check(z.regex(new RegExp(`^\\d{1,18}(\\.\\d{1,${decimals}})?$`), "must be a positive decimal"), z.refine((v) => Number(v) > 0, "must be above 0")),
    }),
  ).check(z.maxLength(100_000));

/** settings.json (docs/currencies.md): what an instance can store of it; older archives have none. */
const SettingsPartSchema = z.looseObject({
  baseCurrency: z.optional(z.nullable(code())),
  privacyMode: z.optional(z.boolean()),
  digest: z.optional(z.nullable(z.looseObject({ weekly: z.boolean(), weekday: z.int().check(z.gte(0), z.lte(6)), hour: z.int().check(z.gte(0), z.lte(23)), zone: z.string().check(z.maxLength(64)) }))),
  fxOverrides: z.optional(rateList(10)),
  /** The brokers' own rates (fx_broker_rates), of the account named: what 1 of the currency is in the base. */
  brokerRates: z.optional(rateList(14, { account: z.string().check(z.maxLength(200)) })),
  /** The accounts' prop-firm evaluations (docs/prop-firms.md), each on the account named, its rules as the API takes them. */
  evaluations: z.optional(
    z.array(
      z.looseObject({
        account: z.string().check(z.maxLength(200)),
        firm: z.string().check(z.minLength(1), z.maxLength(100)),
        phase: z.enum(["evaluation", "funded"]),
        startDate: z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date")),
        rules: RulesSchema,
        /** The trader's warning thresholds (lib/prop/warnings.ts); archives before them have none. */
        warnings: z.optional(
          z.looseObject({
            floorDistance: z.nullable(z.string().check(z.regex(/^\d{1,18}(\.\d{1,10})?$/, "must be a positive decimal"))),
            dailyLossLeft: z.nullable(z.string().check(z.regex(/^\d{1,18}(\.\d{1,10})?$/, "must be a positive decimal"))),
            email: z.boolean(),
          }),
        ),
      }),
    ).check(z.maxLength(10_000)),
  ),
  /** The trader's decisions on possible wash sales through options (docs/tax.md). */
  washDecisions: z.optional(
    z.array(
      z.looseObject({
        symbol: z.string().check(z.minLength(1), z.maxLength(64)),
        lossSoldAt: z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date")),
        replacementSymbol: z.string().check(z.minLength(1), z.maxLength(64)),
        replacementAt: z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date")),
        decision: z.enum(["wash", "not_wash"]),
      }),
    ).check(z.maxLength(100_000)),
  ),
});

/** Uploaded bars read back from bars/: one upload's worth each, as bars_store takes them. */
type RestoredBars = Array<{ symbol: string; resolution: (typeof BAR_RESOLUTIONS)[number]; bars: string[][]; days: string[] }>;

type Extras = {
  settings: z.infer<typeof SettingsPartSchema>;
  screenshots: z.infer<typeof ScreenshotsSchema>;
  detachedNotes: z.infer<typeof DetachedNotesSchema>;
  conversations: z.infer<typeof ConversationsSchema>;
  imports: z.infer<typeof ImportsSchema>;
  comments: z.infer<typeof CommentsSchema>;
};

const notAnArchive = (detail: string) =>
  new AppError("VALIDATION_ERROR", `This file is not an archive made by Settings > Your data > Everything (ZIP); nothing was imported. ${detail}`, {
    fields: [{ path: "file", message: detail }],
  });

/** POST /api/archive: the archive in the request body (application/zip), written all or nothing. */
export async function restoreArchive(
  deps: Pick<Deps, "db" | "config" | "storage" | "scratch" | "log">,
  user: AuthUser,
  body: ReadableStream<Uint8Array> | null,
): Promise<ArchiveRestoreSummary> {
  if (!deps.scratch) {
    throw new AppError("SERVICE_UNAVAILABLE", "Importing an archive needs object storage on this server, which it does not have. Import its journal.json in Settings instead.");
  }
  if (!body) throw notAnArchive("The request has no body.");
  const max = deps.config.ARCHIVE_IMPORT_MAX_BYTES;
  let file: ScratchFile;
  try {
    file = await deps.scratch.keep(body, max);
  } catch (err) {
    if (err instanceof ScratchTooLarge) throw new AppError("PAYLOAD_TOO_LARGE", `The archive is larger than ${max} bytes, the most this instance takes (ARCHIVE_IMPORT_MAX_BYTES).`);
    throw err;
  }
  // The zip reader (its reading half only) is loaded with the first archive, not at start.
  const { ZipReader } = await import("@zip.js/zip.js/lib/zip-core-reader.js");
  const zip = new ZipReader(zipSource(file), { useWebWorkers: false, checkSignature: true });
  try {
    let entries: Entry[];
    try {
      entries = await zip.getEntries();
    } catch {
      throw notAnArchive("It is not a ZIP file, or it is cut short.");
    }
    const byName = new Map(entries.filter((e): e is FileEntry => !e.directory).map((e) => [e.filename, e]));
    const text = async (name: string, required: boolean): Promise<string | null> => {
      const entry = byName.get(name);
      if (!entry) {
        if (required) throw notAnArchive(`It has no ${name}.`);
        return null;
      }
      if (entry.uncompressedSize > ARCHIVE_PART_MAX_BYTES) throw new AppError("PAYLOAD_TOO_LARGE", `The archive's ${name} is larger than ${ARCHIVE_PART_MAX_BYTES} bytes.`);
      try {
        return new TextDecoder().decode(await entryBytes(entry));
      } catch {
        throw notAnArchive(`Its ${name} is damaged.`);
      }
    };
    const json = (name: string, value: string | null): unknown => {
      if (value === null) return [];
      try {
        return JSON.parse(value);
      } catch {
        throw notAnArchive(`Its ${name} is not JSON.`);
      }
    };
    const manifest = z.safeParse(ManifestSchema, json("manifest.json", await text("manifest.json", true)));
    if (!manifest.success) throw notAnArchive("Its manifest.json does not name this format and version.");
    const data = checkUserData((await text("journal.json", true))!);
    const part = <T,>(name: string, schema: z.ZodMiniType<T>, value: unknown): T => {
      const unstorable = textProblems(value);
      if (unstorable.length) throw validationError(unstorable.map((p) => ({ ...p, path: [name, ...p.path] })), `The archive's ${name} holds text that cannot be stored; nothing was imported.`);
      const parsed = z.safeParse(schema, value);
      if (!parsed.success) throw validationError(parsed.error.issues.map((i) => ({ ...i, path: [name, ...i.path] })), `The archive's ${name} is not one this instance can read; nothing was imported.`);
      return parsed.data;
    };
    const extras: Extras = {
      screenshots: part("screenshots.json", ScreenshotsSchema, json("screenshots.json", await text("screenshots.json", false))),
      detachedNotes: part("detached-notes.json", DetachedNotesSchema, json("detached-notes.json", await text("detached-notes.json", false))),
      conversations: part("advisor/conversations.json", ConversationsSchema, json("advisor/conversations.json", await text("advisor/conversations.json", false))),
      imports: part("imports/history.json", ImportsSchema, json("imports/history.json", await text("imports/history.json", false))),
      comments: part("comments.json", CommentsSchema, json("comments.json", await text("comments.json", false))),
      settings: await (async () => {
        const raw = await text("settings.json", false);
        return part("settings.json", SettingsPartSchema, raw === null ? {} : json("settings.json", raw));
      })(),
    };
    const problems = referenceProblems(data, extras, byName);
    if (problems.length) throw validationError(problems, "The archive's parts do not match up; nothing was imported.");
    // The uploaded bars, each file held to the rules of an upload (POST /api/bars/upload); older archives have none.
    const bars: RestoredBars = [];
    for (const [k, listed] of part("bars.json", BarsIndexSchema, json("bars.json", await text("bars.json", false))).entries()) {
      const at = (message: string) => validationError([{ path: ["bars.json", k], message: `${listed.file}: ${message}` }], `The archive's ${listed.file} is not bars this instance can store; nothing was imported.`);
      const csv = await text(listed.file, false);
      if (csv === null) throw at("is not in the archive");
      let symbol: string;
      let parsed: ReturnType<typeof parseCandleCsv>;
      try {
        symbol = chartableSymbol(listed.symbol);
        parsed = parseCandleCsv(csv);
      } catch (err) {
        if (err instanceof AppError) throw at(err.message);
        throw err;
      }
      if (parsed.problems.length) throw at(parsed.problems[0]!.message);
      bars.push({ symbol, resolution: listed.resolution, bars: parsed.bars.map((b) => [b.t, b.open, b.high, b.low, b.close, b.volume]), days: daysOf(parsed.bars, listed.resolution) });
    }
    await canonicalizeFileTags(deps, user.id, data, extras.detachedNotes);

    const restoreId = crypto.randomUUID();
    try {
      for (const shot of extras.screenshots) await stageImage(deps, user, restoreId, shot, byName.get(shot.file)!);
      const [row] = rowsOf<{ summary: ArchiveRestoreSummary }>(
        await deps.db.execute(
          sql`select archive_restore(${user.id}::uuid, ${JSON.stringify(data)}::jsonb, ${restoreCap(deps.config, user)}::integer, ${restoreId}::uuid, ${JSON.stringify({ ...extras, bars })}::jsonb) as summary`,
        ),
      );
      return row!.summary;
    } catch (err) {
      await deps.db
        .execute(sql`select archive_restore_discard(${restoreId}::uuid, null)`)
        .catch((dbErr: unknown) => deps.log.error("could not discard the staged images of a refused archive", { error: String(dbErr) }));
      const pg = pgError(err);
      if (pg?.code === RAISED_EXCEPTION && /^ARCHIVE_(OWNER|UNLISTED):/.test(pg.message)) {
        throw notAnArchive(`The owner of ${pg.message.slice(pg.message.indexOf(":") + 1)} is not in it.`);
      }
      throw restoreError(err);
    }
  } finally {
    await zip.close().catch(() => {});
    await file.dispose();
  }
}

/** Bytes read from the scratch file at a time. */
const READ_CHUNK_BYTES = 1024 * 1024;

/**
 * The scratch file as zip.js reads it (its Reader interface): random reads for the central directory and
 * headers, and `readable`, a stream of the `size` bytes from `offset` that the reader sets for each entry.
 */
function zipSource(file: ScratchFile) {
  return {
    size: file.size,
    readUint8Array: (index: number, length: number) => file.read(index, length),
    get readable() {
      let at = 0;
      // No chunk is read before the reader asks (highWaterMark 0): zip.js sets offset and size on the stream
      // after taking it, and workerd would otherwise pull at once, before they are set.
      const stream: ReadableStream<Uint8Array> & { offset?: number; size?: number } = new ReadableStream<Uint8Array>(
        {
          async pull(controller) {
            const end = stream.size ?? 0;
            if (at >= end) return controller.close();
            const chunk = await file.read((stream.offset ?? 0) + at, Math.min(READ_CHUNK_BYTES, end - at));
            if (!chunk.byteLength) return controller.error(new Error("the archive ends inside an entry"));
            at += chunk.byteLength;
            controller.enqueue(chunk);
          },
        },
        { highWaterMark: 0 },
      );
      return stream;
    },
  };
}

/** An entry's bytes, its CRC checked (entries are bounded by their callers: an image, a JSON part). */
async function entryBytes(entry: FileEntry): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  await entry.getData(new WritableStream<Uint8Array>({ write: (chunk) => void chunks.push(chunk) }));
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.byteLength, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

/** Every image listed is in the zip, and every ref an entry names is in journal.json (or the notes). */
function referenceProblems(data: DataExport, extras: Extras, files: Map<string, FileEntry>): Array<{ path: PropertyKey[]; message: string }> {
  const problems: Array<{ path: PropertyKey[]; message: string }> = [];
  const accountNames = new Set(data.accounts.map((a) => a.name));
  const fillRefs = data.accounts.map((a) => new Set(a.fills.map((f) => f.ref)));
  const playbooks = new Set((data.playbooks ?? []).map((p) => p.ref));
  const notes = new Set(extras.detachedNotes.map((n) => n.ref));
  extras.screenshots.forEach((s, k) => {
    const at = (message: string) => problems.push({ path: ["screenshots.json", k, "owner"], message: `${s.file}: ${message}` });
    if (!files.has(s.file)) problems.push({ path: ["screenshots.json", k, "file"], message: `${s.file} is not in the archive` });
    const o = s.owner;
    if ("trade" in o && !fillRefs[o.trade.account]?.has(o.trade.openFill)) at("its trade's opening fill is not in journal.json");
    if ("playbook" in o && !playbooks.has(o.playbook)) at("its playbook is not in journal.json");
    if ("day" in o && !fillRefs[o.day.account]) at("its account is not in journal.json");
    if ("detachedNote" in o && !notes.has(o.detachedNote)) at("its note is not in detached-notes.json");
  });
  extras.comments.forEach((c, k) => {
    const at = (message: string) => problems.push({ path: ["comments.json", k, "owner"], message });
    const o = c.owner;
    if ("trade" in o && !fillRefs[o.trade.account]?.has(o.trade.openFill)) at("its trade's opening fill is not in journal.json");
    if ("day" in o && !fillRefs[o.day.account]) at("its account is not in journal.json");
    if ("detachedNote" in o && !notes.has(o.detachedNote)) at("its note is not in detached-notes.json");
  });
  extras.detachedNotes.forEach((n, k) => {
    if (!accountNames.has(n.account)) problems.push({ path: ["detached-notes.json", k, "account"], message: `account "${n.account}" is not in journal.json` });
    if (n.playbook && !playbooks.has(n.playbook)) problems.push({ path: ["detached-notes.json", k, "playbook"], message: "its playbook is not in journal.json" });
  });
  extras.imports.forEach((imp, k) => {
    const index = data.accounts.findIndex((a) => a.name === imp.account);
    if (index < 0) problems.push({ path: ["imports/history.json", k, "account"], message: `account "${imp.account}" is not in journal.json` });
    else if ((imp.fills ?? []).some((f) => !fillRefs[index]!.has(f))) problems.push({ path: ["imports/history.json", k, "fills"], message: "names a fill that is not in its account" });
  });
  return problems.slice(0, 20);
}

/** One image read from the zip, checked as an upload is, and staged (inline, or in object storage under its final key). */
async function stageImage(
  deps: Pick<Deps, "db" | "storage" | "log">,
  user: AuthUser,
  restoreId: string,
  shot: Extras["screenshots"][number],
  entry: FileEntry,
): Promise<void> {
  const refused = (message: string) => new AppError("VALIDATION_ERROR", `The archive's ${shot.file} ${message}; nothing was imported.`, { fields: [{ path: shot.file, message }] });
  if (entry.uncompressedSize > IMAGE_MAX_BYTES) throw refused(`is larger than ${IMAGE_MAX_BYTES} bytes`);
  let bytes: Uint8Array;
  try {
    bytes = await entryBytes(entry);
  } catch {
    throw refused("is damaged");
  }
  let image;
  try {
    image = cleanImage(bytes);
  } catch (err) {
    if (err instanceof ImageRejected) throw refused("is not a PNG, JPEG or WebP image");
    throw err;
  }
  if (image.width > IMAGE_MAX_SIDE || image.height > IMAGE_MAX_SIDE) throw refused(`is larger than ${IMAGE_MAX_SIDE} pixels a side`);
  const id = crypto.randomUUID();
  const key = deps.storage ? tradeImageKey(user.id, id) : null;
  const data = key ? null : Buffer.from(image.bytes.buffer, image.bytes.byteOffset, image.bytes.byteLength).toString("base64");
  // The row first, then the object: a discarded row queues its key, in case the put reached the store.
  await deps.db.execute(sql`insert into archive_restore_images (id, restore_id, user_id, file, content_type, bytes, width, height, data, storage_key, created_at)
    values (${id}::uuid, ${restoreId}::uuid, ${user.id}::uuid, ${shot.file}, ${image.contentType}, ${image.bytes.byteLength}::integer, ${image.width}::integer,
      ${image.height}::integer, decode(${data}, 'base64'), ${key}, ${shot.createdAt}::timestamptz)`);
  if (deps.storage && key) {
    try {
      await deps.storage.put(key, image.bytes, image.contentType);
    } catch (err) {
      if (err instanceof StorageUnavailableError) {
        deps.log.warn("object storage unavailable for an archive's image", { detail: err.detail });
        throw new AppError("SERVICE_UNAVAILABLE", "Image storage is unavailable right now, so nothing was imported. Try again in a moment.", { headers: { "Retry-After": "30" } });
      }
      throw err;
    }
  }
}
