// What the browser's analytics may do on this page load, decided once from /config.js. Kept free of
// posthog-js so the main bundle can read it without pulling the library in.
import { browserConfig, type BrowserConfig } from "../config.ts";

export type FeedbackSurvey = { surveyId: string; ratingQuestionId: string; textQuestionId: string };

export type AnalyticsSettings = {
  key: string;
  /** null means the provider's default ingestion host. */
  host: string | null;
  environment: string | null;
  /** null means no feedback tab. */
  survey: FeedbackSurvey | null;
};

// The grammar of ANALYTICS_PUBLIC_FEEDBACK_SURVEY as lib/config/schema.ts and web/write-config-js.sh read
// it: three non-empty parts without colons or whitespace. Repeated here because /config.js may come from
// either writer and the browser must not trust it to be well formed.
const SURVEY = /^([^:\s]+):([^:\s]+):([^:\s]+)$/;

/** `<surveyId>:<ratingQuestionId>:<textQuestionId>`, or null when absent, empty or malformed. */
export function parseFeedbackSurvey(value: unknown): FeedbackSurvey | null {
  if (typeof value !== "string") return null;
  const m = SURVEY.exec(value);
  return m ? { surveyId: m[1]!, ratingQuestionId: m[2]!, textQuestionId: m[3]! } : null;
}

function nonBlank(value: unknown): string | null {
  return typeof value === "string" && value.trim() !== "" ? value.trim() : null;
}

function httpUrl(value: unknown): string | null {
  const text = nonBlank(value);
  if (!text) return null;
  try {
    const url = new URL(text);
    return url.protocol === "http:" || url.protocol === "https:" ? text.replace(/\/+$/, "") : null;
  } catch {
    return null;
  }
}

/** Analytics settings, or null when there is no key: then nothing about analytics loads at all. */
export function analyticsSettings(config: BrowserConfig = browserConfig()): AnalyticsSettings | null {
  const raw = config.analytics as Partial<BrowserConfig["analytics"]> | null | undefined;
  const key = nonBlank(raw?.key);
  if (!key) return null;
  return {
    key,
    host: httpUrl(raw?.host),
    environment: nonBlank(raw?.environment),
    survey: parseFeedbackSurvey(raw?.feedbackSurvey),
  };
}
