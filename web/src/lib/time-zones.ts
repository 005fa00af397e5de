import { CANONICAL_TIME_ZONES } from "../../../lib/time/zones.ts";

// The server's own list of canonical IANA zones (lib/time/zones.ts): the browser's
// Intl.supportedValuesOf('timeZone') differs between browsers and includes links the API refuses.
export const TIME_ZONES: readonly string[] = [...CANONICAL_TIME_ZONES].sort();

export const DEFAULT_TIME_ZONE = "America/New_York";

/** The reader's own zone when the API accepts it as written, else the API's default. */
export function guessTimeZone(): string {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  if (zone === "UTC") return "Etc/UTC";
  return zone && CANONICAL_TIME_ZONES.has(zone) ? zone : DEFAULT_TIME_ZONE;
}

/** Zones whose name contains every word of the query, "new york" matching America/New_York. */
export function searchTimeZones(query: string, limit = 50): string[] {
  const words = query.toLowerCase().replace(/[_/]/g, " ").split(/\s+/).filter(Boolean);
  const out: string[] = [];
  for (const zone of TIME_ZONES) {
    const name = zone.toLowerCase().replace(/[_/]/g, " ");
    if (words.every((w) => name.includes(w))) out.push(zone);
    if (out.length >= limit) break;
  }
  return out;
}
