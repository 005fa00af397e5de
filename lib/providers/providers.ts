// The model providers a trader can bring a key for, and the market-data provider: where each is reached
// (its base URL, a test seam of DESIGN.md section 5) and the lightweight call that tells whether a key works.
// A probe answers within PROBE_TIMEOUT_MS whatever the provider does: 401 or 403 means the key is invalid,
// anything else that is not a success (a timeout, a 5xx, a reset, a malformed answer) leaves it unknown.
import type { Config } from "../config/index.ts";

export const MODEL_PROVIDERS = ["openai", "anthropic", "gemini", "openrouter"] as const;
export type ModelProvider = (typeof MODEL_PROVIDERS)[number];
export const MARKET_DATA = "market-data";
/** The bar provider (docs/charts.md): Polygon.io (Massive), for the trade chart's bars. */
export const BARS = "bars";
export type DataKeyProvider = typeof MARKET_DATA | typeof BARS;
export type KeyProvider = ModelProvider | DataKeyProvider;

export function isModelProvider(value: string): value is ModelProvider {
  return (MODEL_PROVIDERS as readonly string[]).includes(value);
}

/**
 * Base URLs when the seams are unset. They include the API version, as the providers' own SDKs (and the AI
 * SDK) take them, so OPENAI_BASE_URL=http://127.0.0.1:9000/v1 points everything at a stand-in.
 */
export const DEFAULT_BASE_URLS: Readonly<Record<KeyProvider, string>> = {
  openai: "https://api.openai.com/v1",
  anthropic: "https://api.anthropic.com/v1",
  gemini: "https://generativelanguage.googleapis.com/v1beta",
  openrouter: "https://openrouter.ai/api/v1",
  // Finnhub (finnhub.io): a free tier, and a quote call that answers 401 to a bad key.
  [MARKET_DATA]: "https://finnhub.io/api/v1",
  // Polygon.io, now Massive (docs/charts.md): its free tier serves two years of 1-minute US stock bars.
  [BARS]: "https://api.polygon.io",
};

const SEAMS = {
  openai: "OPENAI_BASE_URL",
  anthropic: "ANTHROPIC_BASE_URL",
  gemini: "GEMINI_BASE_URL",
  openrouter: "OPENROUTER_BASE_URL",
  [MARKET_DATA]: "MARKET_DATA_BASE_URL",
  [BARS]: "BARS_BASE_URL",
} as const satisfies Record<KeyProvider, keyof Config>;

export function baseUrlOf(config: Config, provider: KeyProvider): string {
  return (config[SEAMS[provider]] ?? DEFAULT_BASE_URLS[provider]).replace(/\/+$/, "");
}

export const PROBE_TIMEOUT_MS = 5000;

export type Probe =
  | { kind: "ok"; models: string[] }
  | { kind: "invalid"; status: number }
  | { kind: "unavailable"; reason: string };

type Answer = { status: number; body: unknown };

/** GET with the probe's time budget (body included); null when nothing usable came back in time. */
async function get(fetcher: typeof fetch, url: string, headers: Record<string, string>, signal: AbortSignal): Promise<Answer | { failed: string }> {
  try {
    const res = await fetcher(url, { method: "GET", headers: { Accept: "application/json", ...headers }, signal, redirect: "manual" });
    const text = await res.text();
    let body: unknown = null;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      body = null;
    }
    return { status: res.status, body };
  } catch (err) {
    return { failed: signal.aborted ? "timed out" : err instanceof Error ? err.name : "network error" };
  }
}

/** Gemini answers a bad key with 400 and reason API_KEY_INVALID, not 401. */
function geminiKeyInvalid(a: Answer): boolean {
  const details = (a.body as { error?: { details?: Array<{ reason?: unknown }> } } | null)?.error?.details ?? [];
  return a.status === 400 && details.some((d) => d?.reason === "API_KEY_INVALID");
}

function verdict(a: Answer | { failed: string }, invalid: (a: Answer) => boolean = () => false): Probe | Answer {
  if ("failed" in a) return { kind: "unavailable", reason: a.failed };
  if (a.status === 401 || a.status === 403 || invalid(a)) return { kind: "invalid", status: a.status };
  if (a.status < 200 || a.status > 299) return { kind: "unavailable", reason: `status ${a.status}` };
  return a;
}

const ids = (list: unknown, field = "id", prefix = ""): string[] | null => {
  if (!Array.isArray(list)) return null;
  return list.flatMap((m) => {
    const id = (m as Record<string, unknown>)?.[field];
    return typeof id === "string" ? [id.startsWith(prefix) ? id.slice(prefix.length) : id] : [];
  });
};

/**
 * OpenAI's listing holds every model of the account, most of which cannot hold a conversation: only the GPT and
 * o-series chat models are kept (no embeddings, speech, transcription, images, moderation, realtime audio,
 * search or code-only models, and no legacy completion models).
 */
export function openAiChatModels(models: readonly string[]): string[] {
  return models.filter(
    (id) => /^(gpt-|o\d|chatgpt-)/.test(id) && !/(embedding|tts|whisper|dall-e|moderation|image|realtime|audio|transcribe|search|instruct|codex)/.test(id),
  );
}

async function probeModels(fetcher: typeof fetch, provider: ModelProvider, base: string, apiKey: string, signal: AbortSignal): Promise<Probe> {
  switch (provider) {
    case "openai": {
      const a = verdict(await get(fetcher, `${base}/models`, { Authorization: `Bearer ${apiKey}` }, signal));
      if ("kind" in a) return a;
      const models = ids((a.body as { data?: unknown })?.data);
      return models ? { kind: "ok", models: openAiChatModels(models) } : { kind: "unavailable", reason: "malformed model list" };
    }
    case "anthropic": {
      const a = verdict(await get(fetcher, `${base}/models?limit=1000`, { "x-api-key": apiKey, "anthropic-version": "2023-06-01" }, signal));
      if ("kind" in a) return a;
      const models = ids((a.body as { data?: unknown })?.data);
      return models ? { kind: "ok", models } : { kind: "unavailable", reason: "malformed model list" };
    }
    case "gemini": {
      const a = verdict(await get(fetcher, `${base}/models?pageSize=1000`, { "x-goog-api-key": apiKey }, signal), geminiKeyInvalid);
      if ("kind" in a) return a;
      const list = (a.body as { models?: unknown })?.models;
      if (!Array.isArray(list)) return { kind: "unavailable", reason: "malformed model list" };
      // Only models that answer chat turns (generateContent); embeddings and the like are left out.
      const chat = list.filter((m) => Array.isArray(m?.supportedGenerationMethods) && m.supportedGenerationMethods.includes("generateContent"));
      return { kind: "ok", models: ids(chat, "name", "models/") ?? [] };
    }
    case "openrouter": {
      // The model list is public: the key is checked by the key-info call, both within the same budget.
      const [key, list] = await Promise.all([
        get(fetcher, `${base}/key`, { Authorization: `Bearer ${apiKey}` }, signal),
        get(fetcher, `${base}/models`, { Authorization: `Bearer ${apiKey}` }, signal),
      ]);
      const k = verdict(key);
      if ("kind" in k) return k;
      const l = verdict(list);
      if ("kind" in l) return l.kind === "invalid" ? { kind: "unavailable", reason: `model list status ${l.status}` } : l;
      const models = ids((l.body as { data?: unknown })?.data);
      return models ? { kind: "ok", models } : { kind: "unavailable", reason: "malformed model list" };
    }
  }
}

/** Runs `probe` with the time budget, and answers even if the transport ignores the abort. */
async function withBudget(run: (signal: AbortSignal) => Promise<Probe>, timeoutMs: number): Promise<Probe> {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<Probe>((resolve) => {
    timer = setTimeout(() => {
      controller.abort();
      // A little grace for the aborted call to settle on its own, then answer regardless.
      setTimeout(() => resolve({ kind: "unavailable", reason: "timed out" }), 200);
    }, timeoutMs);
  });
  try {
    return await Promise.race([run(controller.signal), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** The model listing of a provider with this key: the probe of a key save, and the model picker's source. */
export function listModels(fetcher: typeof fetch, config: Config, provider: ModelProvider, apiKey: string, timeoutMs = PROBE_TIMEOUT_MS): Promise<Probe> {
  return withBudget((signal) => probeModels(fetcher, provider, baseUrlOf(config, provider), apiKey, signal), timeoutMs);
}

/** The market-data key's probe: a quote of one symbol (Finnhub `GET /quote?symbol=AAPL`, header X-Finnhub-Token). */
export function probeMarketData(fetcher: typeof fetch, config: Config, apiKey: string, timeoutMs = PROBE_TIMEOUT_MS): Promise<Probe> {
  return withBudget(async (signal) => {
    const a = verdict(await get(fetcher, `${baseUrlOf(config, MARKET_DATA)}/quote?symbol=AAPL`, { "X-Finnhub-Token": apiKey }, signal));
    return "kind" in a ? a : { kind: "ok", models: [] };
  }, timeoutMs);
}

/** The bar provider's probe: the previous day's bar of AAPL (a 401 or 403 is a refused key). */
export function probeBars(fetcher: typeof fetch, config: Config, apiKey: string, timeoutMs = PROBE_TIMEOUT_MS): Promise<Probe> {
  return withBudget(async (signal) => {
    const a = verdict(await get(fetcher, `${baseUrlOf(config, BARS)}/v2/aggs/ticker/AAPL/prev?adjusted=false`, { Authorization: `Bearer ${apiKey}` }, signal));
    return "kind" in a ? a : { kind: "ok", models: [] };
  }, timeoutMs);
}

/** The data keys (not model keys): where each probe goes, and how a refused key is told. */
export const DATA_KEYS = {
  [MARKET_DATA]: { probe: probeMarketData, invalidCode: "MARKET_DATA_KEY_INVALID", name: "The market-data provider" },
  [BARS]: { probe: probeBars, invalidCode: "BARS_KEY_INVALID", name: "The bar provider (Polygon.io)" },
} as const;

