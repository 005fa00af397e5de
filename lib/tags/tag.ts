// What a tag is, wherever one is written (a trade's journal, a day's, a tag's kind, a JSON export or an archive
// restored): trimmed, not empty, at most 50 characters, at most 20 on one trade or day. One definition, so an
// import is no way round the API's rules. Tags.ts then writes each in the spelling the user already has.
import * as z from "zod/mini";

export const TAG_MAX_LENGTH = 50;
export const TAGS_MAX = 20;

export const TagSchema = z.string().check(z.trim(), z.minLength(1, "must not be empty"), z.maxLength(TAG_MAX_LENGTH, `must be at most ${TAG_MAX_LENGTH} characters`));
export const TagListSchema = z.array(TagSchema).check(z.maxLength(TAGS_MAX, `at most ${TAGS_MAX} tags`));
