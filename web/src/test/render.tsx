// Renders the real app (routes, query client, typed API client) at a path, with fetch answered by a
// per-test table of routes instead of a server.
import { QueryClientProvider } from "@tanstack/react-query";
import { render } from "@testing-library/react";
import { createMemoryRouter, RouterProvider } from "react-router";
import { vi } from "vitest";
import { createQueryClient } from "../api/query-client.ts";
import { routes } from "../app.tsx";

export type Handler = (req: { method: string; path: string; query: URLSearchParams; body: unknown; headers: Headers }) =>
  | Response
  | Promise<Response>;

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/json", "X-Request-Id": "req-test", ...headers },
  });
}

export function envelope(status: number, code: string, message: string, fields?: { path: string; message: string }[]): Response {
  return json({ error: { code, message, requestId: "req-123", ...(fields ? { fields } : {}) } }, status);
}

/** One USD account in New York, as GET /api/accounts lists it. */
export const ACCOUNT = {
  id: "11111111-1111-4111-8111-111111111111",
  name: "Main",
  currency: "USD",
  startingBalance: "0.00",
  timezone: "America/New_York",
  brokerageId: null,
  createdAt: "2026-01-01T00:00:00.000Z",
  balance: "0.00",
};

export const USER = { id: "00000000-0000-4000-8000-000000000001", email: "trader@example.com", emailVerified: false, isAdmin: false };

/**
 * Stubs fetch with `routes` keyed "METHOD /path" (query string ignored); an unlisted request answers
 * 404 NOT_FOUND. Returns the mock so tests can inspect the calls.
 */
export function stubApi(table: Record<string, Handler | Response | Record<string, unknown>>) {
  const mock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input), "http://localhost:3100");
    const method = (init?.method ?? (input instanceof Request ? input.method : "GET")).toUpperCase();
    const key = `${method} ${url.pathname}`;
    const entry = table[key];
    const raw = init?.body;
    const body = typeof raw === "string" && raw ? JSON.parse(raw) : undefined;
    if (entry === undefined) return envelope(404, "NOT_FOUND", `No stub for ${key}`);
    if (typeof entry === "function") return (entry as Handler)({ method, path: url.pathname, query: url.searchParams, body, headers: new Headers(init?.headers) });
    if (entry instanceof Response) return entry.clone();
    return json(entry);
  });
  vi.stubGlobal("fetch", mock);
  return mock;
}

export function renderApp(path: string) {
  const queryClient = createQueryClient();
  queryClient.setDefaultOptions({ queries: { ...queryClient.getDefaultOptions().queries, retry: false } });
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const utils = render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { ...utils, router, queryClient };
}
