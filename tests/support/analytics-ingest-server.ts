// A local HTTP server standing in for the analytics ingestion host (ANALYTICS_PUBLIC_HOST for the browser,
// ANALYTICS_HOST for the server's batches), for the analytics tests. It records every request, decodes the event batches the browser
// library sends (gzip, base64 or plain JSON; one event, a list, or a {batch} envelope) and answers the
// way the real host does, with CORS headers since the app runs on another origin.
//
// GET /landing is not an ingestion path: it is a page on a foreign origin that links to the app with a
// full-URL referrer policy, so a test can arrive at the app with a referrer that has a path and a query.
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { gunzipSync } from "node:zlib";

export type IngestedEvent = {
  event: string;
  properties: Record<string, unknown>;
  $set?: Record<string, unknown>;
  $set_once?: Record<string, unknown>;
  [key: string]: unknown;
};

export type IngestRequest = { method: string; path: string; query: URLSearchParams; headers: IncomingHttpHeaders; rawBody: Buffer; decoded: string };

export type AnalyticsIngestServer = {
  /** The server's base URL, for ANALYTICS_PUBLIC_HOST. */
  url: string;
  /** Every request except the landing page, CORS preflights included. */
  requests: IngestRequest[];
  /** Every event decoded from every request, in arrival order. */
  events: IngestedEvent[];
  /** A page on this (foreign) origin whose link `#go` leads to `target` carrying its full URL as referrer. */
  landingUrl(target: string, host?: string): string;
  /** While on, requests are recorded but never answered (a host that accepts and then hangs). */
  stall(on: boolean): void;
  close(): Promise<void>;
};

/** The text of a request body, undoing the compression the query string or headers announce. */
export function decodeBody(raw: Buffer, query: URLSearchParams, headers: IncomingHttpHeaders): string {
  const compression = query.get("compression") ?? "";
  const gzipped = raw[0] === 0x1f && raw[1] === 0x8b;
  if (gzipped || compression.startsWith("gzip") || headers["content-encoding"] === "gzip") return gunzipSync(raw).toString("utf8");
  const text = raw.toString("utf8");
  if (compression === "base64" || text.startsWith("data=")) {
    const data = new URLSearchParams(text).get("data") ?? text;
    return Buffer.from(data, "base64").toString("utf8");
  }
  return text;
}

/** The events in a decoded body: a single event, a list of events, or `{batch: [...]}`. */
export function eventsIn(body: string): IngestedEvent[] {
  if (!body.trim()) return [];
  const parsed = JSON.parse(body) as unknown;
  const list = Array.isArray(parsed) ? parsed : parsed && typeof parsed === "object" && "batch" in parsed ? (parsed as { batch: unknown }).batch : [parsed];
  return (Array.isArray(list) ? list : []).filter(
    (e): e is IngestedEvent => !!e && typeof e === "object" && typeof (e as { event?: unknown }).event === "string",
  );
}

export async function startAnalyticsIngestServer(): Promise<AnalyticsIngestServer> {
  const requests: IngestRequest[] = [];
  const events: IngestedEvent[] = [];
  let stalled = false;

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://stand-in");
      if (req.method === "GET" && url.pathname === "/landing") {
        const target = url.searchParams.get("to") ?? "/";
        res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
        res.end(
          `<!doctype html><meta name="referrer" content="unsafe-url"><link rel="icon" href="data:,"><title>Landing</title>` +
            `<a id="go" href="${target.replace(/&/g, "&amp;").replace(/"/g, "&quot;")}">Open the journal</a>`,
        );
        return;
      }
      const rawBody = Buffer.concat(chunks);
      let decoded = "";
      try {
        decoded = rawBody.length ? decodeBody(rawBody, url.searchParams, req.headers) : "";
        events.push(...eventsIn(decoded));
      } catch {
        // Kept in `requests` with an empty decoded body: a test asserting on events then fails visibly.
      }
      requests.push({ method: req.method ?? "", path: url.pathname, query: url.searchParams, headers: req.headers, rawBody, decoded });
      if (stalled) return;
      res.writeHead(req.method === "OPTIONS" ? 204 : 200, {
        "Access-Control-Allow-Origin": req.headers.origin ?? "*",
        "Access-Control-Allow-Methods": "GET, POST, OPTIONS",
        "Access-Control-Allow-Headers": req.headers["access-control-request-headers"] ?? "*",
        "Content-Type": "application/json",
      });
      res.end(req.method === "OPTIONS" ? undefined : JSON.stringify({ status: 1 }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    requests,
    events,
    landingUrl: (target, host = "127.0.0.1") => `http://${host}:${port}/landing?to=${encodeURIComponent(target)}`,
    stall: (on) => {
      stalled = on;
    },
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
