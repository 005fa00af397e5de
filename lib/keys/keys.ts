// Bring-your-own keys: one per model provider and one market-data key per user, sealed (lib/crypto/envelope.ts)
// before they reach the database, checked by a probe before they are kept. The plaintext never leaves this
// module except to the provider it belongs to: no response, log line, error message or analytics carries it.
import { and, eq, ne, sql } from "drizzle-orm";
import { track } from "../analytics/index.ts";
import type { AuthUser } from "../auth/session.ts";
import { storedKeys } from "../db/schema.ts";
import { rowsOf } from "../db/rows.ts";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { additionalData, EnvelopeError, keyRing, open, seal, TOTP_AAD, type KeyRing } from "../crypto/envelope.ts";
import { chooseDefaultModel, FALLBACK_MODELS } from "../providers/models.ts";
import { DATA_KEYS, isModelProvider, listModels, MARKET_DATA, MODEL_PROVIDERS, type DataKeyProvider, type KeyProvider, type ModelProvider, type Probe } from "../providers/providers.ts";
import { PROVIDER_NAMES, type MarketDataKeySave, type ProviderKeyPatch, type ProviderKeySave } from "../providers/schema.ts";

type StoredKey = typeof storedKeys.$inferSelect;

/** ProviderKeyListItem (DESIGN.md section 8). */
export type ProviderKeyListItem = {
  provider: ModelProvider;
  keyHintTail: string;
  defaultModel: string;
  verified: boolean;
  createdAt: string;
  updatedAt: string;
};

function toItem(row: StoredKey): ProviderKeyListItem {
  return {
    provider: row.provider as ModelProvider,
    keyHintTail: row.keyHint,
    defaultModel: row.defaultModel ?? FALLBACK_MODELS[row.provider as ModelProvider],
    verified: row.verified,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The path's provider, or 404 NOT_FOUND for anything but the four (DESIGN.md section 8). */
export function modelProvider(value: string): ModelProvider {
  if (!isModelProvider(value)) throw new AppError("NOT_FOUND", `Unknown provider: use one of ${MODEL_PROVIDERS.join(", ")}.`);
  return value;
}

/** The last four characters: all a response, a page or a log may show of a key. */
const hintOf = (apiKey: string) => apiKey.slice(-4);

// Model listings per stored key, for the model picker and the default-model check: 10 minutes, at most
// MAX_CACHED keys (the oldest entry goes first). Keyed by the envelope's authentication tag (its last 16
// bytes, unique to each sealing): a replaced or rotated key never hits an old listing.
const LISTING_TTL_MS = 10 * 60_000;
const MAX_CACHED = 1000;
const listings = new Map<string, { at: number; models: string[] }>();

const cacheKey = (row: Pick<StoredKey, "userId" | "provider" | "ciphertext">) => `${row.userId}:${row.provider}:${row.ciphertext.slice(-24)}`;

function remember(key: string, models: string[], now: number): void {
  listings.delete(key);
  listings.set(key, { at: now, models });
  while (listings.size > MAX_CACHED) listings.delete(listings.keys().next().value!);
}

function recalled(key: string, now: number): string[] | undefined {
  const hit = listings.get(key);
  if (!hit || now - hit.at > LISTING_TTL_MS) return undefined;
  return hit.models;
}

/** Test hook: how many listings are cached (the bound is part of the contract). */
export function cachedListings(): number {
  return listings.size;
}

async function findKey(deps: Pick<Deps, "db">, userId: string, provider: KeyProvider): Promise<StoredKey | undefined> {
  const [row] = await deps.db
    .select()
    .from(storedKeys)
    .where(and(eq(storedKeys.userId, userId), eq(storedKeys.provider, provider)));
  return row;
}

async function upsertKey(
  deps: Pick<Deps, "db" | "config" | "now">,
  userId: string,
  provider: KeyProvider,
  apiKey: string,
  fields: { verified: boolean; defaultModel: string | null },
): Promise<StoredKey> {
  const ring = await keyRing(deps.config);
  const ciphertext = await seal(ring, apiKey, additionalData(userId, provider));
  const now = deps.now();
  const [row] = await deps.db
    .insert(storedKeys)
    .values({ userId, provider, ciphertext, keyId: ring.current.id, keyHint: hintOf(apiKey), ...fields, createdAt: now, updatedAt: now })
    .onConflictDoUpdate({
      target: [storedKeys.userId, storedKeys.provider],
      set: { ciphertext, keyId: ring.current.id, keyHint: hintOf(apiKey), ...fields, updatedAt: now },
    })
    .returning();
  return row!;
}

function invalidKey(provider: ModelProvider, status: number): AppError {
  return new AppError(
    "PROVIDER_KEY_INVALID",
    `${PROVIDER_NAMES[provider]} refused this key (HTTP ${status}). Check that it is complete and active, then paste it again.`,
  );
}

const notAModel = (provider: ModelProvider) =>
  new AppError("VALIDATION_ERROR", `That model is not in ${PROVIDER_NAMES[provider]}'s list for this key.`, {
    fields: [{ path: "defaultModel", message: "is not a model this key can use" }],
  });

function modelKeyRows(deps: Pick<Deps, "db">, user: AuthUser): Promise<StoredKey[]> {
  return deps.db
    .select()
    .from(storedKeys)
    .where(and(eq(storedKeys.userId, user.id), ne(storedKeys.provider, MARKET_DATA)))
    .orderBy(storedKeys.provider);
}

export async function listProviderKeys(deps: Pick<Deps, "db">, user: AuthUser): Promise<{ keys: ProviderKeyListItem[] }> {
  return { keys: (await modelKeyRows(deps, user)).map(toItem) };
}

/**
 * PUT provider-keys/:provider: probe, then seal and store. A 401/403 from the provider stores nothing (422,
 * an existing key stays as it was); a timeout or failure stores the key unverified. Without defaultModel the
 * previous choice stays when the new key can use it, else the listing's preferred model.
 */
export async function saveProviderKey(
  deps: Pick<Deps, "db" | "config" | "now" | "fetch" | "log" | "analytics">,
  user: AuthUser,
  provider: ModelProvider,
  input: ProviderKeySave,
): Promise<ProviderKeyListItem> {
  const probe = await listModels(deps.fetch, deps.config, provider, input.apiKey);
  if (probe.kind === "invalid") throw invalidKey(provider, probe.status);
  if (probe.kind === "unavailable") deps.log.warn("provider key stored unverified", { provider, reason: probe.reason });
  const listed = probe.kind === "ok" ? probe.models : null;
  let defaultModel: string;
  if (input.defaultModel !== undefined) {
    if (listed && !listed.includes(input.defaultModel)) throw notAModel(provider);
    defaultModel = input.defaultModel;
  } else {
    const previous = (await findKey(deps, user.id, provider))?.defaultModel ?? null;
    const keep = previous !== null && (!listed || listed.includes(previous)) ? previous : null;
    defaultModel = keep ?? (listed ? chooseDefaultModel(provider, listed) : null) ?? FALLBACK_MODELS[provider];
  }
  const row = await upsertKey(deps, user.id, provider, input.apiKey, { verified: probe.kind === "ok", defaultModel });
  if (listed) remember(cacheKey(row), listed, deps.now().getTime());
  track(deps, "provider key saved", user.id, { provider, verified: row.verified });
  return toItem(row);
}

/** The plaintext of a stored key; EnvelopeError when it does not open (wrong ENCRYPTION_KEY, a moved row). */
async function openKey(ring: KeyRing, row: StoredKey): Promise<string> {
  return open(ring, row.ciphertext, additionalData(row.userId, row.provider));
}

/** The listing for a stored key: cached, else probed (and the key's verified flag brought up to date). */
async function listingOf(deps: Pick<Deps, "db" | "config" | "now" | "fetch">, row: StoredKey): Promise<Probe> {
  const now = deps.now().getTime();
  const cached = recalled(cacheKey(row), now);
  if (cached) return { kind: "ok", models: cached };
  const probe = await listModels(deps.fetch, deps.config, row.provider as ModelProvider, await openKey(await keyRing(deps.config), row));
  if (probe.kind === "ok") remember(cacheKey(row), probe.models, now);
  const verified = probe.kind === "ok" ? true : probe.kind === "invalid" ? false : row.verified;
  if (verified !== row.verified) {
    await deps.db
      .update(storedKeys)
      .set({ verified })
      .where(and(eq(storedKeys.userId, row.userId), eq(storedKeys.provider, row.provider), eq(storedKeys.ciphertext, row.ciphertext)));
  }
  return probe;
}

function noKey(provider: KeyProvider): AppError {
  return new AppError(
    "NOT_FOUND",
    provider === MARKET_DATA ? "No market-data key is stored." : provider === "bars" ? "No bar provider key is stored." : `No ${PROVIDER_NAMES[provider]} key is stored.`,
  );
}

/** PATCH provider-keys/:provider {defaultModel}: checked against the key's listing when it can be fetched. */
export async function updateProviderKey(
  deps: Pick<Deps, "db" | "config" | "now" | "fetch">,
  user: AuthUser,
  provider: ModelProvider,
  patch: ProviderKeyPatch,
): Promise<ProviderKeyListItem> {
  const row = await findKey(deps, user.id, provider);
  if (!row) throw noKey(provider);
  const probe = await listingOf(deps, row);
  if (probe.kind === "invalid") throw invalidKey(provider, probe.status);
  if (probe.kind === "ok" && !probe.models.includes(patch.defaultModel)) throw notAModel(provider);
  const [updated] = await deps.db
    .update(storedKeys)
    .set({ defaultModel: patch.defaultModel })
    .where(and(eq(storedKeys.userId, user.id), eq(storedKeys.provider, provider)))
    .returning();
  if (!updated) throw noKey(provider);
  return toItem(updated);
}

export async function deleteStoredKey(deps: Pick<Deps, "db">, user: AuthUser, provider: KeyProvider): Promise<void> {
  const gone = await deps.db
    .delete(storedKeys)
    .where(and(eq(storedKeys.userId, user.id), eq(storedKeys.provider, provider)))
    .returning({ provider: storedKeys.provider });
  if (!gone[0]) throw noKey(provider);
}

/**
 * GET /api/advisor/models: per stored model-provider key, the models it can use (null when the provider
 * could not be asked) and its default. A key the provider refuses is marked unverified.
 */
export async function listAvailableModels(deps: Pick<Deps, "db" | "config" | "now" | "fetch" | "log">, user: AuthUser) {
  const rows = await modelKeyRows(deps, user);
  const providers = await Promise.all(
    rows.map(async (row) => {
      const item = toItem(row);
      let probe: Probe;
      try {
        probe = await listingOf(deps, row);
      } catch (err) {
        if (!(err instanceof EnvelopeError)) throw err;
        deps.log.error("stored key does not decrypt", { provider: row.provider, reason: err.reason, keyId: err.keyId });
        probe = { kind: "unavailable", reason: "does not decrypt" };
      }
      return {
        provider: item.provider,
        defaultModel: item.defaultModel,
        verified: probe.kind === "ok" ? true : probe.kind === "invalid" ? false : item.verified,
        models: probe.kind === "ok" ? [...probe.models].sort() : null,
      };
    }),
  );
  return { providers };
}

export type MarketDataKeyStatus = { configured: false } | { configured: true; keyHintTail: string; verified: boolean };

/** GET market-data-key, GET /api/bars/key: whether the user has that data key, and its last four characters. */
export async function getDataKey(deps: Pick<Deps, "db">, user: AuthUser, provider: DataKeyProvider = MARKET_DATA): Promise<MarketDataKeyStatus> {
  const row = await findKey(deps, user.id, provider);
  return row ? { configured: true, keyHintTail: row.keyHint, verified: row.verified } : { configured: false };
}

/** PUT market-data-key, PUT /api/bars/key: the same rules as a provider key, with that data provider's probe. */
export async function saveDataKey(
  deps: Pick<Deps, "db" | "config" | "now" | "fetch" | "log" | "analytics">,
  user: AuthUser,
  input: MarketDataKeySave,
  provider: DataKeyProvider = MARKET_DATA,
): Promise<MarketDataKeyStatus> {
  const { probe: run, invalidCode, name } = DATA_KEYS[provider];
  const probe = await run(deps.fetch, deps.config, input.apiKey);
  if (probe.kind === "invalid") {
    throw new AppError(invalidCode, `${name} refused this key (HTTP ${probe.status}). Check that it is complete and active, then paste it again.`);
  }
  if (probe.kind === "unavailable") deps.log.warn("data key stored unverified", { provider, reason: probe.reason });
  const row = await upsertKey(deps, user.id, provider, input.apiKey, { verified: probe.kind === "ok", defaultModel: null });
  track(deps, "provider key saved", user.id, { provider, verified: row.verified });
  return { configured: true, keyHintTail: row.keyHint, verified: row.verified };
}

/** A data key the provider refused later (a fetch answered 401 or 403): marked unverified, kept for the trader to replace. */
export async function markDataKeyRefused(deps: Pick<Deps, "db">, userId: string, provider: DataKeyProvider): Promise<void> {
  await deps.db.update(storedKeys).set({ verified: false }).where(and(eq(storedKeys.userId, userId), eq(storedKeys.provider, provider)));
}

/** The plaintext of the user's key for `provider`, for a call to that provider (the advisor); null when none. */
export async function providerKeyOf(deps: Pick<Deps, "db" | "config">, userId: string, provider: KeyProvider): Promise<string | null> {
  const row = await findKey(deps, userId, provider);
  return row ? openKey(await keyRing(deps.config), row) : null;
}

/** A model provider's key, opened, with the model it uses when the trader does not choose; null without one. */
export async function providerKeyWithModel(deps: Pick<Deps, "db" | "config">, userId: string, provider: ModelProvider): Promise<{ apiKey: string; defaultModel: string } | null> {
  const row = await findKey(deps, userId, provider);
  return row ? { apiKey: await openKey(await keyRing(deps.config), row), defaultModel: row.defaultModel ?? FALLBACK_MODELS[provider] } : null;
}

/**
 * The start-up canary: every key id the stored keys were sealed under must be ENCRYPTION_KEY or
 * ENCRYPTION_KEY_PREVIOUS, and the newest rows of each must open with it. Returns one line per kind and key id
 * that does not (the process then stops), empty when all is well. A few rows that fail beside others that open
 * under the same key are damaged or moved rows, not a wrong key: they are logged (count only) and start goes on.
 */
export async function checkStoredKeys(
  deps: Pick<Deps, "db" | "log"> & { config: Parameters<typeof keyRing>[0] },
  sample = 20,
): Promise<string[]> {
  const ring = await keyRing(deps.config);
  const loaded = new Set([ring.current.id, ring.previous?.id]);
  const kindSql = sql`case when provider = 'market-data' then 'market-data' when provider = ${TOTP_AAD} then 'second-factor' when provider like 'broker:%' then 'broker' else 'provider' end`;
  const groups = rowsOf<{ kind: string; key_id: string }>(
    await deps.db.execute(sql`select distinct ${kindSql} as kind, key_id from sealed_secrets order by 1 desc, 2`),
  );
  const problems: string[] = [];
  for (const g of groups) {
    const what = `stored ${g.kind === "second-factor" ? "second-factor secrets" : g.kind === "broker" ? "broker tokens" : `${g.kind} keys`}`;
    if (!loaded.has(g.key_id)) {
      problems.push(`${what} ${new EnvelopeError("unknown-key", g.key_id).message}`);
      continue;
    }
    const rows = rowsOf<{ user_id: string; provider: string; ciphertext: string }>(
      await deps.db.execute(sql`select user_id::text, provider, ciphertext from sealed_secrets
        where ${kindSql} = ${g.kind} and key_id = ${g.key_id} order by updated_at desc limit ${sample}`),
    );
    let failed = 0;
    for (const r of rows) {
      try {
        await open(ring, r.ciphertext, additionalData(r.user_id, r.provider));
      } catch (err) {
        if (!(err instanceof EnvelopeError)) throw err;
        failed++;
      }
    }
    if (failed === rows.length) problems.push(`${what} ${new EnvelopeError("authentication", g.key_id).message}`);
    else if (failed) deps.log.warn("stored keys that do not open", { kind: g.kind, keyId: g.key_id, failed, checked: rows.length });
  }
  return problems;
}
