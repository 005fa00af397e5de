// The last step before an event leaves the browser (posthog-js `before_send`). The library's own switches
// cover the common properties; this pass also covers the ones they miss (nested web-vitals entries,
// $set_once copies, anything a later library version adds), so the rules hold for every property.

type Props = Record<string, unknown>;

export type OutgoingEvent = {
  event: string;
  properties: Props;
  $set?: Props | undefined;
  $set_once?: Props | undefined;
  $unset?: string[] | undefined;
};

const URL_LIKE = /^[a-z][a-z0-9+.-]*:\/\//i;

/** The URL without its fragment; the query string stays, as SPEC.md says page URLs are sent as they are. */
export function stripFragment(value: string): string {
  const hash = value.indexOf("#");
  return hash === -1 ? value : value.slice(0, hash);
}

/** A referrer as its hostname only, without port ("$direct" and other "$" markers pass through). */
export function referrerHostname(value: string): string {
  if (value === "" || value.startsWith("$")) return value;
  try {
    // The library also sends host[:port] forms ($referring_domain); read those as an http URL's authority.
    return new URL(URL_LIKE.test(value) ? value : `http://${value}`).hostname;
  } catch {
    return "";
  }
}

const REFERRER_KEY = /referr/i;

/** A public link's page (/s/<token>): the token is the only key to the shared trade, so it never leaves the browser. */
const SHARE_TOKEN = /\/s\/[A-Za-z0-9_-]+/g;
export const withoutShareToken = (value: string) => value.replace(SHARE_TOKEN, "/s/:token");

function sanitiseValue(key: string, value: unknown, depth: number): unknown {
  if (typeof value === "string") {
    if (REFERRER_KEY.test(key)) return referrerHostname(value);
    return withoutShareToken(URL_LIKE.test(value) ? stripFragment(value) : value);
  }
  if (depth > 4 || value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map((v) => sanitiseValue(key, v, depth + 1));
  return sanitiseProps(value as Props, depth + 1);
}

function sanitiseProps(props: Props, depth = 0): Props {
  const out: Props = {};
  for (const [k, v] of Object.entries(props)) out[k] = sanitiseValue(k, v, depth);
  return out;
}

/**
 * The name feedback answers are captured under inside the browser. Capturing "survey sent" directly makes
 * the library write a "survey seen" flag to localStorage and a person property; under this name it does
 * neither, and sanitiseEvent renames the event to the provider's survey-response name on the way out.
 */
export const FEEDBACK_CAPTURE_NAME = "journal feedback";
export const SURVEY_RESPONSE_EVENT = "survey sent";

/** The only events that may leave the browser: pageviews, web vitals and feedback answers. */
export const ALLOWED_EVENTS: ReadonlySet<string> = new Set(["$pageview", "$web_vitals", FEEDBACK_CAPTURE_NAME]);

/**
 * Drops any event not in ALLOWED_EVENTS (a library default switched back on by a later version, say);
 * strips URL fragments from every URL-valued property, reduces every referrer property to its hostname,
 * and stamps the environment label and the no-geo flag on the event.
 */
export function sanitiseEvent<E extends OutgoingEvent>(event: E, environment: string | null): E | null {
  if (!ALLOWED_EVENTS.has(event.event)) return null;
  const properties = sanitiseProps(event.properties);
  // The ingestion side then skips IP-to-location enrichment for the event.
  properties.$geoip_disable = true;
  if (environment) properties.environment = environment;
  // No person properties leave the browser: events are anonymous (the library adds $set on survey
  // answers and $set_once copies of the initial referrer and URL).
  const { $set: _set, $set_once: _setOnce, $unset: _unset, ...rest } = event;
  const name = event.event === FEEDBACK_CAPTURE_NAME ? SURVEY_RESPONSE_EVENT : event.event;
  return { ...rest, event: name, properties } as E;
}
