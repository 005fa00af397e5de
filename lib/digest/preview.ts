// POST /api/digest/preview (docs/digest.md): the digest as the job would send it now, to the signed-in trader.
import type { AuthUser } from "../auth/session.ts";
import type { Deps } from "../deps.ts";
import { getSettings } from "../settings/settings.ts";
import { digestFigures, weekAt } from "./digest.ts";
import { unsubscribeToken } from "./delivery.ts";
import { writeReading, type Reading } from "./reading.ts";
import { digestEmail } from "./render.ts";

export async function previewDigest(deps: Deps, user: AuthUser, withReading: boolean) {
  const { digest } = await getSettings(deps, user.id);
  const figures = await digestFigures(deps, user, weekAt(deps.now(), digest?.zone ?? "Etc/UTC"), { washWatch: digest?.washWatch });
  const reading: Reading =
    withReading && digest?.reading ? await writeReading(deps, user, digest.reading, figures) : { text: null, skipped: digest?.reading ? "not asked for in the preview" : "no provider chosen" };
  const web = deps.config.WEB_BASE_URL ?? "";
  return { ...digestEmail(figures, reading, web, unsubscribeToken(deps.config, user.id)), figures, reading };
}
