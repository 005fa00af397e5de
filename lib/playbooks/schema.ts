import * as z from "zod/mini";

export const ITEM_KINDS = ["checkbox", "number", "text", "choice"] as const;
export const MAX_ITEMS = 50;
export const MAX_CHOICES = 20;

const text = (max: number) => z.string().check(z.trim(), z.maxLength(max, `must be at most ${max} characters`));
const longText = () => z.optional(z.nullable(text(5000)));

/** A checklist item. `id` names an existing item (its answers are kept); an item without one is new. */
export const PlaybookItemSchema = z
  .strictObject({
    id: z.optional(z.uuid("must be a uuid")),
    kind: z.enum(ITEM_KINDS, { error: "must be checkbox, number, text or choice" }),
    label: z.string().check(z.trim(), z.minLength(1, "must not be empty"), z.maxLength(200, "must be at most 200 characters")),
    options: z.optional(
      z.array(z.string().check(z.trim(), z.minLength(1, "must not be empty"), z.maxLength(100, "must be at most 100 characters"))).check(
        z.maxLength(MAX_CHOICES, `at most ${MAX_CHOICES} choices`),
      ),
    ),
  })
  .check(
    z.refine((i) => i.kind !== "choice" || (i.options !== undefined && new Set(i.options).size >= 2 && new Set(i.options).size === i.options.length), {
      message: "a choice item needs at least two different options",
      path: ["options"],
    }),
    z.refine((i) => i.kind === "choice" || i.options === undefined, { message: "only a choice item has options", path: ["options"] }),
  );
export type PlaybookItemInput = z.infer<typeof PlaybookItemSchema>;

const items = () =>
  z.array(PlaybookItemSchema).check(
    z.maxLength(MAX_ITEMS, `at most ${MAX_ITEMS} items`),
    z.refine((list) => new Set(list.flatMap((i) => (i.id ? [i.id] : []))).size === list.filter((i) => i.id).length, "an item id appears twice"),
  );

const name = () => z.string().check(z.trim(), z.minLength(1, "must not be empty"), z.maxLength(100, "must be at most 100 characters"));

export const NewPlaybookSchema = z.strictObject({
  name: name(),
  description: longText(),
  entryCriteria: longText(),
  exitCriteria: longText(),
  items: z._default(items(), []),
});
export type NewPlaybook = z.infer<typeof NewPlaybookSchema>;

export const PlaybookPatchSchema = z.strictObject({
  name: z.optional(name()),
  description: longText(),
  entryCriteria: longText(),
  exitCriteria: longText(),
  /** The whole checklist: items named by id keep their answers; items left out are no longer asked. */
  items: z.optional(items()),
  /** Archived playbooks are not offered for new trades; their trades and report stay. */
  archived: z.optional(z.boolean({ error: "must be true or false" })),
});
export type PlaybookPatch = z.infer<typeof PlaybookPatchSchema>;

export const PlaybookListQuerySchema = z.object({
  archived: z.optional(z.enum(["true", "false"], { error: "must be true or false" })),
});

/** A trade's answers by item id: true/false, a number, a text, or one of a choice item's options; null removes one. */
export const PlaybookAnswersSchema = z.record(
  z.uuid("must be an item id"),
  z.nullable(z.union([z.boolean(), z.number().check(z.refine(Number.isFinite, "must be a finite number")), z.string().check(z.maxLength(1000, "must be at most 1000 characters"))])),
);
export type PlaybookAnswers = z.infer<typeof PlaybookAnswersSchema>;
