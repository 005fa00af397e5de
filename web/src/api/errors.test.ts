import { afterEach, describe, expect, it } from "vitest";
import { envelope, json, stubApi } from "../test/render.tsx";
import { api, setCsrfToken, unwrap } from "./client.ts";
import { ApiError, errorFromResponse } from "./errors.ts";

afterEach(() => setCsrfToken(null));

describe("errorFromResponse", () => {
  it("reads the API's envelope: code, message, request id and field errors", async () => {
    const err = await errorFromResponse(
      envelope(400, "VALIDATION_ERROR", "The request is invalid.", [
        { path: "amount", message: "must not be zero" },
        { path: "note", message: "must be at most 500 characters" },
        { path: "amount", message: "a second complaint" },
      ]),
    );
    expect(err).toBeInstanceOf(ApiError);
    expect(err.status).toBe(400);
    expect(err.code).toBe("VALIDATION_ERROR");
    expect(err.message).toBe("The request is invalid.");
    expect(err.requestId).toBe("req-123");
    expect(err.fieldErrors()).toEqual({ amount: "must not be zero", note: "must be at most 500 characters" });
  });

  it("stands in for an answer that is not an envelope (a proxy's HTML page)", async () => {
    const err = await errorFromResponse(new Response("<html>Bad gateway</html>", { status: 502, headers: { "X-Request-Id": "edge-1" } }));
    expect(err.code).toBe("INTERNAL");
    expect(err.message).toMatch(/not reachable/);
    expect(err.requestId).toBe("edge-1");
    expect(err.fields).toEqual([]);
  });
});

describe("the typed client", () => {
  it("returns the success body and throws the envelope as an ApiError", async () => {
    stubApi({
      "GET /api/accounts": { accounts: [] },
      "POST /api/brokerages": envelope(409, "CONFLICT", "A brokerage with that name exists.", [{ path: "name", message: "is already used" }]),
    });
    expect(await unwrap(api.api.accounts.$get())).toEqual({ accounts: [] });
    const err = await unwrap(api.api.brokerages.$post({ json: { name: "IB" } })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(409);
    expect((err as ApiError).fieldErrors()).toEqual({ name: "is already used" });
  });

  it("turns a network failure into a NETWORK_ERROR ApiError", async () => {
    stubApi({ "GET /api/accounts": () => Promise.reject(new TypeError("Failed to fetch")) });
    const err = await unwrap(api.api.accounts.$get()).catch((e: unknown) => e);
    expect((err as ApiError).code).toBe("NETWORK_ERROR");
  });

  it("sends the anti-CSRF token on mutations once the API gave one, never on reads", async () => {
    const seen: Record<string, string | null> = {};
    stubApi({
      "GET /api/accounts": ({ headers }) => ((seen.get = headers.get("X-CSRF-Token")), json({ accounts: [] })),
      "POST /api/brokerages": ({ headers }) => ((seen.post = headers.get("X-CSRF-Token")), json({ id: "b" }, 201)),
    });
    setCsrfToken("tok-1");
    await unwrap(api.api.accounts.$get());
    await unwrap(api.api.brokerages.$post({ json: { name: "IB" } }));
    expect(seen).toEqual({ get: null, post: "tok-1" });
  });

  it("after a reload, a 403 CSRF_FAILED fetches the token once and repeats the request with it", async () => {
    const tokens: (string | null)[] = [];
    const mock = stubApi({
      "GET /api/auth/csrf": { csrfToken: "fresh" },
      "POST /api/brokerages": ({ headers }) => {
        tokens.push(headers.get("X-CSRF-Token"));
        return headers.get("X-CSRF-Token") === "fresh" ? json({ id: "b" }, 201) : envelope(403, "CSRF_FAILED", "Missing token.");
      },
    });
    expect(await unwrap(api.api.brokerages.$post({ json: { name: "IB" } }))).toEqual({ id: "b" });
    expect(tokens).toEqual([null, "fresh"]);
    expect(mock).toHaveBeenCalledTimes(3);
  });
});
