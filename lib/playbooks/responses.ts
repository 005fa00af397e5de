// The response bodies of the playbooks routes as zod schemas, for the OpenAPI document (describeRoute) and so for
// the contract test that holds real responses to it; the requests' schemas are beside them (schema.ts).
import * as z from "zod/mini";
import { id, iso } from "../fields.ts";

const PlaybookItemOut = z.object({
  id: id(),
  kind: z.enum(["checkbox", "number", "text", "choice"]),
  label: z.string(),
  options: z.optional(z.array(z.string()).check(z.describe("A choice item's options"))),
});

export const PlaybookSchema = z.object({
  id: id(),
  name: z.string(),
  description: z.nullable(z.string()),
  entryCriteria: z.nullable(z.string()),
  exitCriteria: z.nullable(z.string()),
  items: z.array(PlaybookItemOut),
  archived: z.boolean(),
  archivedAt: z.nullable(iso()),
  trades: z.number().check(z.describe("Trades (and detached notes) taken from it")),
  createdAt: iso(),
  updatedAt: iso(),
});

export const PlaybookListSchema = z.object({ playbooks: z.array(PlaybookSchema) });
