// The response bodies of the tags routes as zod schemas, for the OpenAPI document (describeRoute) and so for
// the contract test that holds real responses to it; the requests' schemas are beside them (schema.ts).
import * as z from "zod/mini";

export const tagKind = () => z.nullable(z.enum(["setup", "mistake", "emotion"]));

export const TagListSchema = z.object({ tags: z.array(z.object({ tag: z.string(), kind: tagKind(), trades: z.number().check(z.describe("Trades (not detached notes) carrying it")) })) });

export const TagKindOutSchema = z.object({ tag: z.string(), kind: tagKind() });
