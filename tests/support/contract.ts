// The contract check: every response the node tests get through testApp (tests/support/app.ts) is held
// against the OpenAPI document the server publishes. A response whose status the document does not list
// for its route, an error whose code is not among the route's `x-error-codes` or whose body is not the one
// envelope, or a success body that does not match its documented schema fails the test that made the
// request. Bodies of event streams are not read here (only their status and type).
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { typedRoutes } from "../../functions/groups.ts";
import { buildOpenApiDocument } from "../../lib/http/openapi.ts";

type Responses = Record<string, { content?: Record<string, { schema?: Record<string, unknown> }>; "x-error-codes"?: string[] }>;
type Doc = ReturnType<typeof buildOpenApiDocument>;

let cached: { doc: Doc; matchers: Array<{ method: string; template: string; regex: RegExp; params: number }> } | undefined;

export function publishedDocument(): Doc {
  return state().doc;
}

function state() {
  if (!cached) {
    const doc = buildOpenApiDocument(typedRoutes(), { title: "Trading Journal API", version: "test", description: "", cookieName: "journal_session" });
    const matchers = Object.entries(doc.paths).flatMap(([template, ops]) =>
      Object.keys(ops).map((method) => ({
        method: method.toUpperCase(),
        template,
        regex: new RegExp(`^${template.replace(/\{\w+\}/g, "[^/]+").replace(/\./g, "\\.")}$`),
        params: (template.match(/\{/g) ?? []).length,
      })),
    );
    // The most literal template first: /api/csv-import/history before /api/csv-import/{importId}.
    matchers.sort((a, b) => a.params - b.params);
    cached = { doc, matchers };
  }
  return cached;
}

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);
const compiled = new Map<string, ValidateFunction>();

function validatorFor(key: string, schema: Record<string, unknown>): ValidateFunction {
  let fn = compiled.get(key);
  if (!fn) {
    const errorSchema = state().doc.components.schemas.Error;
    const resolved = JSON.parse(JSON.stringify(schema).replaceAll('{"$ref":"#/components/schemas/Error"}', JSON.stringify(errorSchema))) as Record<string, unknown>;
    fn = ajv.compile(resolved);
    compiled.set(key, fn);
  }
  return fn;
}

/** What is wrong with this response according to the document (empty when nothing is). */
export async function contractProblems(method: string, url: string, res: Response): Promise<string[]> {
  const path = new URL(url, "http://localhost").pathname;
  if (!path.startsWith("/api/")) {
    void res.body?.cancel().catch(() => undefined);
    return [];
  }
  const route = state().matchers.find((m) => m.method === method && m.regex.test(path));
  // An unknown path or method answers 404/405 from the router, outside any route's contract.
  if (!route) {
    void res.body?.cancel().catch(() => undefined);
    return res.status === 404 || res.status === 405 ? [] : [`${method} ${path}: no route in the document, answered ${res.status}`];
  }
  const op = (state().doc.paths as Record<string, Record<string, { responses: Responses; "x-undescribed"?: boolean }>>)[route.template]![method.toLowerCase()]!;
  // Routes not yet described (tests/node/openapi.test.ts lists them) are not held to a contract they lack.
  if (op["x-undescribed"]) {
    void res.body?.cancel().catch(() => undefined);
    return [];
  }
  const responses = op.responses;
  const where = `${method} ${route.template} -> ${res.status}`;
  const documented = responses[String(res.status)];
  if (!documented) {
    void res.body?.cancel().catch(() => undefined);
    return [`${where}: status not in the document (documented: ${Object.keys(responses).join(", ")})`];
  }
  const type = (res.headers.get("content-type") ?? "").split(";")[0]!.trim();
  // A copy not read must be let go of: an event stream's client leaving is seen only when every copy is cancelled.
  const skip = async (problems: string[] = []) => {
    void res.body?.cancel().catch(() => undefined);
    return problems;
  };
  if (!documented.content) return skip();
  const media = documented.content[type] ?? documented.content[`${type.split("/")[0]}/*`];
  if (!media) return skip([`${where}: content type ${type || "(none)"} not documented (${Object.keys(documented.content).join(", ")})`]);
  if (!media.schema || type !== "application/json") return skip();
  let body: unknown;
  try {
    body = await res.json();
  } catch {
    return [`${where}: the body is not JSON`];
  }
  const problems: string[] = [];
  const validateBody = validatorFor(`${method} ${route.template} ${res.status}`, media.schema);
  if (!validateBody(body)) problems.push(`${where}: body does not match the schema: ${ajv.errorsText(validateBody.errors)} in ${JSON.stringify(body).slice(0, 300)}`);
  const codes = documented["x-error-codes"];
  const code = (body as { error?: { code?: string } }).error?.code;
  if (codes && code && !codes.includes(code)) problems.push(`${where}: error code ${code} is not documented for this route (documented: ${codes.join(", ")})`);
  return problems;
}
