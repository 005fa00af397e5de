// `npm run build:openapi`: writes functions/openapi.json, the OpenAPI 3.1 document built from the mounted
// routes and their zod schemas (lib/http/openapi.ts). GET /api/openapi.json serves that file (with the
// instance's version), so a deployed Worker need not carry every group's code; tests/node/openapi.test.ts
// fails when the file and the routes disagree.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { typedRoutes } from "../functions/groups.ts";
import { ROOT } from "../lib/paths.ts";
import { buildOpenApiDocument } from "../lib/http/openapi.ts";
import { OPENAPI_INFO } from "../lib/http/openapi-info.ts";

export const OPENAPI_FILE = join(ROOT, "functions/openapi.json");

export function openApiFileText(): string {
  return `${JSON.stringify(buildOpenApiDocument(typedRoutes(), OPENAPI_INFO), null, 2)}\n`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(OPENAPI_FILE, openApiFileText());
  console.log(`${OPENAPI_FILE} written.`);
}
