import { Effect, Schema } from "effect"
import { invalid } from "../shared/errors.js"
import { Timestamp } from "../shared/time.js"
import { defineTool } from "../tools/tool.js"
import { RESEARCH_LIMITS } from "./limits.js"
import { type ListChoice, type ListWithMembers, ResearchLists, type NewMember } from "./lists.js"
import { ResearchPlatform } from "./schema.js"
import { Research } from "./service.js"
import { CreatorRefField, listChoiceFields } from "./tool-fields.js"

const ListRecord = Schema.Struct({
  id: Schema.String.annotations({ description: "List id (crl_… creators, brl_… brands)." }),
  kind: Schema.Literal("creators", "brands"),
  name: Schema.String,
  memberCount: Schema.Int,
  createdAt: Timestamp,
  updatedAt: Timestamp
})

const MemberRecord = Schema.Struct({
  platform: Schema.NullOr(ResearchPlatform).annotations({ description: "Network of a creator; null for a brand." }),
  id: Schema.String.annotations({ description: "The network's creator id, or the ad library's brand (page) id." }),
  handle: Schema.String,
  name: Schema.String,
  url: Schema.NullOr(Schema.String),
  addedAt: Timestamp
})

/** A list and its members as the list tools answer them. */
export const listRecord = ({ list, members }: ListWithMembers) => ({
  list: {
    id: list.id,
    kind: list.kind,
    name: list.name,
    memberCount: list.memberCount,
    createdAt: list.createdAt,
    updatedAt: list.updatedAt
  },
  members: members.map((m) => ({
    platform: m.platform,
    id: m.key,
    handle: m.handle,
    name: m.name,
    url: m.url,
    addedAt: m.addedAt
  }))
})

const listOutput = {
  list: ListRecord.annotations({ description: "The list as it now is." }),
  members: Schema.Array(MemberRecord).annotations({ description: "Every member, in the order added." })
}

/** The list a tool input names: `listId`, else `listName`; `invalid` when it names neither. */
export const listChoiceOf = (input: {
  readonly listId?: string | undefined
  readonly listName?: string | undefined
}) =>
  input.listId !== undefined
    ? Effect.succeed<ListChoice>({ listId: input.listId })
    : input.listName !== undefined && input.listName.trim() !== ""
      ? Effect.succeed<ListChoice>({ listName: input.listName })
      : Effect.fail(invalid("listId", "give listId (an existing list) or listName"))

const write = { destructiveHint: false, idempotentHint: true, openWorldHint: true } as const

/** The tools that keep research lists: creators to compare, brands whose ads to watch. */
export const listTools = Effect.gen(function* () {
  const lists = yield* ResearchLists
  const research = yield* Research

  /** A creator named in a save: taken as given when its id is known, else looked up on its network. */
  const creatorMember = (
    workspaceId: string,
    entry: {
      readonly platform: ResearchPlatform
      readonly handle: string
      readonly id?: string | undefined
      readonly name?: string | undefined
      readonly url?: string | undefined
    }
  ) =>
    entry.id !== undefined
      ? Effect.succeed<NewMember>({
          platform: entry.platform,
          key: entry.id,
          handle: entry.handle.replace(/^@/, ""),
          name: entry.name ?? entry.handle,
          url: entry.url ?? null
        })
      : Effect.map(research.resolveCreator(workspaceId, entry.handle, entry.platform), (found) => {
          const creator = found.value[0]
          return {
            platform: entry.platform,
            key: creator?.id ?? entry.handle,
            handle: creator?.handle ?? entry.handle,
            name: entry.name ?? creator?.name ?? entry.handle,
            url: entry.url ?? creator?.url ?? null
          } satisfies NewMember
        })

  return [
    defineTool({
      name: "svc_save_creators_to_list",
      title: "Save creators to list",
      group: "Social intelligence",
      write: true,
      annotations: write,
      description:
        "Add creators to a creator list (made when listName is new) to compare with svc_analyze_list. Creators without id are looked up on their network. Returns the list. Free.",
      input: {
        ...listChoiceFields,
        creators: Schema.Array(
          Schema.Struct({
            platform: ResearchPlatform.annotations({ description: "The creator's network." }),
            handle: CreatorRefField,
            id: Schema.optional(
              Schema.String.pipe(Schema.minLength(1), Schema.maxLength(500)).annotations({
                description: "The network's id from svc_resolve_creator; skips the lookup."
              })
            ),
            name: Schema.optional(Schema.String.pipe(Schema.maxLength(200))),
            url: Schema.optional(Schema.String.pipe(Schema.maxLength(2_000)))
          }).annotations({ parseOptions: { onExcessProperty: "ignore" } })
        )
          .pipe(Schema.minItems(1), Schema.maxItems(RESEARCH_LIMITS.perCall))
          .annotations({ description: "1–50 creators; svc_resolve_creator's creators may be passed as they are." })
      },
      output: { ...listOutput, added: Schema.Int.annotations({ description: "Creators new to the list." }) },
      handler: (input, { workspace }) =>
        Effect.gen(function* () {
          const { id } = yield* workspace
          const choice = yield* listChoiceOf(input)
          const members = yield* Effect.forEach(input.creators, (entry) => creatorMember(id, entry), {
            concurrency: RESEARCH_LIMITS.concurrency
          })
          const saved = yield* lists.add(id, "creators", choice, members)
          return { ...listRecord(saved), added: saved.added }
        })
    }),
    defineTool({
      name: "svc_save_brands_to_list",
      title: "Save brands to list",
      group: "Social intelligence",
      write: true,
      annotations: write,
      description:
        "Add brands (advertisers) to a brand list (made when listName is new) to watch with svc_get_brand_list_ads. Brands without id are looked up in the ad library. Returns the list. Free.",
      input: {
        ...listChoiceFields,
        brands: Schema.Array(
          Schema.Struct({
            name: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(200)).annotations({
              description: "Brand name, page URL or page id."
            }),
            id: Schema.optional(
              Schema.String.pipe(Schema.minLength(1), Schema.maxLength(100)).annotations({
                description: "The ad library's page id (from svc_search_ads); skips the lookup."
              })
            )
          }).annotations({ parseOptions: { onExcessProperty: "ignore" } })
        )
          .pipe(Schema.minItems(1), Schema.maxItems(RESEARCH_LIMITS.perCall))
          .annotations({ description: "1–50 brands; svc_search_ads' brand objects may be passed as they are." })
      },
      output: { ...listOutput, added: Schema.Int.annotations({ description: "Brands new to the list." }) },
      handler: (input, { workspace }) =>
        Effect.gen(function* () {
          const { id } = yield* workspace
          const choice = yield* listChoiceOf(input)
          const members = yield* Effect.forEach(
            input.brands,
            (brand) =>
              brand.id !== undefined
                ? Effect.succeed<NewMember>({
                    platform: null,
                    key: brand.id,
                    handle: brand.name,
                    name: brand.name,
                    url: null
                  })
                : Effect.map(
                    research.resolveBrand(brand.name),
                    (found): NewMember => ({
                      platform: null,
                      key: found.value.brand.id,
                      handle: found.value.brand.name,
                      name: found.value.brand.name,
                      url: null
                    })
                  ),
            { concurrency: RESEARCH_LIMITS.concurrency }
          )
          const saved = yield* lists.add(id, "brands", choice, members)
          return { ...listRecord(saved), added: saved.added }
        })
    }),
    defineTool({
      name: "svc_remove_brands_from_list",
      title: "Remove brands from list",
      group: "Social intelligence",
      write: true,
      annotations: { destructiveHint: true, idempotentHint: true, openWorldHint: false },
      description: "Remove brands from a brand list by their ids. Returns the list as it now is. Free.",
      input: {
        ...listChoiceFields,
        brandIds: Schema.Array(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(100)))
          .pipe(Schema.minItems(1), Schema.maxItems(RESEARCH_LIMITS.perCall))
          .annotations({ description: "1–50 brand ids as the list shows them." })
      },
      output: {
        ...listOutput,
        removed: Schema.Int.annotations({ description: "Brands taken off." }),
        notOnList: Schema.Array(Schema.String).annotations({ description: "Ids given that were not on the list." })
      },
      handler: (input, { workspace }) =>
        Effect.gen(function* () {
          const { id } = yield* workspace
          const choice = yield* listChoiceOf(input)
          const before = yield* lists.read(id, "brands", choice)
          const present = new Set(before.members.map((m) => m.key))
          const done = yield* lists.remove(
            id,
            "brands",
            choice,
            input.brandIds.map((key) => ({ platform: null, key }))
          )
          return {
            ...listRecord(done),
            removed: done.removed,
            notOnList: input.brandIds.filter((key) => !present.has(key))
          }
        })
    })
  ]
})
