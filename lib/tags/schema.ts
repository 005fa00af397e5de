import * as z from "zod/mini";
import { TagSchema } from "./tag.ts";

export const TAG_KINDS = ["setup", "mistake", "emotion"] as const;
export type TagKind = (typeof TAG_KINDS)[number];
/** A tag kind, as a body or a query names it. */
export const kind = () => z.enum(TAG_KINDS, { error: "must be setup, mistake or emotion" });

/** PUT /api/tags/kind: a tag's kind (null: none). The tag is in the body, as tags may hold any character. */
export const TagKindSchema = z.strictObject({
  tag: TagSchema,
  kind: z.nullable(kind()),
});
export type TagKindBody = z.infer<typeof TagKindSchema>;
