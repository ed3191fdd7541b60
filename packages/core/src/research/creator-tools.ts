import { Effect, Schema } from "effect"
import { defineTool } from "../tools/tool.js"
import { makeResearchCharging } from "./charging.js"
import { RESEARCH_PLATFORMS, Creator, SocialPost } from "./schema.js"
import { Research } from "./service.js"
import { CreatorRefField, PlatformField, QueryField, RowsField, sourcedOutput } from "./tool-fields.js"

const readOnly = { destructiveHint: false, idempotentHint: true, openWorldHint: true } as const

const ScopeField = Schema.Literal("library", "global", ...RESEARCH_PLATFORMS).annotations({
  description:
    "Where to look: library (this workspace's saved posts and links; free), global (every configured source and the library), or one network (bluesky, youtube, …)."
})

/** Research tools about creators and posts: find, resolve, read, search. */
export const creatorTools = Effect.gen(function* () {
  const research = yield* Research
  const { charged } = yield* makeResearchCharging

  return [
    defineTool({
      name: "svc_search_creators",
      title: "Search creators",
      group: "Social intelligence",
      write: false,
      annotations: readOnly,
      description:
        "Find creators by name or topic words on the configured networks and among authors saved in the library. Returns creators with follower counts and the sources asked. 0.2 credits.",
      input: {
        query: QueryField,
        platform: Schema.optional(PlatformField),
        limit: Schema.optional(RowsField("creators", 20))
      },
      output: {
        creators: Schema.Array(Creator).annotations({
          description: "Creators found, the sources' answers interleaved."
        }),
        ...sourcedOutput
      },
      handler: (input, { principal, workspace }) =>
        charged(
          "svc_search_creators",
          principal,
          Effect.gen(function* () {
            const { id } = yield* workspace
            const found = yield* research.searchCreators(id, { ...input, limit: input.limit ?? 20 })
            return { creators: found.value, sources: found.sources }
          })
        )
    }),
    defineTool({
      name: "svc_resolve_creator",
      title: "Resolve creator",
      group: "Social intelligence",
      write: false,
      annotations: readOnly,
      description:
        "Turn a handle, profile URL or name into one creator per network (id, handle, followers). not-found names the networks searched. 0.1 credits.",
      input: { creator: CreatorRefField, platform: Schema.optional(PlatformField) },
      output: {
        creator: Creator.annotations({ description: "The best match (the named network's, else the first)." }),
        creators: Schema.Array(Creator).annotations({ description: "One match per network." }),
        ...sourcedOutput
      },
      handler: (input, { principal, workspace }) =>
        charged(
          "svc_resolve_creator",
          principal,
          Effect.gen(function* () {
            const { id } = yield* workspace
            const found = yield* research.resolveCreator(id, input.creator, input.platform)
            return { creator: found.value[0] as Creator, creators: found.value, sources: found.sources }
          })
        )
    }),
    defineTool({
      name: "svc_read_social_post",
      title: "Read social post",
      group: "Social intelligence",
      write: false,
      aliases: [{ name: "svc_read_card", title: "Read card" }],
      annotations: readOnly,
      description:
        "Read one post, video or article by URL, network id (at:// URI, video id) or saved item id: text, title, format, engagement. 0.1 credits.",
      input: {
        post: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(2_000)).annotations({
          description: "Post URL, network id, or library item id (post_…, link_…)."
        })
      },
      output: { post: SocialPost, ...sourcedOutput },
      handler: (input, { principal, workspace }) =>
        charged(
          "svc_read_social_post",
          principal,
          Effect.gen(function* () {
            const { id } = yield* workspace
            const found = yield* research.readPost(id, input.post.trim())
            return { post: found.value, sources: found.sources }
          })
        )
    }),
    defineTool({
      name: "svc_search_social_content",
      title: "Search social content",
      group: "Social intelligence",
      write: false,
      annotations: readOnly,
      description:
        "Search posts by words: in the workspace's saved posts and links (scope library, free), on one network, or everywhere (global). Returns posts with engagement where the network gives it. 0.2 credits unless scope is library.",
      input: {
        scope: ScopeField,
        query: QueryField,
        limit: Schema.optional(RowsField("posts", 25))
      },
      output: {
        posts: Schema.Array(SocialPost).annotations({ description: "Posts found, the sources' answers interleaved." }),
        ...sourcedOutput
      },
      handler: (input, { principal, workspace }) => {
        const work = Effect.gen(function* () {
          const { id } = yield* workspace
          const found = yield* research.searchPosts(id, { ...input, limit: input.limit ?? 25 })
          return { posts: found.value, sources: found.sources }
        })
        // The own library is free to read: only a search that reaches outside is charged.
        return input.scope === "library"
          ? Effect.map(work, (answer) => ({ ...answer, creditsCharged: 0 }))
          : charged("svc_search_social_content", principal, work)
      }
    })
  ]
})
