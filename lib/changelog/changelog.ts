// The in-app changelog (DESIGN.md section 9, "Changelog"): the releases of CHANGELOG_RELEASES_REPO from
// `{CHANGELOG_RELEASES_BASE_URL}/repos/{repo}/releases` (GitHub's releases API shape).
//
// - One copy for the instance, in Postgres (`changelog_cache`), so every process and Worker shares it.
// - Fresh for 15 minutes. After that the next reader refreshes it: one at a time across processes (a lease
//   on the row) and one call per process (single flight); the others serve the copy they have.
// - The source failing keeps the last copy, served with `stale: true`. Only when nothing was ever fetched
//   is the answer 503 CHANGELOG_UNAVAILABLE. A process whose call failed does not ask again for a minute
//   (CHANGELOG_RETRY_MS), so a source that is down or unreachable (a closed network) costs one call a
//   minute, not one, and up to 10 s of waiting, per page a trader opens.
// - Unread: releases published after the user last opened "What's new" (POST /viewed); a user who never
//   did counts from their sign-up, so a new user is not greeted with every release ever made.
// - A closed network (the source never reached, no copy): where the runtime can read the release notes the
//   instance ships (Deps.shippedChangelog: CHANGELOG.md on Node), those are served, `shipped: true`, its
//   "Unreleased" section named after the running version and dated by the file; elsewhere 503.
import { sql } from "drizzle-orm";
import type { AuthUser } from "../auth/session.ts";
import { rowsOf } from "../db/rows.ts";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";

export const CHANGELOG_FRESH_MS = 15 * 60_000;
export const CHANGELOG_TIMEOUT_MS = 10_000;
/** Releases kept (the releases API's first page). */
export const MAX_RELEASES = 30;
/** Release notes longer than this are cut (with a link to the full notes). */
export const MAX_BODY_CHARS = 20_000;
const REFRESH_LEASE_SECONDS = 30;
/** After a failed call, how long this process serves what it has (a stale copy, or 503) without asking. */
export const CHANGELOG_RETRY_MS = 60_000;

export type Release = { name: string; tag: string; publishedAt: string; url: string; body: string };

type CachedCopy = { releases: Release[]; fetchedAt: number; repo: string };

/** In-process single flight, per configuration (a Worker isolate or a Node process). */
const inflight = new WeakMap<object, Promise<Loaded>>();
/** When this process's last call to the source failed, per configuration. */
const failedAt = new WeakMap<object, number>();

class SourceError extends Error {}

function str(v: unknown, max: number): string {
  return typeof v === "string" ? v.slice(0, max) : "";
}

/** GitHub's release objects to ours: drafts and releases without a publication date left out, newest first. */
export function parseReleases(body: unknown): Release[] {
  if (!Array.isArray(body)) throw new SourceError("the releases answer is not a list");
  const out: Release[] = [];
  for (const r of body as Array<Record<string, unknown>>) {
    if (!r || typeof r !== "object" || r.draft === true) continue;
    const published = typeof r.published_at === "string" ? Date.parse(r.published_at) : NaN;
    const tag = str(r.tag_name, 200);
    if (Number.isNaN(published) || !tag) continue;
    const url = str(r.html_url, 2000);
    let notes = str(r.body, MAX_BODY_CHARS + 1);
    if (notes.length > MAX_BODY_CHARS) notes = `${notes.slice(0, MAX_BODY_CHARS)}\n\n…`;
    out.push({ name: str(r.name, 300) || tag, tag, publishedAt: new Date(published).toISOString(), url: /^https?:\/\//.test(url) ? url : "", body: notes });
  }
  return out.sort((a, b) => b.publishedAt.localeCompare(a.publishedAt)).slice(0, MAX_RELEASES);
}

async function fetchReleases(deps: Pick<Deps, "config" | "fetch">): Promise<Release[]> {
  const { CHANGELOG_RELEASES_BASE_URL: base, CHANGELOG_RELEASES_REPO: repo } = deps.config;
  let res: Response;
  try {
    res = await deps.fetch(`${base.replace(/\/+$/, "")}/repos/${repo}/releases?per_page=${MAX_RELEASES}`, {
      headers: { Accept: "application/vnd.github+json", "User-Agent": "trading-journal-changelog" },
      signal: AbortSignal.timeout(CHANGELOG_TIMEOUT_MS),
    });
  } catch (err) {
    throw new SourceError(err instanceof Error && err.name === "TimeoutError" ? "no answer within 10 s" : "unreachable");
  }
  if (!res.ok) {
    await res.body?.cancel().catch(() => undefined);
    throw new SourceError(`answered ${res.status}`);
  }
  try {
    return parseReleases(await res.json());
  } catch (err) {
    throw err instanceof SourceError ? err : new SourceError("the answer is not JSON");
  }
}

async function readCopy(deps: Pick<Deps, "db">): Promise<CachedCopy | undefined> {
  const [row] = rowsOf<{ repo: string; releases: Release[] | string; fetched_ms: string }>(
    await deps.db.execute(sql`select repo, releases::text as releases, (extract(epoch from fetched_at) * 1000)::bigint::text as fetched_ms
      from changelog_cache where id = 1`),
  );
  if (!row) return undefined;
  return { repo: row.repo, releases: typeof row.releases === "string" ? (JSON.parse(row.releases) as Release[]) : row.releases, fetchedAt: Number(row.fetched_ms) };
}

/** Takes the refresh lease when nobody holds it (or there is no copy yet). */
async function claimRefresh(deps: Pick<Deps, "db">): Promise<boolean> {
  const rows = rowsOf(
    await deps.db.execute(sql`update changelog_cache set refreshing_until = now() + make_interval(secs => ${REFRESH_LEASE_SECONDS})
      where id = 1 and (refreshing_until is null or refreshing_until < now()) returning 1`),
  );
  return rows.length > 0;
}

async function refresh(deps: Pick<Deps, "db" | "config" | "fetch" | "log" | "now">, hasCopy: boolean): Promise<Release[]> {
  // With a copy, only the process holding the lease asks the source; without one, everyone may (rare: the
  // first reads of a new instance).
  if (hasCopy && !(await claimRefresh(deps))) throw new SourceError("another process is refreshing");
  try {
    const releases = await fetchReleases(deps).catch((err: unknown) => {
      failedAt.set(deps.config, deps.now().getTime());
      throw err;
    });
    failedAt.delete(deps.config);
    await deps.db.execute(sql`insert into changelog_cache (id, repo, releases, fetched_at, refreshing_until)
      values (1, ${deps.config.CHANGELOG_RELEASES_REPO}, ${JSON.stringify(releases)}::jsonb, ${deps.now().toISOString()}::timestamptz, null)
      on conflict (id) do update set repo = excluded.repo, releases = excluded.releases, fetched_at = excluded.fetched_at, refreshing_until = null`);
    return releases;
  } catch (err) {
    if (hasCopy) await deps.db.execute(sql`update changelog_cache set refreshing_until = null where id = 1`).catch(() => undefined);
    if (err instanceof SourceError) deps.log.warn("the changelog source failed", { reason: err.message });
    throw err;
  }
}

type Loaded = { releases: Release[]; stale: boolean; shipped: boolean };

/**
 * The release notes of a CHANGELOG.md (`## <release>` sections, newest first): each section one release, its
 * text the notes; "Unreleased" is the running `version`. Dated `modifiedAt` (the file's time: when this
 * version was installed), without a link.
 */
export function shippedReleases(markdown: string, version: string, modifiedAt: string): Release[] {
  const sections = markdown.split(/^## /m).slice(1);
  return sections.slice(0, MAX_RELEASES).map((section) => {
    const newline = section.indexOf("\n");
    const heading = (newline < 0 ? section : section.slice(0, newline)).trim();
    const body = (newline < 0 ? "" : section.slice(newline + 1)).trim().slice(0, MAX_BODY_CHARS);
    const current = /^unreleased$/i.test(heading);
    return { name: current ? `This version (${version})` : heading, tag: current ? `v${version}` : heading, publishedAt: modifiedAt, url: "", body };
  });
}

async function load(deps: Pick<Deps, "db" | "config" | "fetch" | "log" | "now" | "shippedChangelog">): Promise<Loaded> {
  const copy = await readCopy(deps);
  const usable = copy && copy.repo === deps.config.CHANGELOG_RELEASES_REPO ? copy : undefined;
  if (usable && deps.now().getTime() - usable.fetchedAt < CHANGELOG_FRESH_MS) return { releases: usable.releases, stale: false, shipped: false };
  const failed = failedAt.get(deps.config);
  try {
    if (failed !== undefined && deps.now().getTime() - failed < CHANGELOG_RETRY_MS) throw new SourceError("failed less than a minute ago");
    return { releases: await refresh(deps, copy !== undefined), stale: false, shipped: false };
  } catch (err) {
    if (usable) return { releases: usable.releases, stale: true, shipped: false };
    if (!(err instanceof SourceError)) throw err;
    const shipped = await deps.shippedChangelog?.().catch(() => null);
    if (shipped) return { releases: shippedReleases(shipped.markdown, shipped.version, shipped.modifiedAt), stale: true, shipped: true };
    throw new AppError("CHANGELOG_UNAVAILABLE", "The release notes cannot be fetched right now. Try again later.");
  }
}

/**
 * The releases, single-flighted per process from the read of the copy on: a reader arriving while another
 * reads (and perhaps refreshes) joins it, and one arriving after it finished reads the copy it stored, so a
 * burst of readers with no copy makes one call to the source.
 */
function releases(deps: Pick<Deps, "db" | "config" | "fetch" | "log" | "now" | "shippedChangelog">): Promise<Loaded> {
  let flight = inflight.get(deps.config);
  if (!flight) {
    flight = load(deps).finally(() => inflight.delete(deps.config));
    inflight.set(deps.config, flight);
  }
  return flight;
}

/** GET /api/changelog: the releases, newest first, how many the user has not seen, and whether the copy is old. */
export async function changelogFor(deps: Pick<Deps, "db" | "config" | "fetch" | "log" | "now" | "shippedChangelog">, user: AuthUser) {
  const [{ releases: list, stale, shipped }, [seen]] = await Promise.all([
    releases(deps),
    deps.db.execute(sql`select (extract(epoch from coalesce(changelog_viewed_at, created_at)) * 1000)::bigint::text as since from users where id = ${user.id}`).then((r) => rowsOf<{ since: string }>(r)),
  ]);
  const since = Number(seen?.since ?? 0);
  return { releases: list, unread: list.filter((r) => Date.parse(r.publishedAt) > since).length, stale, shipped };
}

/** POST /api/changelog/viewed: everything published until now is read. */
export async function markChangelogViewed(deps: Pick<Deps, "db" | "now">, user: AuthUser): Promise<void> {
  await deps.db.execute(sql`update users set changelog_viewed_at = ${deps.now().toISOString()}::timestamptz where id = ${user.id}`);
}
