import { Effect, Schema } from "effect"
import { Cursor, decodeCursor, encodeCursor, Limit } from "../shared/paging.js"
import { Timestamp } from "../shared/time.js"
import { defineTool } from "../tools/tool.js"
import { BUILDER_GUIDE } from "./builder-guide.js"
import {
  CUSTOM_AI_DESCRIPTION_MAX,
  CUSTOM_AI_INSTRUCTIONS_MAX,
  CUSTOM_AI_NAME_MAX,
  type CustomAi,
  CustomAiKind
} from "./schema.js"
import { CustomAis } from "./service.js"

// Ids carry only a length cap (an empty one is not found): every byte of the input schema is in tools/list.
const CustomAiId = Schema.String.pipe(Schema.maxLength(100)).annotations({
  description: "Custom AI id (cai_…) from svc_list_custom_ai."
})

const CustomAiRecord = Schema.Struct({
  id: Schema.String.annotations({ description: "Custom AI id (cai_…)." }),
  name: Schema.String.annotations({ description: "Its name, shown to buyers." }),
  kind: CustomAiKind.annotations({ description: "assistant (chat) or course (AI off when sold)." }),
  description: Schema.String.annotations({ description: "What it is for, in a sentence or two." }),
  instructions: Schema.String.annotations({ description: "How it answers: its system prompt." }),
  isDefault: Schema.Boolean.annotations({ description: "The one asked when a question names none." }),
  createdAt: Timestamp,
  updatedAt: Timestamp
})

const CustomAiField = CustomAiRecord.annotations({ description: "The Custom AI as it now is." })

const record = (customAi: CustomAi) => ({
  id: customAi.id,
  name: customAi.name,
  kind: customAi.kind,
  description: customAi.description,
  instructions: customAi.instructions,
  isDefault: customAi.isDefault,
  createdAt: customAi.createdAt,
  updatedAt: customAi.updatedAt
})

const Name = Schema.String.pipe(Schema.maxLength(CUSTOM_AI_NAME_MAX)).annotations({
  description: `Name, 1-${CUSTOM_AI_NAME_MAX} characters.`
})
const Description = Schema.String.pipe(Schema.maxLength(CUSTOM_AI_DESCRIPTION_MAX)).annotations({
  description: `What it is for (≤ ${CUSTOM_AI_DESCRIPTION_MAX} chars).`
})
const Instructions = Schema.String.pipe(Schema.maxLength(CUSTOM_AI_INSTRUCTIONS_MAX)).annotations({
  description: `How it answers: role, tone, rules (≤ ${CUSTOM_AI_INSTRUCTIONS_MAX} chars).`
})
const IsDefault = Schema.Boolean.annotations({ description: "true: make it the workspace's default assistant." })

/** The Custom AI group's tools for the assistants themselves (knowledge and asking have their own files). */
export const customAiTools = Effect.gen(function* () {
  const customAis = yield* CustomAis

  return [
    defineTool({
      name: "svc_list_custom_ai",
      title: "List Custom AIs",
      group: "Custom AI",
      write: false,
      annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: false },
      description:
        "List the workspace's Custom AI assistants, newest first, with name, kind, description, instructions and which is the default. Free. Paged. Ask one with svc_ask_custom_ai.",
      input: { limit: Schema.optional(Limit), cursor: Schema.optional(Cursor) },
      output: {
        customAIs: Schema.Array(CustomAiRecord).annotations({ description: "The Custom AIs, newest first." }),
        nextCursor: Schema.optional(Schema.String.annotations({ description: "Cursor of the next page, if any." }))
      },
      handler: (input, { workspace }) =>
        Effect.gen(function* () {
          const { id } = yield* workspace
          const after = input.cursor === undefined ? undefined : yield* decodeCursor(input.cursor)
          const page = yield* customAis.listPage(id, { limit: input.limit ?? 25, after })
          return {
            customAIs: page.rows.map(record),
            ...(page.next ? { nextCursor: encodeCursor(page.next) } : {})
          }
        })
    }),
    defineTool({
      name: "svc_get_custom_ai",
      title: "Get Custom AI",
      group: "Custom AI",
      write: false,
      annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: false },
      description:
        "Read one Custom AI: name, kind, description, instructions, default flag and times. Free. Its knowledge: svc_read_custom_ai_knowledge.",
      input: { customAIId: CustomAiId },
      output: { customAI: CustomAiField },
      handler: (input, { workspace }) =>
        Effect.gen(function* () {
          const { id } = yield* workspace
          return { customAI: record(yield* customAis.get(id, input.customAIId)) }
        })
    }),
    defineTool({
      name: "svc_get_custom_ai_builder_guide",
      title: "Get Custom AI builder guide",
      group: "Custom AI",
      write: false,
      annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: false },
      description:
        "Read the guide for building a Custom AI well: the steps and tools in order, how to write instructions, which knowledge to add, how to test and sell it. Free. Read it before svc_create_custom_ai.",
      input: {},
      output: { guide: Schema.String.annotations({ description: "The guide, in Markdown." }) },
      handler: () => Effect.succeed({ guide: BUILDER_GUIDE })
    }),
    defineTool({
      name: "svc_create_custom_ai",
      title: "Create Custom AI",
      group: "Custom AI",
      write: true,
      annotations: { destructiveHint: false, idempotentHint: false, openWorldHint: false },
      description:
        "Create a Custom AI assistant in the workspace and return it; the workspace's first becomes its default. Free. Then add knowledge with svc_manage_custom_ai_sources and try it with svc_ask_custom_ai.",
      input: {
        name: Name,
        description: Schema.optional(Description),
        instructions: Schema.optional(Instructions),
        kind: Schema.optional(CustomAiKind.annotations({ description: "assistant (default) or course." })),
        isDefault: Schema.optional(IsDefault)
      },
      output: { customAI: CustomAiField },
      handler: (input, { workspace }) =>
        Effect.gen(function* () {
          const { id } = yield* workspace
          return { customAI: record(yield* customAis.create(id, input)) }
        })
    }),
    defineTool({
      name: "svc_update_custom_ai",
      title: "Update Custom AI",
      group: "Custom AI",
      write: true,
      annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: false },
      description:
        "Change a Custom AI's name, description, instructions, kind or default flag (fields left out stay) and return it. Free.",
      input: {
        customAIId: CustomAiId,
        name: Schema.optional(Name),
        description: Schema.optional(Description),
        instructions: Schema.optional(Instructions),
        kind: Schema.optional(CustomAiKind.annotations({ description: "assistant or course." })),
        isDefault: Schema.optional(IsDefault)
      },
      output: { customAI: CustomAiField },
      handler: ({ customAIId, ...fields }, { workspace }) =>
        Effect.gen(function* () {
          const { id } = yield* workspace
          return { customAI: record(yield* customAis.update(id, customAIId, fields)) }
        })
    }),
    defineTool({
      name: "svc_delete_custom_ai",
      title: "Delete Custom AI",
      group: "Custom AI",
      write: true,
      annotations: { destructiveHint: true, idempotentHint: false, openWorldHint: false },
      description:
        "Delete a Custom AI with its knowledge and chats, for good. Refused (conflict) while a store product sells it. Free.",
      input: { customAIId: CustomAiId },
      output: { deleted: Schema.Literal(true).annotations({ description: "Always true on success." }) },
      handler: (input, { workspace }) =>
        Effect.gen(function* () {
          const { id } = yield* workspace
          yield* customAis.remove(id, input.customAIId)
          return { deleted: true as const }
        })
    })
  ]
})
