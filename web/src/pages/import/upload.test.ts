import { beforeEach, describe, expect, it, vi } from "vitest";
import { setCsrfToken } from "../../api/client.ts";
import { ApiError } from "../../api/errors.ts";
import { FakeXhr } from "./fake-xhr.ts";
import { uploadPreview } from "./upload.ts";

const request = { accountId: "11111111-1111-4111-8111-111111111111", presetId: "generic" };
const file = () => new File(["Date/Time,Symbol\n"], "trades.csv", { type: "text/csv" });

describe("the preview upload", () => {
  beforeEach(() => {
    FakeXhr.reset();
    setCsrfToken(null);
  });

  it("posts the file and the JSON request as multipart with cookies, and reports progress", async () => {
    const preview = { importId: "i", expiresAt: "", summary: {}, errors: [], symbols: [], fills: [] };
    FakeXhr.answers.push({ status: 201, body: preview });
    const progress: number[] = [];
    const result = await uploadPreview(file(), request, { xhr: FakeXhr.factory, onProgress: (p) => progress.push(p.loaded / p.total) });
    expect(result).toEqual(preview);
    expect(progress).toEqual([0.5, 1]);
    const [xhr] = FakeXhr.sent;
    expect([xhr!.method, xhr!.url, xhr!.withCredentials]).toEqual(["POST", "/api/csv-import/preview", true]);
    expect(xhr!.requestHeaders["X-CSRF-Token"]).toBeUndefined();
    expect((xhr!.body!.get("file") as File).name).toBe("trades.csv");
    expect(JSON.parse(xhr!.body!.get("request") as string)).toEqual(request);
  });

  it("sends the anti-CSRF token when one is held", async () => {
    setCsrfToken("tok-1");
    FakeXhr.answers.push({ status: 201, body: {} });
    await uploadPreview(file(), request, { xhr: FakeXhr.factory });
    expect(FakeXhr.sent[0]!.requestHeaders["X-CSRF-Token"]).toBe("tok-1");
  });

  it("turns the error envelope into the app's ApiError, the cap named in the message", async () => {
    FakeXhr.answers.push({
      status: 413,
      body: { error: { code: "PAYLOAD_TOO_LARGE", message: "The file is larger than 10485760 bytes (CSV_IMPORT_MAX_FILE_BYTES).", requestId: "req-9" } },
    });
    const err = await uploadPreview(file(), request, { xhr: FakeXhr.factory }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 413, code: "PAYLOAD_TOO_LARGE", requestId: "req-9" });
    expect((err as ApiError).message).toMatch(/CSV_IMPORT_MAX_FILE_BYTES/);
  });

  it("keeps validation fields, and maps a network failure and a non-JSON page", async () => {
    FakeXhr.answers.push(
      { status: 400, body: { error: { code: "VALIDATION_ERROR", message: "Invalid request.", requestId: "r", fields: [{ path: "request.mapping.symbol", message: "must name a column" }] } } },
      "network-error",
    );
    const invalid = (await uploadPreview(file(), request, { xhr: FakeXhr.factory }).catch((e: unknown) => e)) as ApiError;
    expect(invalid.fields).toEqual([{ path: "request.mapping.symbol", message: "must name a column" }]);
    const offline = (await uploadPreview(file(), request, { xhr: FakeXhr.factory }).catch((e: unknown) => e)) as ApiError;
    expect(offline.code).toBe("NETWORK_ERROR");
  });

  it("after 403 CSRF_FAILED fetches the token once and sends the upload again with it", async () => {
    vi.stubGlobal("fetch", vi.fn(async () => new Response(JSON.stringify({ csrfToken: "fresh" }), { status: 200 })));
    FakeXhr.answers.push({ status: 403, body: { error: { code: "CSRF_FAILED", message: "Missing token.", requestId: "r" } } }, { status: 201, body: { importId: "ok" } });
    const result = await uploadPreview(file(), request, { xhr: FakeXhr.factory });
    expect(result).toEqual({ importId: "ok" });
    expect(FakeXhr.sent.map((x) => x.requestHeaders["X-CSRF-Token"])).toEqual([undefined, "fresh"]);
  });

  it("a cancelled upload rejects as ABORTED", async () => {
    FakeXhr.answers.push({ status: 201, body: {} });
    const controller = new AbortController();
    const pending = uploadPreview(file(), request, { xhr: FakeXhr.factory, signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ code: "ABORTED" });
  });
});
