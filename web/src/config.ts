// Runtime settings from /config.js (written by the Node entrypoint from its Config, or by the web
// container at start). Read at runtime, never bundled, so one build serves every deployment.

export type BrowserConfig = {
  newsletterUrl: string | null;
  analytics: { key: string | null; host: string | null; environment: string | null; feedbackSurvey: string | null };
};

declare global {
  interface Window {
    __JOURNAL_CONFIG__?: Partial<BrowserConfig>;
  }
}

const EMPTY: BrowserConfig = { newsletterUrl: null, analytics: { key: null, host: null, environment: null, feedbackSurvey: null } };

/** Only http(s) links are kept, so a bad value can never become a javascript: link. */
function httpUrlOrNull(value: unknown): string | null {
  if (typeof value !== "string") return null;
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:" ? url.href : null;
  } catch {
    return null;
  }
}

/** The settings of this page load; a missing or malformed /config.js reads as "everything off". */
export function browserConfig(): BrowserConfig {
  const raw = typeof window === "undefined" ? undefined : window.__JOURNAL_CONFIG__;
  if (!raw || typeof raw !== "object") return EMPTY;
  return {
    newsletterUrl: httpUrlOrNull(raw.newsletterUrl),
    analytics: { ...EMPTY.analytics, ...(raw.analytics ?? {}) },
  };
}
