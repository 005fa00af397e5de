// Entry point of browser analytics for the rest of the app. With no key in /config.js nothing here
// imports the library: the dynamic import below is the only path to it, so its chunk is never fetched.
import { analyticsSettings, type AnalyticsSettings, type FeedbackSurvey } from "./config.ts";
import type { AnalyticsClient } from "./analytics-client.ts";
import { FEEDBACK_CAPTURE_NAME } from "./sanitise.ts";
import { scrubFeedbackText } from "./scrub.ts";

let client: Promise<AnalyticsClient | null> | undefined;

/** Starts analytics once per page load when a key is configured; a failed load only logs a warning. */
export function startAnalytics(settings: AnalyticsSettings | null = analyticsSettings()): Promise<AnalyticsClient | null> {
  if (!settings) return Promise.resolve(null);
  client ??= import("./analytics-client.ts").then(
    (m) => m.startClient(settings),
    (err: unknown) => {
      // An ad blocker or a failed chunk download must never break the app.
      console.warn("analytics did not load", err);
      return null;
    },
  );
  return client;
}

export type Feedback = { rating: number; text: string };

// The question wording is sent with each answer so the provider can show it beside the response; the
// feedback form shows the same sentences.
export const RATING_QUESTION = "How would you rate Trading Journal?";
export const TEXT_QUESTION = "Anything else you would like to tell us?";

/** The survey-response properties the analytics provider expects for an API survey answer. */
export function feedbackProperties(survey: FeedbackSurvey, feedback: Feedback, submissionId: string): Record<string, unknown> {
  const text = scrubFeedbackText(feedback.text);
  const rating = Math.min(5, Math.max(1, Math.round(feedback.rating)));
  return {
    $survey_id: survey.surveyId,
    $survey_submission_id: submissionId,
    $survey_completed: true,
    $survey_questions: [
      { id: survey.ratingQuestionId, question: RATING_QUESTION, response: rating },
      { id: survey.textQuestionId, question: TEXT_QUESTION, response: text || null },
    ],
    [`$survey_response_${survey.ratingQuestionId}`]: rating,
    ...(text ? { [`$survey_response_${survey.textQuestionId}`]: text } : {}),
  };
}

// crypto.randomUUID exists only in secure contexts, and a self-hosted instance may be served over plain
// http on a LAN address; getRandomValues works everywhere.
function randomUuid(): string {
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const hex = Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Sends one anonymous feedback answer; resolves false when analytics is off or failed to load. */
export async function sendFeedback(settings: AnalyticsSettings, feedback: Feedback): Promise<boolean> {
  const loaded = settings.survey ? await startAnalytics(settings) : null;
  if (!loaded || !settings.survey) return false;
  loaded.capture(FEEDBACK_CAPTURE_NAME, feedbackProperties(settings.survey, feedback, randomUuid()));
  return true;
}

export { analyticsSettings, parseFeedbackSurvey, type AnalyticsSettings, type FeedbackSurvey } from "./config.ts";
export { scrubFeedbackText, FEEDBACK_MAX_LENGTH } from "./scrub.ts";
