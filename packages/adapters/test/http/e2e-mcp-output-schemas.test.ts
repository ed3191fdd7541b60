/**
 * The compact `outputSchema`s of `tools/list` against real answers, through the official MCP SDK client: it checks
 * every `structuredContent` against the listed `outputSchema` (and throws when one does not match), on successes
 * and on failures alike. Every served tool is called once to success, and once to an `invalid` failure.
 */
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import { describe, expect, layer } from "@effect/vitest"
import { EngagementInboxesLive } from "@svc/core/auto-dm"
import { CustomAis } from "@svc/core/custom-ai"
import { Ad, Brand, Creator, SocialPost, type SocialSource, SocialSources } from "@svc/core/research"
import { type PlatformPublisher, Scheduling, SchedulingPortsLive } from "@svc/core/scheduling"
import { StoreSetup } from "@svc/core/store"
import { Effect, Layer, Option } from "effect"
import { SqlPortsLive } from "../../src/sql/layers.js"
import { TestApp } from "../support/app.js"
import { TEST_PUBLIC_BASE } from "../support/core.js"
import { connectMcpClient } from "../support/mcp-client.js"
import { png } from "../media/fixtures.js"

const connect = (url: string, token: string) => connectMcpClient(url, token, "svc-output-schemas")

/** A loopback server answering any path with `bytes`; closed with the scope. Answers its base URL. */
const servingFile = (bytes: Uint8Array) =>
  Effect.map(
    Effect.acquireRelease(
      Effect.promise(
        () =>
          new Promise<http.Server>((done) => {
            const server = http.createServer((_request, response) => response.end(bytes))
            server.listen(0, "127.0.0.1", () => done(server))
          })
      ),
      (server) => Effect.promise(() => new Promise<void>((done) => server.close(() => done())))
    ),
    (server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  )

// Stand-ins for the outside networks, so that every tool has a success to answer: a research source with one
// creator, one post and one ad; a Bluesky that takes connections; an inbox with nothing new.
const ada = new Creator({
  platform: "bluesky",
  id: "did:plc:ada",
  handle: "ada.test",
  name: "Ada",
  bio: null,
  url: "https://bsky.app/profile/ada.test",
  avatarUrl: null,
  followers: 1200,
  following: 1,
  posts: 1,
  source: "stand-in"
})
const adaPost = new SocialPost({
  platform: "bluesky",
  id: "at://did:plc:ada/app.bsky.feed.post/1",
  url: "https://bsky.app/profile/ada.test/post/1",
  author: { handle: "ada.test", name: "Ada" },
  title: null,
  text: "Tomatoes in winter",
  format: "carousel",
  mediaCount: 3,
  createdAt: new Date("2026-11-01T10:00:00Z"),
  metrics: { likes: 4, replies: 1, reposts: 0, quotes: 0, views: null },
  source: "stand-in"
})
const acme = new Brand({ id: "111", name: "Acme" })
const acmeAd = new Ad({
  id: "ad1",
  brand: acme,
  title: null,
  text: "Garden tools",
  startedAt: null,
  endedAt: null,
  active: true,
  placements: ["facebook"],
  url: null,
  source: "stand-in"
})
const standIn: SocialSource = {
  name: "stand-in",
  platforms: ["bluesky"],
  missingSetting: null,
  creators: {
    resolve: (ref) => Effect.succeed(ref.text === "ada.test" ? Option.some(ada) : Option.none()),
    search: () => Effect.succeed([ada])
  },
  posts: {
    ofCreator: () => Effect.succeed([adaPost]),
    read: (ref) => Effect.succeed(ref.text === adaPost.url ? Option.some(adaPost) : Option.none())
  },
  search: { posts: () => Effect.succeed([adaPost]) },
  follows: { of: () => Effect.succeed([ada]) },
  ads: {
    search: () => Effect.succeed([acmeAd]),
    resolveBrand: () => Effect.succeed(Option.some(acme)),
    ofBrand: () => Effect.succeed([acmeAd])
  }
}
const bluesky: PlatformPublisher = {
  platform: "bluesky",
  verify: (_serviceUrl, credentials) =>
    Effect.succeed({ handle: "me.test", displayName: null, serviceUrl: "https://pds.test", credentials }),
  publish: () => Effect.succeed({ remoteId: "at://did:plc:me/app.bsky.feed.post/1", url: "https://bsky.test/1" }),
  findPublished: () => Effect.succeedNone
}
const ports = Layer.mergeAll(
  SchedulingPortsLive(TEST_PUBLIC_BASE, [bluesky]),
  EngagementInboxesLive([
    {
      platform: "bluesky",
      readNew: (_account, cursor) => Effect.succeed({ items: [], cursor }),
      send: () => Effect.succeed({ remoteId: "m1", channel: "reply" as const }),
      findSent: () => Effect.succeedNone
    }
  ]),
  Layer.succeed(SocialSources, [standIn])
).pipe(Layer.provide(SqlPortsLive))

type Answer = Readonly<Record<string, unknown>>
type Record1<K extends string> = { readonly [key in K]: { readonly id: string } }

layer(TestApp.layerWith({}, { ports }), { timeout: "120 seconds", excludeTestServices: true })((it) => {
  describe("outputSchema as the official SDK client checks it", () => {
    it.scoped(
      "every served tool answers a success and an invalid failure that pass the SDK's check",
      () =>
        Effect.gen(function* () {
          const app = yield* TestApp
          const user = yield* app.signUp()
          const client = yield* connect(app.url, user.token)
          // Listing caches each tool's output validator: from here on every call is checked against its schema.
          const { tools } = yield* Effect.promise(() => client.listTools())
          const succeeded = new Set<string>()
          const okWith =
            (caller: typeof client) =>
            <A = Answer>(name: string, args: Record<string, unknown>) =>
              Effect.promise(async () => {
                const result = await caller.callTool({ name, arguments: args })
                expect(result.isError, `${name}: ${JSON.stringify(result.structuredContent)}`).toBeUndefined()
                expect(result.structuredContent).toMatchObject({ ok: true })
                succeeded.add(name)
                return result.structuredContent as A
              })
          const ok = okWith(client)

          // Workspace reads.
          yield* ok("svc_list_workspaces", {})
          const { note } = yield* ok<Record1<"note">>("svc_create_note", {
            title: "Plan",
            markdown: "# Launch\n\nShip it."
          })
          yield* ok("svc_create_sticky_note", { markdown: "A sticky thought." })
          yield* ok("svc_get_note_markdown", { noteId: note.id })
          yield* ok("svc_append_to_note", { noteId: note.id, markdown: "Then celebrate." })
          yield* ok("svc_patch_note", { noteId: note.id, edits: [{ find: "Ship it.", replace: "Ship it today." }] })
          yield* ok("svc_update_note", { noteId: note.id, markdown: "# Launch\n\nShipped." })
          yield* ok("svc_rename_note", { noteId: note.id, title: "Launch plan" })
          yield* ok("svc_set_item_note", { itemId: note.id, note: "The plan of record." })
          yield* ok("svc_list_workspace_items", { limit: 1 })
          yield* ok("svc_find_workspace_items", { title: "Launch plan" })
          yield* ok("svc_search_workspace_items", { query: "launch" })
          yield* ok("svc_list_chats", {})

          // Boards, connections and tags.
          const { board } = yield* ok<Record1<"board">>("svc_create_board", { title: "Launch" })
          yield* ok("svc_rename_board", { boardId: board.id, title: "Launch week" })
          const { table } = yield* ok<Record1<"table">>("svc_create_table", {
            title: "Tasks",
            columns: [
              { name: "Task", type: "text" },
              { name: "Done", type: "boolean" }
            ],
            rows: [{ Task: "Write the post", Done: false }]
          })
          const added = yield* ok<{ rows: ReadonlyArray<{ id: string }> }>("svc_add_table_rows", {
            tableId: table.id,
            rows: [{ Task: "Send it" }]
          })
          const rowId = added.rows[0]?.id ?? ""
          yield* ok("svc_update_table_rows", { tableId: table.id, rows: [{ rowId, cells: { Done: true } }] })
          yield* ok("svc_update_table", { tableId: table.id, renameColumns: [{ column: "Task", name: "What" }] })
          yield* ok("svc_read_table", { tableId: table.id })
          yield* ok("svc_save_items_to_board", {
            boardId: board.id,
            items: [{ itemId: note.id }, { itemId: table.id }]
          })
          yield* ok("svc_connect_items", {
            fromItemId: note.id,
            toItemId: table.id,
            label: "tracks",
            boardId: board.id
          })
          yield* ok("svc_read_board", { boardId: board.id })
          yield* ok("svc_get_connections", { itemId: note.id })
          yield* ok("svc_update_item_tags", { itemIds: [note.id, table.id], add: ["launch"] })
          yield* ok("svc_list_tags", {})

          // Library saves, captures and highlights.
          yield* ok("svc_save_links_to_board", {
            links: [{ url: "https://example.com/launch", text: "How we launch.", highlights: ["launch day"] }],
            boardId: board.id
          })
          yield* ok("svc_save_posts_to_board", {
            posts: [{ url: "https://x.com/ada/status/123", text: "Launch day is here" }],
            boardId: board.id
          })
          yield* ok("svc_save_posts_to_library", {
            posts: [{ platform: "linkedin", postId: "777", author: "Ada", text: "We launched" }]
          })
          yield* ok("svc_save_ads_to_board", {
            ads: [{ platform: "facebook", adId: "555", brand: "Acme", text: "Buy" }]
          })
          const { media } = yield* ok<Record1<"media">>("svc_add_media_to_board", {
            url: "https://example.com/cat.png"
          })
          yield* ok("svc_read_media_card", { mediaId: media.id })
          yield* ok("svc_search_highlights", { query: "launch" })
          yield* ok("svc_search_captures", {})

          // The store: two Custom AIs' products, a bundle of both sold and refunded, customers, a cohort, a link.
          const [firstAi = "", secondAi = ""] = yield* app.setUp(
            Effect.gen(function* () {
              yield* (yield* StoreSetup).set(user.workspace.id, {
                supportEmail: "help@example.com",
                cardProcessor: "connected"
              })
              const customAis = yield* CustomAis
              return yield* Effect.forEach(["Coach", "Editor"], (name) =>
                Effect.map(customAis.create(user.workspace.id, { name }), (created) => created.id)
              )
            }).pipe(Effect.orDie)
          )
          yield* ok("svc_list_stores", {})
          const { product } = yield* ok<Record1<"product">>("svc_save_custom_ai_product", {
            customAIId: firstAi,
            fields: { price_cents: 1900 }
          })
          yield* ok("svc_publish_custom_ai_product", { customAIId: firstAi, live: true })
          yield* ok("svc_get_custom_ai_product", { customAIId: firstAi })
          const second = (yield* ok<Record1<"product">>("svc_save_custom_ai_product", { customAIId: secondAi })).product
          yield* ok("svc_publish_custom_ai_product", { customAIId: secondAi, live: true })
          const { bundle } = yield* ok<Record1<"bundle">>("svc_save_bundle", {
            productIds: [product.id, second.id],
            fields: { title: "Both", price_cents: 2900 },
            status: "live"
          })
          yield* ok("svc_get_bundle", { bundleId: bundle.id })
          const sale = { event: "sale", productId: bundle.id, email: "ada@example.com", orderId: "order-1" }
          yield* ok("svc_manage_sales", { action: "record", ...sale })
          const { sales } = yield* ok<{ sales: ReadonlyArray<{ id: string }> }>("svc_manage_sales", { action: "list" })
          yield* ok("svc_manage_sales", { action: "get", saleId: sales[0]?.id })
          yield* ok("svc_manage_sales", { action: "refund", saleId: sales[0]?.id })
          const code = { action: "create_code", productId: product.id, kind: "percent", value: 20, code: "LAUNCH-20" }
          const { discountCode } = yield* ok<Record1<"discountCode">>("svc_manage_sales", code)
          yield* ok("svc_manage_sales", { action: "list_codes", productId: product.id })
          yield* ok("svc_manage_sales", { action: "get_code", codeId: "launch-20" })
          yield* ok("svc_manage_sales", { action: "disable_code", codeId: discountCode.id })
          yield* ok("svc_manage_sales", { action: "list_questions" })
          yield* ok("svc_manage_lesson_questions", { action: "list", status: "open" })
          yield* ok("svc_manage_affiliates", {
            action: "program",
            productId: product.id,
            commissionKind: "percent",
            commissionValue: 20
          })
          const { affiliate } = yield* ok<{ affiliate: { affiliate_id: string } }>("svc_manage_affiliates", {
            action: "add",
            productId: product.id,
            email: "partner@example.com"
          })
          yield* ok("svc_manage_affiliates", { action: "list", productId: product.id })
          yield* ok("svc_manage_affiliates", {
            action: "payouts",
            affiliateId: affiliate.affiliate_id,
            month: "2026-11"
          })
          yield* ok("svc_manage_affiliates", { action: "remove", affiliateId: affiliate.affiliate_id })
          yield* ok("svc_import_product_reviews", {
            productId: product.id,
            reviews: [{ text: "Clear and kind.", name: "Ada", rating: 5 }]
          })
          const { reviews } = yield* ok<{ reviews: ReadonlyArray<{ id: string }> }>("svc_manage_sales", {
            action: "list_reviews",
            productId: product.id
          })
          yield* ok("svc_manage_sales", { action: "hide_review", reviewId: reviews[0]?.id })
          yield* ok("svc_manage_sales", { action: "show_review", reviewId: reviews[0]?.id })
          yield* ok("svc_update_creator_page", {
            headline: "I teach writing",
            links: [{ label: "Blog", url: "https://example.com" }],
            featuredProductIds: [product.id]
          })
          yield* ok("svc_manage_customer_access", { action: "grant", productId: product.id, email: "bo@example.com" })
          yield* ok("svc_import_customers", {
            rows: [{ email: "cy@example.com", productId: product.id, tags: ["vip"] }]
          })
          yield* ok("svc_list_customers", {})
          yield* ok("svc_get_customer", { email: "bo@example.com" })
          const { cohort } = yield* ok<Record1<"cohort">>("svc_manage_cohorts", {
            action: "create",
            productId: product.id,
            name: "Spring"
          })
          yield* ok("svc_manage_cohorts", {
            action: "move",
            productId: product.id,
            email: "bo@example.com",
            cohortId: cohort.id
          })
          yield* ok("svc_manage_content_links", {
            action: "add",
            productId: product.id,
            title: "Workbook",
            url: "https://example.com/workbook"
          })
          yield* ok("svc_manage_store_emails", { action: "add_contact", email: "di@example.com", tags: ["Lead"] })
          yield* ok("svc_manage_store_emails", {
            action: "create_sequence",
            name: "Welcome",
            steps: [{ delayMinutes: 0, subject: "Hi", body: "Welcome." }],
            tags: ["Lead"]
          })
          yield* ok("svc_manage_store_emails", { action: "list_sequences" })
          const { form } = yield* ok<Record1<"form">>("svc_manage_forms", {
            action: "create",
            title: "Apply",
            review: true
          })
          yield* ok("svc_manage_forms", { action: "list" })
          yield* ok("svc_manage_forms", { action: "applications", formId: form.id })
          yield* ok("svc_get_seller_overview", {})

          // Custom AIs: the record, its knowledge, asking it (extractive: no model in tests), and skills.
          yield* ok("svc_get_custom_ai_builder_guide", {})
          const { customAI } = yield* ok<{ customAI: { id: string } }>("svc_create_custom_ai", {
            name: "Launch helper",
            instructions: "Answer from the launch notes."
          })
          yield* ok("svc_update_custom_ai", { customAIId: customAI.id, description: "Knows the launch plan." })
          yield* ok("svc_list_custom_ai", {})
          yield* ok("svc_get_custom_ai", { customAIId: customAI.id })
          const { sources } = yield* ok<{ sources: ReadonlyArray<{ id: string }> }>("svc_manage_custom_ai_sources", {
            customAIId: customAI.id,
            action: "add",
            kind: "text",
            title: "Launch notes",
            text: "We launch on Tuesday. The launch email goes out at nine."
          })
          const sourceId = sources[0]?.id ?? ""
          yield* ok("svc_read_custom_ai_knowledge", { customAIId: customAI.id, sourceId })
          yield* ok("svc_search_custom_ai_knowledge", { customAIId: customAI.id, query: "launch email" })
          yield* ok("svc_organize_custom_ai_knowledge", {
            customAIId: customAI.id,
            changes: [{ sourceId, folder: "Launch" }]
          })
          const asked = yield* ok<{ chatId: string }>("svc_ask_custom_ai", {
            customAIId: customAI.id,
            message: "When does the launch email go out?"
          })
          yield* ok("svc_get_custom_ai_answer", { chatId: asked.chatId })
          // Routines: made, paused and listed here; their runs are the routine worker's (routines.test.ts).
          const { routine } = yield* ok<{ routine: { id: string } }>("svc_create_routine", {
            customAIId: customAI.id,
            name: "Launch check",
            message: "What is left before the launch?",
            cron: "0 9 * * 1-5",
            timeZone: "Europe/Berlin"
          })
          yield* ok("svc_update_routine", { routineId: routine.id, enabled: false })
          yield* ok("svc_list_routines", {})
          yield* ok("svc_delete_custom_ai", { customAIId: customAI.id })
          const skillText = "---\nname: launch-checklist\ndescription: Walks through a launch.\n---\n# Launch\n"
          const { skill } = yield* ok<{ skill: { id: string } }>("svc_import_skill", { text: skillText })
          yield* ok("svc_list_skills", {})
          yield* ok("svc_get_skill", { skill: skill.id })
          yield* ok("svc_export_skill", { skill: skill.id })

          // Media: inline, imported from a URL, and the upload URLs (their PUTs are in server/test/media-upload.test.ts).
          const image = yield* Effect.promise(() => png(16, 16))
          yield* ok("svc_upload_scheduling_media", { data: Buffer.from(image).toString("base64"), fileName: "dot.png" })
          const site = yield* servingFile(image)
          yield* ok("svc_import_scheduling_media", { url: `${site}/dot.png` })
          yield* ok("svc_prepare_scheduling_media_upload", { fileName: "clip.mp4" })
          const parts = yield* ok<{ upload: { uploadId: string } }>("svc_scheduling_media_multipart", {
            action: "start",
            bytes: 1000
          })
          yield* ok("svc_scheduling_media_multipart", { action: "abort", uploadId: parts.upload.uploadId })

          // Scheduling: a schedule, a post with the uploaded image (scheduled, changed, published now, listed), a draft
          // under the deprecated name, cancelled, and the connect link.
          const uploaded = yield* ok<{ media: { id: string } }>("svc_upload_scheduling_media", {
            data: Buffer.from(image).toString("base64")
          })
          yield* ok("svc_update_schedule", { timeZone: "Europe/Berlin", slots: [{ weekday: 1, time: "09:00" }] })
          yield* ok("svc_list_schedules", {})
          const { post } = yield* ok<{ post: { id: string } }>("svc_schedule_post", {
            text: "A dot",
            platforms: ["feed"],
            media: [{ ...uploaded.media, altText: "A dot" }]
          })
          yield* ok("svc_update_scheduled_post", { postId: post.id, text: "A blue dot" })
          yield* ok("svc_publish_post_now", { postId: post.id })
          yield* ok("svc_list_scheduled_posts", { status: "posted" })
          const draft = yield* ok<{ post: { id: string } }>("svc_create_scheduling_draft", {
            text: "Later",
            platforms: ["feed"],
            draft: true
          })
          yield* ok("svc_cancel_scheduled_post", { postId: draft.post.id })
          yield* ok("svc_connect_social_accounts", {})

          // Research, analytics, music and auto-DM, with another key (one key makes 120 calls a minute).
          const researcher = yield* app.signUp()
          const researchClient = yield* connect(app.url, researcher.token)
          yield* Effect.promise(() => researchClient.listTools())
          const ok2 = okWith(researchClient)
          yield* ok2("svc_search_creators", { query: "ada" })
          yield* ok2("svc_resolve_creator", { creator: "ada.test" })
          yield* ok2("svc_analyze_creator", { creator: "ada.test", timeZone: "Europe/Paris" })
          yield* ok2("svc_read_social_post", { post: adaPost.url })
          yield* ok2("svc_read_card", { post: adaPost.url })
          yield* ok2("svc_following_overview", { creator: "ada.test" })
          yield* ok2("svc_search_social_content", { scope: "global", query: "tomatoes" })
          const { list } = yield* ok2<Record1<"list">>("svc_save_creators_to_list", {
            listName: "Growers",
            creators: [{ platform: "bluesky", handle: "ada.test" }]
          })
          yield* ok2("svc_analyze_list", { listId: list.id })
          yield* ok2("svc_study_top_titles", { listId: list.id, minRatio: 1 })
          yield* ok2("svc_study_top_carousels", { topic: "tomatoes", minRatio: 1 })
          yield* ok2("svc_search_ads", { query: "garden" })
          yield* ok2("svc_get_brand_ads", { brand: "Acme" })
          yield* ok2("svc_save_brands_to_list", { listName: "Rivals", brands: [{ name: "Acme" }] })
          yield* ok2("svc_get_brand_list_ads", { listName: "Rivals" })
          yield* ok2("svc_remove_brands_from_list", { listName: "Rivals", brandIds: ["111"] })
          yield* ok("svc_get_analytics", { days: 7 })
          yield* ok("svc_list_analytics_posts", { sort: "likes" })
          yield* ok2("svc_search_instagram_music", { query: "summer" })
          const account = yield* app.setUp(
            Effect.flatMap(Scheduling, (scheduling) =>
              scheduling.connectAccount(researcher.workspace.id, "bluesky", "https://pds.test", {
                identifier: "me.test",
                appPassword: "app"
              })
            ).pipe(Effect.orDie)
          )
          const { rule } = yield* ok2<Record1<"rule">>("svc_create_auto_dm_automation", {
            accountId: account.id,
            keywords: ["guide"],
            template: "Hi {name}!"
          })
          yield* ok2("svc_update_auto_dm_automation", { ruleId: rule.id, enabled: false })
          yield* ok2("svc_list_auto_dm_rules", {})
          yield* ok2("svc_delete_auto_dm_automation", { ruleId: rule.id })

          // The trash, last.
          yield* ok("svc_trash_item", { itemId: table.id })
          yield* ok("svc_trash_board", { boardId: board.id })

          expect(
            tools.map((tool) => tool.name).filter((name) => !succeeded.has(name)),
            "tools without a success call here"
          ).toEqual([])

          // A failure of every tool: sent as structuredContent with isError, which the SDK checks as well. Another
          // account's key: the successes above already took over half of one key's 120 calls a minute.
          const refuser = yield* connect(app.url, (yield* app.signUp()).token)
          yield* Effect.promise(() => refuser.listTools())
          for (const tool of tools) {
            const refused = yield* Effect.promise(() => refuser.callTool({ name: tool.name, arguments: { bogus: 1 } }))
            expect(refused.isError, tool.name).toBe(true)
            expect(refused.structuredContent, tool.name).toMatchObject({ ok: false, status: "invalid" })
          }
        }),
      // A call per served tool and per refusal, over 200 in all: about 24 s on a slow two-core machine, too near the
      // default 30 s when other test files run beside it.
      120_000
    )

    it.scoped("not-found failures pass the SDK's check", () =>
      Effect.gen(function* () {
        const app = yield* TestApp
        const user = yield* app.signUp()
        const client = yield* connect(app.url, user.token)
        yield* Effect.promise(() => client.listTools())
        for (const [name, args] of [
          ["svc_get_note_markdown", { noteId: "note_nope" }],
          ["svc_read_board", { boardId: "board_nope" }],
          ["svc_read_table", { tableId: "table_nope" }],
          ["svc_read_media_card", { mediaId: "media_nope" }],
          ["svc_trash_item", { itemId: "note_nope" }]
        ] as const) {
          const missing = yield* Effect.promise(() => client.callTool({ name, arguments: args }))
          expect(missing, name).toMatchObject({ isError: true, structuredContent: { ok: false, status: "not-found" } })
          expect(missing.content, name).toEqual([{ type: "text", text: JSON.stringify(missing.structuredContent) }])
        }
      })
    )
  })
})
