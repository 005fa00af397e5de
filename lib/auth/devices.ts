// Sign-ins from a new device (docs/auth.md, "New device"): each browser gets a long-lived random device cookie;
// the SHA-256 of its value is kept per user in known_devices. A sign-in (password, or password and code) from a
// browser the user has never signed in from, while they have signed in from another before, mails its owner
// (when the instance sends email): where and when, and what to do if it was not them. The first device a user
// is seen with (their sign-up, or their first sign-in since this feature) is recorded without a mail.
import { createHash, randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { rowsOf } from "../db/rows.ts";
import type { Deps } from "../deps.ts";
import { newDeviceEmail } from "../email/messages.ts";
import { describeUserAgent } from "./user-agent.ts";

/** How long the device cookie lives, and how long an unseen device is remembered. */
export const DEVICE_DAYS = 400;

const DEVICE_ID = /^[A-Za-z0-9_-]{43}$/;

/** The stored form of a device cookie's value (its SHA-256), or null when the request brought none or a malformed one. */
export function deviceHash(deviceId: string | undefined): string | null {
  return deviceId && DEVICE_ID.test(deviceId) ? createHash("sha256").update(deviceId).digest("hex") : null;
}

/**
 * Records the device of a sign-in and answers the device id the cookie should hold (a new one when the request
 * brought none, or a malformed one). `notify`: mail the owner if the device is new to them (false for sign-up).
 */
export async function recordSignInDevice(
  deps: Pick<Deps, "db" | "now" | "mailer" | "defer" | "config">,
  user: { id: string; email: string },
  deviceId: string | undefined,
  userAgent: string | undefined,
  notify: boolean,
): Promise<string> {
  const id = deviceId && DEVICE_ID.test(deviceId) ? deviceId : randomBytes(32).toString("base64url");
  const hash = deviceHash(id)!;
  const at = deps.now();
  const [row] = rowsOf<{ known: boolean; others: boolean }>(
    await deps.db.execute(sql`with before as (
        select exists (select 1 from known_devices where user_id = ${user.id}::uuid and device_hash = ${hash}) as known,
          exists (select 1 from known_devices where user_id = ${user.id}::uuid and device_hash <> ${hash}) as others
      ), seen as (
        insert into known_devices (user_id, device_hash, user_agent, first_seen_at, last_seen_at)
        values (${user.id}::uuid, ${hash}, ${userAgent?.slice(0, 200) ?? null}, ${at.toISOString()}::timestamptz, ${at.toISOString()}::timestamptz)
        on conflict (user_id, device_hash) do update set last_seen_at = excluded.last_seen_at, user_agent = excluded.user_agent
      ) select known, others from before`),
  );
  const mailer = deps.mailer;
  if (notify && mailer && row && !row.known && row.others) {
    deps.defer(() => mailer.send({ to: user.email, ...newDeviceEmail(deps.config, describeUserAgent(userAgent), at) }));
  }
  return id;
}

/** Devices unseen for DEVICE_DAYS: their cookie has expired too. Removed by the purge-sessions job. */
export async function purgeKnownDevices(deps: Pick<Deps, "db" | "now">): Promise<number> {
  const before = new Date(deps.now().getTime() - DEVICE_DAYS * 86_400_000).toISOString();
  return rowsOf(await deps.db.execute(sql`delete from known_devices where last_seen_at < ${before}::timestamptz returning 1`)).length;
}
