// One keep-alive connection carrying a burst of oversized, refused and normal requests loses none of them: a
// response after which the server will not read the rest of the body says `Connection: close`, so the client
// opens a new connection instead of sending its next request into a socket the server is closing; a small refused
// body is read to the end first, so the connection goes on.
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { NodeServer } from "../../functions/node.ts";
import { startTestServer } from "../support/node-server.ts";

let server: NodeServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

type Outcome = { status: number; connection: string | undefined } | { error: string };

function send(agent: http.Agent, method: string, path: string, body?: string, type = "application/json"): Promise<Outcome> {
  return new Promise((resolve) => {
    const u = new URL(server.url + path);
    const headers = body === undefined ? {} : { "Content-Type": type, "Content-Length": Buffer.byteLength(body) };
    const req = http.request({ host: u.hostname, port: u.port, path: u.pathname, method, agent, headers }, (res) => {
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode!, connection: res.headers.connection }));
    });
    req.on("error", (e) => resolve({ error: e.message }));
    if (body !== undefined) req.write(body);
    req.end();
  });
}

describe("keep-alive connections", () => {
  it("lose no request to a burst of oversized, refused and normal requests over one connection", async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const oversized = JSON.stringify({ name: "x".repeat(2 * 1024 * 1024), currency: "USD" });
    const outcomes: Outcome[] = [];
    for (let round = 0; round < 5; round++) {
      outcomes.push(await send(agent, "POST", "/api/accounts", oversized)); // 413, the body not read to the end
      outcomes.push(await send(agent, "GET", "/api/health"));
      outcomes.push(await send(agent, "POST", "/api/accounts", "x".repeat(300_000), "text/plain")); // 401 before the body
      outcomes.push(await send(agent, "GET", "/api/health"));
      outcomes.push(await send(agent, "POST", "/api/csv-import/preview", "y".repeat(500_000), "multipart/form-data; boundary=z")); // refused unread
      outcomes.push(await send(agent, "GET", "/api/health"));
    }
    agent.destroy();
    expect(outcomes.filter((o) => "error" in o)).toEqual([]);
    expect(outcomes.filter((_, i) => i % 2 === 1).every((o) => "status" in o && o.status === 200)).toBe(true);
    for (const o of outcomes.filter((_, i) => i % 2 === 0)) expect(o).toMatchObject({ connection: "close" });
  });

  it("read a small refused body to the end before answering: a client still sending it gets the answer, and the connection goes on", async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const body = JSON.stringify({ name: "n".repeat(2000), currency: "USD" });
    // Headers first, the body 300 ms later (a slow upload): the server refuses before the body mattered (401).
    const slow = await new Promise<Outcome & { sentAll?: boolean }>((resolve) => {
      const u = new URL(`${server.url}/api/accounts`);
      const req = http.request({ host: u.hostname, port: u.port, path: u.pathname, method: "POST", agent, headers: { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) } }, (res) => {
        res.resume();
        res.on("end", () => resolve({ status: res.statusCode!, connection: res.headers.connection }));
      });
      req.on("error", (e) => resolve({ error: e.message }));
      req.flushHeaders();
      setTimeout(() => req.end(body), 300);
    });
    expect(slow).toMatchObject({ status: 401 });
    expect("connection" in slow && slow.connection).not.toBe("close");
    expect(await send(agent, "GET", "/api/health")).toMatchObject({ status: 200 });
    agent.destroy();
  });
});
