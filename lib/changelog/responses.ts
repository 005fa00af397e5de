// The response bodies of the changelog routes as zod schemas, for the OpenAPI document (describeRoute) and so for
// the contract test that holds real responses to it; the requests' schemas are beside them (schema.ts).
import * as z from "zod/mini";
import { iso } from "../fields.ts";

export const ChangelogSchema = z.object({
  releases: z.array(z.object({ name: z.string(), tag: z.string(), publishedAt: iso(), url: z.string(), body: z.string() })),
  unread: z.number(),
  stale: z.boolean(),
  shipped: z.boolean().check(z.describe("True when the releases source could not be reached and the release notes this instance ships (its CHANGELOG.md) are served instead")),
});
