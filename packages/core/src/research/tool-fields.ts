import { Schema } from "effect"
import { RESEARCH_LIMITS } from "./limits.js"
import { ResearchPlatform, SourceReport } from "./schema.js"

/** The network a research tool is narrowed to. */
export const PlatformField = ResearchPlatform.annotations({ description: "Only this network; omit for all." })

/** How a person names a creator. */
export const CreatorRefField = Schema.String.pipe(
  Schema.minLength(1),
  Schema.maxLength(RESEARCH_LIMITS.queryCharacters)
).annotations({
  description: "Handle (alice.bsky.social, @name), profile/channel/publication URL, or name; ≤200 chars."
})

/** Search words. */
export const QueryField = Schema.String.pipe(
  Schema.minLength(1),
  Schema.maxLength(RESEARCH_LIMITS.queryCharacters)
).annotations({ description: "Search words, 1–200 chars." })

/** How many rows an answer may hold. */
export const RowsField = (what: string, fallback: number) =>
  Schema.Int.pipe(Schema.between(1, RESEARCH_LIMITS.rows)).annotations({
    description: `Most ${what}, 1–${RESEARCH_LIMITS.rows}; default ${fallback}.`
  })

/** What every research answer carries besides its value. */
export const sourcedOutput = {
  sources: Schema.Array(SourceReport).annotations({
    description: "Each source asked: status (ok, not-set-up, failed, rate-limited, not-supported), fetchedAt, detail."
  }),
  creditsCharged: Schema.Number.annotations({ description: "Credits this call cost (0 when free)." })
}

/** A list named by id or by name. */
export const listChoiceFields = {
  listId: Schema.optional(
    Schema.String.pipe(Schema.minLength(1), Schema.maxLength(100)).annotations({
      description: "List id (crl_… creators, brl_… brands); or give listName."
    })
  ),
  listName: Schema.optional(
    Schema.String.pipe(Schema.minLength(1), Schema.maxLength(RESEARCH_LIMITS.listNameCharacters)).annotations({
      description: "List name (case-insensitive), ≤100 chars; saving to a new name makes the list."
    })
  )
}
