import { Effect, Schema } from "effect"
import { invalid } from "../shared/errors.js"
import { Cursor, decodeCursor, encodeCursor, Limit } from "../shared/paging.js"
import { Timestamp } from "../shared/time.js"
import { defineTool } from "../tools/tool.js"
import { SKILL_TEXT_MAX, SKILL_URL_MAX, type SkillSummary } from "./schema.js"
import { Skills } from "./service.js"

// A name (lowercase, digits, hyphens) never holds "_", so one field takes either.
const SkillRef = Schema.String.pipe(Schema.maxLength(100)).annotations({
  description: "Skill id (skill_…) or name."
})

const SkillFields = {
  id: Schema.String.annotations({ description: "Skill id (skill_…)." }),
  name: Schema.String.annotations({ description: "Its name, unique in the workspace." }),
  description: Schema.String.annotations({ description: "What it does and when to use it." }),
  size: Schema.Int.annotations({ description: "SKILL.md size in UTF-8 bytes." }),
  createdAt: Timestamp,
  updatedAt: Timestamp
}

const SkillRecord = Schema.Struct(SkillFields)

const summary = (skill: SkillSummary) => ({
  id: skill.id,
  name: skill.name,
  description: skill.description,
  size: skill.size,
  createdAt: skill.createdAt,
  updatedAt: skill.updatedAt
})

/** The Skills group: Agent Skills (`SKILL.md`) imported, listed, read and exported unchanged. */
export const skillTools = Effect.gen(function* () {
  const skills = yield* Skills

  return [
    defineTool({
      name: "svc_list_skills",
      title: "List skills",
      group: "Skills",
      write: false,
      annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: false },
      description:
        "List the workspace's Agent Skills, newest first: id, name, description, size and times. Free. Paged. Read one with svc_get_skill, download it with svc_export_skill.",
      input: { limit: Schema.optional(Limit), cursor: Schema.optional(Cursor) },
      output: {
        skills: Schema.Array(SkillRecord).annotations({ description: "The skills, newest first." }),
        nextCursor: Schema.optional(Schema.String.annotations({ description: "Cursor of the next page, if any." }))
      },
      handler: (input, { workspace }) =>
        Effect.gen(function* () {
          const { id } = yield* workspace
          const after = input.cursor === undefined ? undefined : yield* decodeCursor(input.cursor)
          const page = yield* skills.listPage(id, { limit: input.limit ?? 25, after })
          return { skills: page.rows.map(summary), ...(page.next ? { nextCursor: encodeCursor(page.next) } : {}) }
        })
    }),
    defineTool({
      name: "svc_get_skill",
      title: "Get skill",
      group: "Skills",
      write: false,
      annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: false },
      description:
        "Read one skill by id or name: its fields, every front-matter key and the Markdown body. Free. The exact SKILL.md file: svc_export_skill.",
      input: { skill: SkillRef },
      output: {
        skill: Schema.Struct({
          ...SkillFields,
          frontMatter: Schema.Record({ key: Schema.String, value: Schema.Unknown }).annotations({
            description: "Every front-matter key, as JSON."
          }),
          body: Schema.String.annotations({ description: "The Markdown after the front matter." })
        }).annotations({ description: "The skill, parsed." })
      },
      handler: (input, { workspace }) =>
        Effect.gen(function* () {
          const { id } = yield* workspace
          const { skill, file } = yield* skills.read(id, input.skill)
          return { skill: { ...summary(skill), frontMatter: file.frontMatter, body: file.body } }
        })
    }),
    defineTool({
      name: "svc_export_skill",
      title: "Export skill",
      group: "Skills",
      write: false,
      annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: false },
      description:
        "Export a skill as its SKILL.md, byte for byte as imported, with the path to save it at (<name>/SKILL.md). Free. Import it elsewhere with svc_import_skill.",
      input: { skill: SkillRef },
      output: {
        id: Schema.String.annotations({ description: "Skill id (skill_…)." }),
        name: Schema.String.annotations({ description: "The skill's name." }),
        path: Schema.String.annotations({ description: "Where to save it: <name>/SKILL.md." }),
        text: Schema.String.annotations({ description: "The SKILL.md text, exactly as imported." })
      },
      handler: (input, { workspace }) =>
        Effect.gen(function* () {
          const { id } = yield* workspace
          const { skill, path } = yield* skills.exportFile(id, input.skill)
          return { id: skill.id, name: skill.name, path, text: skill.text }
        })
    }),
    defineTool({
      name: "svc_import_skill",
      title: "Import skill",
      group: "Skills",
      write: true,
      annotations: { destructiveHint: true, idempotentHint: false, openWorldHint: true },
      description:
        "Import an Agent Skill from SKILL.md text or a public URL (front matter with name and description, then Markdown); stored exactly as given and returned. Free. A name in use conflicts unless replace: true. List with svc_list_skills.",
      input: {
        text: Schema.optional(
          Schema.String.pipe(Schema.maxLength(SKILL_TEXT_MAX)).annotations({
            description: `SKILL.md text, ≤ ${SKILL_TEXT_MAX} chars. Or url.`
          })
        ),
        url: Schema.optional(
          Schema.String.pipe(Schema.maxLength(SKILL_URL_MAX)).annotations({
            description: "Public http(s) address of a raw SKILL.md."
          })
        ),
        replace: Schema.optional(Schema.Boolean.annotations({ description: "true: replace the skill of that name." }))
      },
      output: {
        skill: SkillRecord.annotations({ description: "The skill as it now is." }),
        replaced: Schema.Boolean.annotations({ description: "true when an existing skill's text was replaced." })
      },
      handler: (input, { workspace }) =>
        Effect.gen(function* () {
          const { id } = yield* workspace
          if (input.text === undefined && input.url === undefined) {
            return yield* invalid("text", "give text (the SKILL.md itself) or url (where to fetch it)")
          }
          if (input.text !== undefined && input.url !== undefined) {
            return yield* invalid("url", "give text or url, not both")
          }
          const source = input.text !== undefined ? { text: input.text } : { url: input.url ?? "" }
          const { skill, replaced } = yield* skills.importSkill(id, source, { replace: input.replace ?? false })
          return { skill: summary(skill), replaced }
        })
    })
  ]
})
