// A local HTTP server standing in for Resend's email API (POST /emails), for the edge mailer's tests.
// It records every request and answers 200 `{id}`, or the status and body a test configures.
import { randomUUID } from "node:crypto";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

export type EmailApiRequest = {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  json: unknown;
  rawBody: string;
};

export type EmailApiServer = {
  /** Base URL to use as EMAIL_API_BASE_URL, e.g. http://127.0.0.1:41234 */
  url: string;
  requests: EmailApiRequest[];
  /** Answer every following request with this status and JSON body (default 200 `{id}`). */
  respondWith(status: number, body?: unknown): void;
  close(): Promise<void>;
};

export async function startEmailApiServer(initial?: { status: number; body?: unknown }): Promise<EmailApiServer> {
  const requests: EmailApiRequest[] = [];
  let response = initial;

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const rawBody = Buffer.concat(chunks).toString("utf8");
      let json: unknown;
      try {
        json = JSON.parse(rawBody);
      } catch {
        json = undefined;
      }
      requests.push({ method: req.method ?? "", path: req.url ?? "", headers: req.headers, json, rawBody });
      const status = response?.status ?? 200;
      const body = response ? response.body : { id: randomUUID() };
      res.writeHead(status, { "content-type": "application/json" });
      res.end(body === undefined ? "" : JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    respondWith(status, body) {
      response = { status, body };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
