/**
 * The creator page (issue 43) on the GraphQL face, over the real app: the seller reads `store { creatorPage }` and
 * shapes it with `updateStoreCreatorPage`, with the same row, rules and field paths as the store API
 * (`GET`/`PATCH /store-app/v1/creator-page`). `updateCreatorPage` stays the tool svc_update_creator_page's mutation.
 */
import { expect, layer } from "@effect/vitest"
import { ApiKeys, readOnlyAccess } from "@svc/core/auth"
import { Effect } from "effect"
import { checkoutSeller } from "../store/checkout-support.js"
import { TestApp } from "../support/app.js"
import { engineName } from "../support/database.js"

type Seller = Effect.Effect.Success<typeof checkoutSeller>

/** The fields the tests read out of answers. */
type Read =
  | "store"
  | "creatorPage"
  | "creator_page"
  | "updateStoreCreatorPage"
  | "updateCreatorPage"
  | "errors"
  | "message"
  | "url"
  | "updated_at"

/** An answer read loosely: the assertions check its shape. */
interface Loose extends Readonly<Record<Read, Loose>> {}

/** A GraphQL answer: `data` and `errors`, as the face sends them. */
interface Answer {
  readonly data: Loose
  readonly errors?: ReadonlyArray<{ readonly message: string; readonly extensions?: Record<string, unknown> }>
}

/** Posts a GraphQL document to the app's `/graphql` with `token`. */
const graphql = (url: string, token: string, query: string, variables?: Record<string, unknown>) =>
  Effect.promise(async () => {
    const response = await fetch(`${url}/graphql`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ query, variables })
    })
    return (await response.json()) as Answer
  })

/** Asks and expects no errors. */
const read = (s: Seller, query: string, variables?: Record<string, unknown>) =>
  Effect.map(graphql(s.app.url, s.user.token, query, variables), (answer) => {
    expect(answer.errors).toBeUndefined()
    return answer.data
  })

// Every field of the store API's CreatorPageRow.
const PAGE_FIELDS =
  "url headline bio avatar_media_id avatar_url links { label url } featured_product_ids signup { shown heading text } updated_at"

const READ_PAGE = `{ store { creatorPage { ${PAGE_FIELDS} } } }`

const UPDATE = `mutation ($input: UpdateStoreCreatorPageInput) { updateStoreCreatorPage(input: $input) {
  __typename
  ... on UpdateStoreCreatorPagePayload { ok creator_page { ${PAGE_FIELDS} } }
  ... on ToolFailure { ok status message errors { path message } } } }`

/** The page as the store API answers it. */
const fromApi = (s: Seller) =>
  Effect.map(s.storeApi("GET", "/creator-page"), (got) => {
    expect(got.status, JSON.stringify(got.body)).toBe(200)
    return got.body.creator_page
  })

layer(TestApp.layer, { excludeTestServices: true, timeout: "180 seconds" })(
  `GraphQL creator page on ${engineName}`,
  (it) => {
    it.effect(
      "reads the empty page, shapes it with updateStoreCreatorPage and reads it back as the store API does",
      () =>
        Effect.gen(function* () {
          const s = yield* checkoutSeller
          // Never set: the empty page, with its address on the store's handle.
          const empty = yield* read(s, READ_PAGE)
          expect(empty.store.creatorPage).toEqual({
            url: expect.stringMatching(new RegExp(`/s/${s.user.store.handle}$`)),
            headline: null,
            bio: null,
            avatar_media_id: null,
            avatar_url: null,
            links: [],
            featured_product_ids: [],
            signup: { shown: true, heading: "Join the email list", text: null },
            updated_at: null
          })
          expect(empty.store.creatorPage).toEqual(yield* fromApi(s))

          const course = yield* s.product({ title: "Writing course", price_cents: 4900 })
          const guide = yield* s.product({ title: "Style guide", price_cents: 1500 })
          const changed = yield* read(s, UPDATE, {
            input: {
              headline: "I teach clear writing",
              bio: "Ten years of editing.\n\nNow I teach what I learned.",
              links: [
                { label: "YouTube", url: "https://youtube.com/@ada" },
                { label: "Blog", url: "https://ada.example.com" }
              ],
              featured_product_ids: [guide, course],
              signup: { heading: "Get my weekly letter", text: "One short email each Friday." }
            }
          })
          expect(changed.updateStoreCreatorPage).toEqual({
            __typename: "UpdateStoreCreatorPagePayload",
            ok: true,
            creator_page: {
              url: empty.store.creatorPage.url,
              headline: "I teach clear writing",
              bio: "Ten years of editing.\n\nNow I teach what I learned.",
              avatar_media_id: null,
              avatar_url: null,
              links: [
                { label: "YouTube", url: "https://youtube.com/@ada" },
                { label: "Blog", url: "https://ada.example.com" }
              ],
              featured_product_ids: [guide, course],
              signup: { shown: true, heading: "Get my weekly letter", text: "One short email each Friday." },
              updated_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/)
            }
          })

          // Read back: the same row on the graph, from the store API, and in the tool's answer.
          const shaped = changed.updateStoreCreatorPage.creator_page
          expect((yield* read(s, READ_PAGE)).store.creatorPage).toEqual(shaped)
          expect(yield* fromApi(s)).toEqual(shaped)
          const viaTool = yield* read(
            s,
            `mutation { updateCreatorPage(input: {}) { __typename ... on UpdateCreatorPagePayload { creatorPage { url headline featured_product_ids } } } }`
          )
          expect(viaTool.updateCreatorPage).toEqual({
            __typename: "UpdateCreatorPagePayload",
            creatorPage: { url: shaped.url, headline: "I teach clear writing", featured_product_ids: [guide, course] }
          })

          // A field left out stays; null clears one; the sign-up block changes field by field.
          const partial = yield* read(s, UPDATE, { input: { bio: null, signup: { shown: false } } })
          expect(partial.updateStoreCreatorPage.creator_page).toEqual({
            ...shaped,
            bio: null,
            signup: { shown: false, heading: "Get my weekly letter", text: "One short email each Friday." },
            updated_at: expect.any(String)
          })
          expect((yield* read(s, READ_PAGE)).store.creatorPage).toEqual(partial.updateStoreCreatorPage.creator_page)
        })
    )

    it.effect(
      "a bad link and an unknown product are refused whole at their fields; a read-only key cannot change",
      () =>
        Effect.gen(function* () {
          const s = yield* checkoutSeller
          const course = yield* s.product({ title: "Workbook", price_cents: 900 })
          const kept = yield* read(s, UPDATE, { input: { headline: "Kept", featured_product_ids: [course] } })
          expect(kept.updateStoreCreatorPage).toMatchObject({ __typename: "UpdateStoreCreatorPagePayload", ok: true })
          const before = kept.updateStoreCreatorPage.creator_page

          // Every broken rule is one errors entry on the store API's field, and nothing is kept.
          const refused = yield* read(s, UPDATE, {
            input: {
              headline: "Not kept",
              links: [
                { label: "Fine", url: "https://example.com" },
                { label: "Bad", url: "javascript:alert(1)" }
              ],
              featured_product_ids: [course, "prod_nope"]
            }
          })
          expect(refused.updateStoreCreatorPage).toEqual({
            __typename: "ToolFailure",
            ok: false,
            status: "invalid",
            message: expect.stringContaining("links.1.url"),
            errors: [
              { path: "links.1.url", message: expect.stringContaining("http or https address") },
              { path: "featured_product_ids.1", message: "no product prod_nope in this store" }
            ]
          })
          expect(refused.updateStoreCreatorPage.message).toContain("featured_product_ids.1")
          expect((yield* read(s, READ_PAGE)).store.creatorPage).toEqual(before)

          // A field of the row that is not the body's (url, updated_at) is no input field: refused before anything runs.
          const readOnlyField = yield* graphql(
            s.app.url,
            s.user.token,
            `mutation { updateStoreCreatorPage(input: { url: "https://elsewhere.example" }) { __typename } }`
          )
          expect(readOnlyField.errors?.[0]?.extensions).toMatchObject({ code: "GRAPHQL_VALIDATION_FAILED" })
          expect(readOnlyField.data).toBeUndefined()

          // A read-only key of the same account reads the page, and its change is a forbidden ToolFailure.
          const reader = yield* s.app.setUp(
            Effect.orDie(Effect.flatMap(ApiKeys, (keys) => keys.create(s.user.account.id, { access: readOnlyAccess })))
          )
          const readOnly = yield* graphql(s.app.url, reader.token, READ_PAGE)
          expect(readOnly).toEqual({ data: { store: { creatorPage: before } } })
          const forbidden = yield* graphql(s.app.url, reader.token, UPDATE, { input: { headline: "Mine" } })
          expect(forbidden.data.updateStoreCreatorPage).toMatchObject({
            __typename: "ToolFailure",
            ok: false,
            status: "forbidden"
          })
          expect(forbidden.data.updateStoreCreatorPage.message).toContain("only read the store")
          expect((yield* read(s, READ_PAGE)).store.creatorPage).toEqual(before)
        })
    )
  }
)
