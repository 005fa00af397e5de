// The advisor's short reading of the week (docs/digest.md): written by the trader's own model when their digest
// names a provider (`digest.reading`), metered like a turn (lib/advisor/ask-once.ts). It is given the week's
// figures only (and the journaled days' words when the trader lets the advisor read the journal). A failed,
// refused or slow model never holds the digest: after READING_TIMEOUT_MS the figures go out alone.
import { askOnce } from "../advisor/ask-once.ts";
import { getSettings as advisorSettings } from "../advisor/conversations.ts";
import type { ModelProvider } from "../providers/providers.ts";
import type { AuthUser } from "../auth/session.ts";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import type { DigestFigures } from "./digest.ts";

export const READING_TIMEOUT_MS = 20_000;
const MAX_OUTPUT_TOKENS = 400;
/** Characters of each journaled day's plan and review the model is shown. */
const NOTE_CHARS = 600;

const INSTRUCTIONS = `You write the short reading at the top of a trader's weekly review email.
You are given the week's figures as JSON, computed by their trading journal, and sometimes their own journal notes.
Write at most 120 words of plain text (no markdown, no headings, no lists): what went well, what cost them, and one thing to watch next week.
Use only the figures given; never invent a number, a trade or a trend. Compare with their average week only where it is given.
Never advise buying or selling any instrument.`;

export type Reading = { text: string; provider: ModelProvider; model: string } | { text: null; skipped: string };

/** The reading, or why there is none (never throws: the digest goes out either way). */
export async function writeReading(
  deps: Pick<Deps, "db" | "config" | "now" | "log" | "model">,
  user: AuthUser,
  provider: ModelProvider,
  figures: DigestFigures,
  timeoutMs = READING_TIMEOUT_MS,
): Promise<Reading> {
  if (!figures.comparable) return { text: null, skipped: "one trading day or none: nothing to read into" };
  const { shareJournal } = await advisorSettings(deps, user);
  const { journaledDays, ...rest } = figures;
  const shown = {
    ...rest,
    journaledDays: journaledDays.map((d) =>
      shareJournal ? { day: d.day, account: d.accountName, mood: d.mood, plan: d.plan?.slice(0, NOTE_CHARS) ?? null, review: d.review?.slice(0, NOTE_CHARS) ?? null } : { day: d.day, account: d.accountName },
    ),
  };
  try {
    const answer = await askOnce(deps, user.id, {
      provider,
      instructions: INSTRUCTIONS,
      text: JSON.stringify(shown),
      maxOutputTokens: MAX_OUTPUT_TOKENS,
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = answer.text.trim();
    if (!answer.finished) return { text: null, skipped: answer.failure ? answer.failure.message : `the model did not answer within ${Math.round(timeoutMs / 1000)} seconds` };
    if (!text) return { text: null, skipped: "the model's answer was empty" };
    return { text: text.length > 1500 ? `${text.slice(0, 1497)}...` : text, provider, model: answer.model };
  } catch (err) {
    if (err instanceof AppError) return { text: null, skipped: err.message };
    deps.log.error("digest reading failed", { error: err instanceof Error ? err.message : String(err) });
    return { text: null, skipped: "the model could not be asked" };
  }
}
