// The weekly digest's job (docs/digest.md): every 15 minutes, the digests due at this hour in their users' zones,
// each sent once. Apart from lib/jobs: on Workers it runs in the digest Worker, on its own cron trigger, so the
// jobs Worker does not carry the statistics, rules, findings and model seam it needs; the Node scheduler runs it
// with the others.
import type { Job } from "../jobs/run.ts";
import { sendDueDigests } from "./delivery.ts";

export const sendDigestsJob: Job = {
  name: "send-digests",
  cron: "*/15 * * * *",
  everyMinutes: 15,
  async run(deps) {
    const { sent, failed, retry } = await sendDueDigests(deps);
    return { affected: sent + failed + retry };
  },
};

/** The jobs of the digest Worker (wrangler.toml gives it their crons). */
export const DIGEST_JOBS: readonly Job[] = [sendDigestsJob];
