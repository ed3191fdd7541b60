/**
 * The creator page (issue 43) through the real app: the seller shapes `/s/<handle>` with `svc_update_creator_page` or
 * `PATCH /store-app/v1/creator-page` (all or none, every broken rule named), and the public page shows the avatar
 * (served from our own origin), headline, bio, links, featured products with price and rating, and the sign-up block,
 * with Open Graph tags.
 */
import { expect, layer } from "@effect/vitest"
import { MediaLibrary } from "@svc/core/media"
import { Effect, Stream } from "effect"
import { png } from "../media/fixtures.js"
import { TestApp } from "../support/app.js"
import { engineName } from "../support/database.js"
import { checkoutSeller } from "./checkout-support.js"

type Seller = Effect.Effect.Success<typeof checkoutSeller>

/** An image of `width` × `height` in the seller's media library; answers its id. */
const uploadImage = (s: Seller, width: number, height: number) =>
  Effect.gen(function* () {
    const bytes = yield* Effect.promise(() => png(width, height))
    const asset = yield* s.app.setUp(
      Effect.orDie(
        Effect.flatMap(MediaLibrary, (library) =>
          library.upload(s.workspaceId, { fileName: "me.png", body: Stream.make(bytes) })
        )
      )
    )
    return asset.id
  })

const handleOf = (s: Seller) =>
  Effect.map(s.storeApi("GET", "/creator-page"), (got) => {
    const url = String((got.body.creator_page as { url: string }).url)
    return url.slice(url.lastIndexOf("/") + 1)
  })

const publicPage = (s: Seller, handle: string) =>
  Effect.promise(async () => {
    const response = await fetch(`${s.app.url}/s/${handle}`)
    return { status: response.status, text: await response.text() }
  })

layer(TestApp.layer, { excludeTestServices: true, timeout: "120 seconds" })(
  `the creator page on ${engineName}`,
  (it) => {
    it.effect("the seller shapes the page; it shows everything, with Open Graph tags and the avatar", () =>
      Effect.gen(function* () {
        const s = yield* checkoutSeller
        // Never set: the empty page, with its address.
        const empty = yield* s.storeApi("GET", "/creator-page")
        expect(empty.status, JSON.stringify(empty.body)).toBe(200)
        expect(empty.body.creator_page).toMatchObject({
          headline: null,
          bio: null,
          avatar_url: null,
          links: [],
          featured_product_ids: [],
          signup: { shown: true, heading: "Join the email list", text: null },
          updated_at: null
        })
        const handle = yield* handleOf(s)
        const course = yield* s.product({ title: "Writing course", price_cents: 4900, tagline: "Six weeks" })
        yield* s.product({ title: "Style guide", price_cents: 0 })
        yield* s.tool("svc_import_product_reviews", {
          productId: course,
          reviews: [
            { text: "Clear.", name: "Ada", rating: 5 },
            { text: "Good.", name: "Ben", rating: 4 }
          ]
        })
        const avatar = yield* uploadImage(s, 640, 640)

        const set = yield* s.tool("svc_update_creator_page", {
          headline: "I teach <clear> writing",
          bio: "Ten years of editing.\n\nNow I teach what I learned.",
          avatarMediaId: avatar,
          links: [
            { label: "YouTube", url: "https://youtube.com/@ada" },
            { label: "Blog", url: "https://ada.example.com" }
          ],
          featuredProductIds: [course],
          signupHeading: "Get my weekly letter",
          signupText: "One short email each Friday."
        })
        expect(set.status, JSON.stringify(set.body)).toBe(200)
        expect(set.body.creatorPage).toMatchObject({
          headline: "I teach <clear> writing",
          avatar_media_id: avatar,
          avatar_url: expect.stringMatching(new RegExp(`/s/${handle}/avatar$`)),
          featured_product_ids: [course],
          signup: { shown: true, heading: "Get my weekly letter", text: "One short email each Friday." }
        })

        const page = yield* publicPage(s, handle)
        expect(page.status).toBe(200)
        const html = page.text
        expect(html).not.toContain('name="robots"')
        expect(html).toContain('<meta property="og:title"')
        expect(html).toContain('<meta property="og:description" content="I teach &#60;clear&#62; writing">')
        expect(html).toMatch(new RegExp(`<meta property="og:image" content="[^"]*/s/${handle}/avatar">`))
        expect(html).toMatch(new RegExp(`<link rel="canonical" href="[^"]*/s/${handle}">`))
        expect(html).toContain('class="avatar"')
        expect(html).toContain('<p class="headline">I teach &#60;clear&#62; writing</p>')
        expect(html).toContain('<p class="asked">Ten years of editing.</p>')
        expect(html).toContain('<p class="asked">Now I teach what I learned.</p>')
        expect(html).toContain('<a href="https://youtube.com/@ada" rel="me noopener">YouTube</a>')
        // The featured card with its price and rating, then the other product under More products.
        expect(html).toContain("<h2>Featured</h2>")
        expect(html).toContain("<h3>Writing course</h3>")
        expect(html).toContain("49.00 USD")
        expect(html).toContain("4.5 out of 5 · 2 ratings")
        expect(html.indexOf("<h2>More products</h2>")).toBeGreaterThan(html.indexOf("<h3>Writing course</h3>"))
        expect(html).toContain("<strong>Style guide</strong>")
        expect(html).toContain("Get my weekly letter")
        expect(html).toContain("One short email each Friday.")

        // The avatar comes from our own origin: its preview, a WebP of at most 320 px.
        const image = yield* Effect.promise(() => fetch(`${s.app.url}/s/${handle}/avatar`))
        expect(image.status).toBe(200)
        expect(image.headers.get("content-type")).toBe("image/webp")
        expect((yield* Effect.promise(() => image.arrayBuffer())).byteLength).toBeGreaterThan(0)

        // Hiding the sign-up block and clearing the avatar: the form and the image go; the rest stays.
        const hidden = yield* s.storeApi("PATCH", "/creator-page", {
          avatar_media_id: null,
          signup: { shown: false }
        })
        expect(hidden.status, JSON.stringify(hidden.body)).toBe(200)
        expect(hidden.body.creator_page).toMatchObject({ avatar_url: null, headline: "I teach <clear> writing" })
        const after = (yield* publicPage(s, handle)).text
        expect(after).not.toContain(`action="${s.app.url}/s/${handle}/signup"`)
        expect(after).not.toContain('class="avatar"')
        expect(after).not.toContain("og:image")
        expect((yield* Effect.promise(() => fetch(`${s.app.url}/s/${handle}/avatar`))).status).toBe(404)
        // With no field the tool answers the page as it is.
        const read = yield* s.tool("svc_update_creator_page", {})
        expect(read.body.creatorPage).toMatchObject({ signup: { shown: false }, featured_product_ids: [course] })
        // An unpublished featured product is not shown; the page stays whole.
        yield* s.storeApi("POST", `/products/${course}/unpublish`)
        const unpublished = (yield* publicPage(s, handle)).text
        expect(unpublished).not.toContain("Writing course")
        expect(unpublished).not.toContain("<h2>Featured</h2>")
        expect(unpublished).toContain("<h2>Products</h2>")
      })
    )

    it.effect("bad input is refused whole, each rule at its field, in each face's names", () =>
      Effect.gen(function* () {
        const s = yield* checkoutSeller
        const before = yield* s.storeApi("GET", "/creator-page")
        const bad = yield* s.storeApi("PATCH", "/creator-page", {
          headline: "x".repeat(121),
          links: [
            { label: "Fine", url: "https://example.com" },
            { label: "", url: "javascript:alert(1)" }
          ],
          featured_product_ids: ["prod_nope", "prod_nope"],
          avatar_media_id: "med_nope",
          signup: { heading: "h".repeat(81) }
        })
        expect(bad.status).toBe(422)
        const paths = (bad.body.errors as Array<{ path: string }>).map((e) => e.path)
        expect(paths).toEqual([
          "headline",
          "links.1.label",
          "links.1.url",
          "featured_product_ids.0",
          "featured_product_ids.1",
          "featured_product_ids.1",
          "avatar_media_id",
          "signup.heading"
        ])
        // Nothing was kept.
        expect((yield* s.storeApi("GET", "/creator-page")).body).toEqual(before.body)

        const tooMany = yield* s.storeApi("PATCH", "/creator-page", {
          links: Array.from({ length: 11 }, (_, i) => ({ label: `L${i}`, url: `https://example.com/${i}` }))
        })
        expect(tooMany.status).toBe(422)
        expect(JSON.stringify(tooMany.body)).toContain("at most 10 links")

        // The tool names its own fields, in the paths and in the words.
        const viaTool = yield* s.tool("svc_update_creator_page", {
          featuredProductIds: ["prod_nope"],
          signupText: "   ",
          signupHeading: "h".repeat(80),
          avatarMediaId: "med_nope"
        })
        expect(viaTool.status, JSON.stringify(viaTool.body)).toBe(422)
        const text = JSON.stringify(viaTool.body)
        expect(text).toContain("featuredProductIds.0")
        expect(text).toContain("avatarMediaId")
        expect(text).not.toContain("featured_product_ids")
        expect(text).not.toContain("avatar_media_id")
        // An unknown field is refused by the API's decoding.
        const unknown = yield* s.storeApi("PATCH", "/creator-page", { colour: "red" })
        expect(unknown.status).toBeGreaterThanOrEqual(400)
        expect(unknown.status).toBeLessThan(500)
      })
    )
  }
)
