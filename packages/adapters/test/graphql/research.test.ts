/**
 * Research on the GraphQL face over the real endpoint: `workspace { creator socialPost researchList }` answer what the
 * tools answer (a scripted outside source stands in for a network), the lists change through the tool mutations, and
 * a list of another workspace is NOT_FOUND.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Creator, type SocialSource, SocialSources, SocialPost } from "@svc/core/research"
import { Effect, Layer, Option } from "effect"
import { TestApp } from "../support/app.js"
import { engineName } from "../support/database.js"
import { graphqlClient, mutate, postGraphql, request } from "./support.js"

const ada = new Creator({
  platform: "bluesky",
  id: "did:plc:ada",
  handle: "ada.test",
  name: "Ada",
  bio: "Gardens",
  url: "https://bsky.app/profile/ada.test",
  avatarUrl: null,
  followers: 120,
  following: 4,
  posts: 1,
  source: "scripted"
})
const post = new SocialPost({
  platform: "bluesky",
  id: "at://did:plc:ada/app.bsky.feed.post/1",
  url: "https://bsky.app/profile/ada.test/post/1",
  author: { handle: "ada.test", name: "Ada" },
  title: null,
  text: "Tomatoes",
  format: "text",
  mediaCount: 0,
  createdAt: new Date("2026-11-01T10:00:00Z"),
  metrics: { likes: 3, replies: 1, reposts: null, quotes: null, views: null },
  source: "scripted"
})
const scripted: SocialSource = {
  name: "scripted",
  platforms: ["bluesky"],
  missingSetting: null,
  creators: {
    resolve: (ref) => Effect.succeed(ref.text === "ada.test" ? Option.some(ada) : Option.none()),
    search: () => Effect.succeed([ada])
  },
  posts: {
    ofCreator: () => Effect.succeed([post]),
    read: (ref) => Effect.succeed(ref.text === post.url ? Option.some(post) : Option.none())
  }
}
const ports = Layer.succeed(SocialSources, [scripted])

layer(TestApp.layerWith({}, { ports }), { timeout: "120 seconds", excludeTestServices: true })(
  `GraphQL research (${engineName})`,
  (it) => {
    describe("workspace { creator socialPost researchList }", () => {
      it.effect("reads a creator and a post, keeps a list by mutation and reads it back", () =>
        Effect.gen(function* () {
          const { url, signUp } = yield* TestApp
          const { token } = yield* signUp({})
          const client = graphqlClient(url, token)
          const read = yield* request<{
            workspace: {
              creator: { handle: string; followers: number; source: string }
              socialPost: { text: string; metrics: { likes: number; reposts: number | null } }
            }
          }>(
            client,
            `query { workspace {
               creator(creator: "ada.test") { handle followers source }
               socialPost(post: "https://bsky.app/profile/ada.test/post/1") { text metrics { likes reposts } }
             } }`
          )
          expect(read.workspace.creator).toEqual({ handle: "ada.test", followers: 120, source: "scripted" })
          expect(read.workspace.socialPost).toEqual({ text: "Tomatoes", metrics: { likes: 3, reposts: null } })

          const saved = yield* mutate(
            client,
            "saveCreatorsToList",
            { listName: "Growers", creators: [{ platform: "bluesky", handle: "ada.test" }] },
            "... on SaveCreatorsToListPayload { added list { id name memberCount } }"
          )
          expect(saved).toMatchObject({ added: 1, list: { name: "Growers", memberCount: 1 } })
          const listId = (saved.list as { id: string }).id
          const list = yield* request<{
            workspace: {
              byId: { name: string; members: Array<{ handle: string; id: string }> }
              byName: { id: string }
            }
          }>(
            client,
            `query($id: String) { workspace {
               byId: researchList(id: $id) { name members { handle id } }
               byName: researchList(name: "growers") { id }
             } }`,
            { id: listId }
          )
          expect(list.workspace.byId).toEqual({ name: "Growers", members: [{ handle: "ada.test", id: "did:plc:ada" }] })
          expect(list.workspace.byName.id).toBe(listId)

          // No post went out yet: the analytics connection is empty, and takes the tool's sort.
          const analytics = yield* request<{
            workspace: { analyticsPosts: { nodes: Array<unknown>; pageInfo: { hasNextPage: boolean } } }
          }>(
            client,
            `query { workspace { analyticsPosts(first: 5, sort: likes) { nodes { postId } pageInfo { hasNextPage } } } }`
          )
          expect(analytics.workspace.analyticsPosts).toEqual({ nodes: [], pageInfo: { hasNextPage: false } })

          const other = yield* signUp({})
          const refused = yield* Effect.promise(() =>
            postGraphql(url, other.token, {
              query: `query($id: String) { workspace { researchList(id: $id) { name } } }`,
              variables: { id: listId }
            })
          )
          expect(refused.body.errors?.[0]?.extensions).toMatchObject({ code: "NOT_FOUND" })
        })
      )
    })
  }
)
