// Load shedding on the Node server (functions/node-server.ts; docs/operations.md, "Under load"). Past what the
// instance can answer in time, a request waiting for its turn behind hundreds of others would time out anyway,
// and hold a socket and memory while it waits: better to say at once that the server is busy.
import { errorBody } from "./index.ts";

export type ShedOptions = {
  /** Requests handled at once (MAX_CONCURRENT_REQUESTS). */
  concurrent: number;
  /** Requests that may wait for a turn beyond those (MAX_QUEUED_REQUESTS); 0: none wait. */
  queued: number;
  /** The longest a request waits for its turn before it is answered busy (QUEUE_TIMEOUT_MS). */
  waitMs: number;
  /** Told of each request answered busy (a log line, a metric). */
  onShed?: (reason: "queue full" | "waited too long") => void;
};

/** Seconds a busy answer asks the client to wait: a turn frees within about that, at the knee (docs/operations.md). */
export const BUSY_RETRY_AFTER_SECONDS = 1;

function busy(): Response {
  const body = errorBody("SERVICE_UNAVAILABLE", "The server is busy right now. Try again in a moment.", crypto.randomUUID());
  return new Response(JSON.stringify(body), { status: 503, headers: { "Content-Type": "application/json", "Retry-After": String(BUSY_RETRY_AFTER_SECONDS) } });
}

/**
 * At most `concurrent` requests in the handler at once; up to `queued` more wait, first come first served, each
 * at most `waitMs`; any other is answered 503 SERVICE_UNAVAILABLE with Retry-After at once. A request counts
 * until its handler returns its response (a streamed body, the advisor's or a CSV's, goes on outside the count).
 * GET /api/health is never held or refused: it is how an orchestrator tells a busy instance from a dead one.
 */
export function shedLoad<A extends unknown[]>(fetch: (request: Request, ...rest: A) => Response | Promise<Response>, options: ShedOptions) {
  let active = 0;
  const waiting: Array<() => void> = [];
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else active--;
  };
  const turn = (): Promise<boolean> =>
    new Promise((resolve) => {
      const go = () => {
        clearTimeout(timer);
        resolve(true);
      };
      const timer = setTimeout(() => {
        waiting.splice(waiting.indexOf(go), 1);
        resolve(false);
      }, options.waitMs);
      waiting.push(go);
    });
  return async (request: Request, ...rest: A): Promise<Response> => {
    if (new URL(request.url).pathname === "/api/health") return fetch(request, ...rest);
    if (active < options.concurrent) active++;
    else if (waiting.length >= options.queued) {
      options.onShed?.("queue full");
      return busy();
    } else if (!(await turn())) {
      options.onShed?.("waited too long");
      return busy();
    }
    // Here the request holds a turn (a released turn passes straight to the next waiting request).
    try {
      return await fetch(request, ...rest);
    } finally {
      release();
    }
  };
}
