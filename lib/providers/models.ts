// Which model a key uses when the trader does not choose: a fixed preference order per provider, applied to
// the models the provider's listing returned, so the same listing always gives the same default.
import type { ModelProvider } from "./providers.ts";

/**
 * Families in order of preference (newest capable general model first). Within a family the highest
 * version wins ("gpt-5.1" over "gpt-5"; "claude-sonnet-4-5" over "claude-sonnet-4"), then the greatest id
 * (Anthropic's dated snapshots: the newest date). The capture groups are the version's numbers.
 */
export const MODEL_PREFERENCES: Readonly<Record<ModelProvider, readonly RegExp[]>> = {
  openai: [/^gpt-(\d+)(?:\.(\d+))?$/, /^gpt-(\d+)(?:\.(\d+))?-mini$/, /^gpt-4o$/, /^gpt-4o-mini$/],
  anthropic: [
    /^claude-sonnet-(\d+)(?:-(\d{1,2}))?(?:-\d{8})?$/,
    /^claude-opus-(\d+)(?:-(\d{1,2}))?(?:-\d{8})?$/,
    /^claude-haiku-(\d+)(?:-(\d{1,2}))?(?:-\d{8})?$/,
    /^claude-(\d+)-(\d+)-sonnet-\d{8}$/,
  ],
  gemini: [/^gemini-(\d+)(?:\.(\d+))?-pro$/, /^gemini-(\d+)(?:\.(\d+))?-flash$/, /^gemini-(\d+)(?:\.(\d+))?-pro-preview[\w-]*$/],
  openrouter: [
    /^anthropic\/claude-sonnet-(\d+)(?:\.(\d+))?$/,
    /^openai\/gpt-(\d+)(?:\.(\d+))?$/,
    /^google\/gemini-(\d+)(?:\.(\d+))?-pro$/,
  ],
};

/** The default when no listing could be fetched (a transient failure at save time). */
export const FALLBACK_MODELS: Readonly<Record<ModelProvider, string>> = {
  openai: "gpt-5",
  anthropic: "claude-sonnet-4-5",
  gemini: "gemini-2.5-flash",
  openrouter: "openai/gpt-5",
};

function version(match: RegExpExecArray): number[] {
  return match.slice(1).map((part) => (part === undefined ? 0 : Number(part)));
}

function compareVersions(a: number[], b: number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/** The preferred model of a listing; with nothing preferred, the first id in sort order; null for an empty listing. */
export function chooseDefaultModel(provider: ModelProvider, models: readonly string[]): string | null {
  for (const family of MODEL_PREFERENCES[provider]) {
    let best: { id: string; version: number[] } | undefined;
    for (const id of models) {
      const match = family.exec(id);
      if (!match) continue;
      const v = version(match);
      if (!best || compareVersions(v, best.version) > 0 || (compareVersions(v, best.version) === 0 && id > best.id)) best = { id, version: v };
    }
    if (best) return best.id;
  }
  return [...models].sort()[0] ?? null;
}
