import { Effect, Schema } from "effect"
import { invalid } from "../shared/errors.js"
import { defineTool } from "../tools/tool.js"
import { CreatorAnalysis, CreatorComparisonRow, RankedPostView } from "./analysis.js"
import { makeResearchCharging } from "./charging.js"
import { listChoiceOf } from "./list-tools.js"
import { ResearchPlatform, Creator } from "./schema.js"
import { FollowTier, ResearchStudies, type StudyKind, type StudySubject } from "./studies.js"
import {
  CreatorRefField,
  listChoiceFields,
  PlatformField,
  QueryField,
  RowsField,
  sourcedOutput
} from "./tool-fields.js"

const readOnly = { destructiveHint: false, idempotentHint: true, openWorldHint: true } as const

const TimeZoneField = Schema.String.pipe(Schema.minLength(1), Schema.maxLength(64)).annotations({
  description: 'IANA time zone to count weekdays and hours in, e.g. "America/New_York"; default UTC.'
})
const PostsField = Schema.Int.pipe(Schema.between(5, 100)).annotations({
  description: "Latest posts read per creator, 5–100; default 50."
})
const MinRatioField = Schema.Number.pipe(Schema.between(1, 100)).annotations({
  description: "Least engagement ÷ the creator's median a post needs, 1–100; default 2."
})

const Failed = Schema.Array(
  Schema.Struct({
    handle: Schema.String,
    platform: Schema.NullOr(ResearchPlatform),
    error: Schema.String
  })
).annotations({ description: "Creators of the list that could not be read, and why." })

const studyOutput = {
  posts: Schema.Array(RankedPostView).annotations({ description: "Best ratio first." }),
  creatorsStudied: Schema.Int.annotations({ description: "Creators whose posts were compared." }),
  failed: Failed,
  ...sourcedOutput
}

const studyInput = {
  topic: Schema.optional(QueryField.annotations({ description: "Topic words to search; or give a list." })),
  platform: Schema.optional(PlatformField),
  ...listChoiceFields,
  minRatio: Schema.optional(MinRatioField),
  limit: Schema.optional(RowsField("posts", 20))
}

/** The tools that study many posts: one creator analysed, whom they follow, lists compared, top titles and carousels. */
export const studyTools = Effect.gen(function* () {
  const studies = yield* ResearchStudies
  const { charged } = yield* makeResearchCharging

  const subjectOf = (input: {
    readonly topic?: string | undefined
    readonly platform?: ResearchPlatform | undefined
    readonly listId?: string | undefined
    readonly listName?: string | undefined
  }) =>
    input.topic !== undefined
      ? input.listId !== undefined || input.listName !== undefined
        ? Effect.fail(invalid("topic", "give topic or a list (listId or listName), not both"))
        : Effect.succeed<StudySubject>({ topic: input.topic, platform: input.platform })
      : input.listId === undefined && input.listName === undefined
        ? Effect.fail(invalid("topic", "give topic words, or a creator list (listId or listName)"))
        : Effect.map(listChoiceOf(input), (list): StudySubject => ({ list }))

  const studyTool = (kind: StudyKind) =>
    defineTool({
      name: kind === "titles" ? "svc_study_top_titles" : "svc_study_top_carousels",
      title: kind === "titles" ? "Study top titles" : "Study top carousels",
      group: kind === "titles" ? "Social intelligence" : "Media",
      write: false,
      annotations: readOnly,
      description:
        kind === "titles"
          ? "Find titles that beat their creator's own median engagement, for a topic or a creator list: each with its ratio. Posts without titles use their first line. 0.3 credits."
          : "Find carousels (several images) and documents that beat their creator's own median engagement, for a topic or a creator list, with the ratio. 0.3 credits.",
      input:
        kind === "titles"
          ? {
              ...studyInput,
              firstLineAsTitle: Schema.optional(
                Schema.Boolean.annotations({ description: "Use a post's first line as its title; default true." })
              )
            }
          : studyInput,
      output: studyOutput,
      handler: (input, { principal, workspace }) =>
        charged(
          kind === "titles" ? "svc_study_top_titles" : "svc_study_top_carousels",
          principal,
          Effect.gen(function* () {
            const { id } = yield* workspace
            const subject = yield* subjectOf(input)
            const found = yield* studies.study(id, kind, {
              subject,
              minRatio: input.minRatio ?? 2,
              limit: input.limit ?? 20,
              firstLineAsTitle: "firstLineAsTitle" in input ? input.firstLineAsTitle !== false : true
            })
            return { ...found.value, sources: found.sources }
          })
        )
    })

  return [
    defineTool({
      name: "svc_analyze_creator",
      title: "Analyze creator",
      group: "Social intelligence",
      write: false,
      annotations: readOnly,
      description:
        "Analyse a creator's latest posts: cadence by weekday and hour in timeZone, engagement median and spread, top posts vs their own median, formats, topics. 0.5 credits.",
      input: {
        creator: CreatorRefField,
        platform: Schema.optional(PlatformField),
        timeZone: Schema.optional(TimeZoneField),
        posts: Schema.optional(PostsField),
        top: Schema.optional(
          Schema.Int.pipe(Schema.between(1, 20)).annotations({ description: "Top posts shown, 1–20; default 5." })
        )
      },
      output: { analysis: CreatorAnalysis, ...sourcedOutput },
      handler: (input, { principal, workspace }) =>
        charged(
          "svc_analyze_creator",
          principal,
          Effect.gen(function* () {
            const { id } = yield* workspace
            const found = yield* studies.analyze(id, {
              creator: input.creator,
              platform: input.platform,
              timeZone: input.timeZone ?? "UTC",
              posts: input.posts ?? 50,
              top: input.top ?? 5
            })
            return { analysis: found.value, sources: found.sources }
          })
        )
    }),
    defineTool({
      name: "svc_following_overview",
      title: "Following overview",
      group: "Social intelligence",
      write: false,
      annotations: readOnly,
      description:
        "List whom a creator follows, grouped by audience size (mega ≥1M … nano <1k), biggest first. Networks that list follows: bluesky and the research provider's. 0.3 credits.",
      input: {
        creator: CreatorRefField,
        platform: Schema.optional(PlatformField),
        limit: Schema.optional(RowsField("followed accounts", 100))
      },
      output: {
        creator: Creator,
        total: Schema.Int.annotations({ description: "Followed accounts read." }),
        groups: Schema.Array(Schema.Struct({ tier: FollowTier, creators: Schema.Array(Creator) })).annotations({
          description: "Followed accounts by audience tier, biggest first; empty tiers left out."
        }),
        ...sourcedOutput
      },
      handler: (input, { principal, workspace }) =>
        charged(
          "svc_following_overview",
          principal,
          Effect.gen(function* () {
            const { id } = yield* workspace
            const found = yield* studies.following(id, { ...input, limit: input.limit ?? 100 })
            return { ...found.value, sources: found.sources }
          })
        )
    }),
    defineTool({
      name: "svc_analyze_list",
      title: "Analyze list",
      group: "Social intelligence",
      write: false,
      annotations: readOnly,
      description:
        "Compare the creators of a creator list side by side (first 20): followers, posting rate, median engagement, per 1k followers, top format, best post, with ranks. 0.5 credits.",
      input: {
        ...listChoiceFields,
        timeZone: Schema.optional(TimeZoneField),
        posts: Schema.optional(PostsField)
      },
      output: {
        list: Schema.Struct({ id: Schema.String, name: Schema.String, memberCount: Schema.Int }).annotations({
          description: "The list compared."
        }),
        rows: Schema.Array(CreatorComparisonRow).annotations({ description: "One row per creator read." }),
        analyses: Schema.Array(CreatorAnalysis).annotations({ description: "Each creator's full analysis." }),
        failed: Failed,
        skipped: Schema.Int.annotations({ description: "Creators past the first 20, not read." }),
        ...sourcedOutput
      },
      handler: (input, { principal, workspace }) =>
        charged(
          "svc_analyze_list",
          principal,
          Effect.gen(function* () {
            const { id } = yield* workspace
            const list = yield* listChoiceOf(input)
            const found = yield* studies.analyzeList(id, {
              list,
              timeZone: input.timeZone ?? "UTC",
              posts: input.posts ?? 50
            })
            const { list: stored, ...rest } = found.value
            return {
              list: { id: stored.id, name: stored.name, memberCount: stored.memberCount },
              ...rest,
              sources: found.sources
            }
          })
        )
    }),
    studyTool("titles"),
    studyTool("carousels")
  ]
})
