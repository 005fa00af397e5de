// The API document: generated from the mounted routes and their zod schemas, valid OpenAPI 3.1, in step with
// the committed functions/openapi.json, and served at /api/openapi.json with a reference page at /api/docs
// that loads nothing from elsewhere. (Every node test's responses are also held against it:
// tests/support/contract.ts.)
import { readFileSync } from "node:fs";
import { validate } from "@readme/openapi-parser";
import { describe, expect, inject, it } from "vitest";
import { apiRoutes } from "../../lib/http/openapi.ts";
import { OPENAPI_FILE, openApiFileText } from "../../scripts/build-openapi.ts";
import { testApp } from "../support/app.ts";
import { publishedDocument } from "../support/contract.ts";

const url = () => inject("databaseUrl");

describe("the OpenAPI document", () => {
  it("is valid OpenAPI 3.1 (checked by an OpenAPI validator)", async () => {
    const doc = publishedDocument();
    expect(doc.openapi).toBe("3.1.0");
    const result = await validate(structuredClone(doc) as never);
    expect(result).toMatchObject({ valid: true, warnings: [] });
  });

  it("lists every route mounted in the server, each with its parameters, body, responses and security", async () => {
    const t = await testApp(url());
    const mounted = apiRoutes(t.app);
    expect(mounted.length).toBeGreaterThan(80);
    const doc = publishedDocument();
    const paths = doc.paths as Record<string, Record<string, { parameters?: Array<{ name: string; in: string }>; requestBody?: unknown; responses: Record<string, unknown>; security: unknown[] }>>;
    for (const r of mounted) {
      const op = paths[r.openapiPath]?.[r.method.toLowerCase()];
      expect(op, `${r.method} ${r.path} is missing from the document`).toBeDefined();
      for (const [, name] of r.path.matchAll(/:(\w+)/g)) expect(op!.parameters?.some((p) => p.name === name && p.in === "path"), `${r.method} ${r.path}: {${name}}`).toBe(true);
      if (r.validators.some((v) => v.target === "json")) expect(op!.requestBody, `${r.method} ${r.path} body`).toBeDefined();
      // Success is a 2xx, or a redirect for the routes a browser is sent through (Schwab's sign-in).
      expect(Object.keys(op!.responses).some((s) => s.startsWith("2") || s === "302"), `${r.method} ${r.path} success`).toBe(true);
      expect(op!.responses["500"], `${r.method} ${r.path} 500`).toBeDefined();
      if (r.auth === "user" || r.auth === "admin") expect(op!.responses["401"], `${r.method} ${r.path} 401`).toBeDefined();
    }
    // And nothing the server does not mount.
    const documented = Object.entries(paths).flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`));
    expect(documented.sort()).toEqual(mounted.map((r) => `${r.method} ${r.openapiPath}`).sort());
  });

  it("describes every route (describeRoute), and every JSON success body has a schema", () => {
    const undescribed: string[] = [];
    const doc = publishedDocument();
    for (const [path, ops] of Object.entries(doc.paths as Record<string, Record<string, Record<string, unknown>>>)) {
      for (const [method, op] of Object.entries(ops)) {
        const key = `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ":$1")}`;
        if (op["x-undescribed"]) {
          undescribed.push(key);
          continue;
        }
        for (const [status, r] of Object.entries(op.responses as Record<string, { content?: Record<string, { schema?: unknown }> }>)) {
          if (status.startsWith("2") && r.content?.["application/json"]) expect(r.content["application/json"].schema, `${key} ${status}`).toBeDefined();
        }
      }
    }
    expect(undescribed).toEqual([]);
  });

  it("functions/openapi.json is the document the routes give (run `npm run build:openapi` after changing a route)", () => {
    expect(readFileSync(OPENAPI_FILE, "utf8") === openApiFileText(), "functions/openapi.json is out of date: run npm run build:openapi").toBe(true);
  });

  it("GET /api/openapi.json answers it without a session, with the instance's version", async () => {
    const t = await testApp(url(), { APP_VERSION: "9.8.7" });
    const res = await t.client().get("/api/openapi.json");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("application/json");
    const doc = await res.json();
    expect(doc.info.version).toBe("9.8.7");
    expect(doc.paths).toEqual(JSON.parse(openApiFileText()).paths);
  });

  it("GET /api/docs is the reference page, whose scripts are the instance's own files and which names no other host", async () => {
    const t = await testApp(url());
    const res = await t.client().get("/api/docs");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/html");
    const html = await res.text();
    expect(html).toContain('src="/api-reference/swagger-ui-bundle.js"');
    expect(html).toContain('src="/api-reference/start.js"');
    expect(html).toContain("/api/openapi.json");
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//);
    // No inline script: the page's policy runs its own files only.
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    const policy = res.headers.get("content-security-policy")!;
    expect(policy).toContain("script-src 'self';");
    expect(policy).not.toContain("unsafe-eval");
    // The start script (web/public) points the renderer at the document and offers no "Try it out".
    const start = readFileSync(new URL("../../web/public/api-reference/start.js", import.meta.url), "utf8");
    expect(start).toContain('url: "/api/openapi.json"');
    expect(start).toContain("supportedSubmitMethods: []");
  });
});
