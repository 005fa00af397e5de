// Free text typed into the feedback form leaves the browser only after this pass, the same shape rules
// the server's analytics events go through (lib/analytics/redact.ts).
import { scrubSecretShapes } from "../../../lib/analytics/redact.ts";

export const FEEDBACK_MAX_LENGTH = 2000;

/** The feedback text with secrets and email addresses replaced, trimmed and capped. */
export function scrubFeedbackText(text: string): string {
  return scrubSecretShapes(text.slice(0, FEEDBACK_MAX_LENGTH * 2))
    .trim()
    .slice(0, FEEDBACK_MAX_LENGTH);
}
