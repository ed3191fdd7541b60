import { Clock, Effect, Either, Option } from "effect"
import { type StoreCaller, requireApiKeyFor } from "../../auth/store-caller.js"
import type { MediaAsset } from "../../media/schema.js"
import { MediaLibrary } from "../../media/service.js"
import { FieldProblem, InvalidInput } from "../../shared/errors.js"
import { unstorableText } from "../../shared/storable-text.js"
import { ProductsRepo } from "../catalog/ports.js"
import type { Product } from "../catalog/product.js"
import { ReviewsRepo } from "../reviews/ports.js"
import type { RatingSummary } from "../reviews/review.js"
import {
  CREATOR_BIO_MAX,
  CREATOR_FEATURED_MAX,
  CREATOR_HEADLINE_MAX,
  CREATOR_LINK_LABEL_MAX,
  CREATOR_LINK_URL_MAX,
  CREATOR_LINKS_MAX,
  type CreatorLink,
  type CreatorPage,
  type CreatorPageChanges,
  DEFAULT_SIGNUP_HEADING,
  emptyCreatorPage,
  SIGNUP_HEADING_MAX,
  SIGNUP_TEXT_MAX
} from "./creator-page.js"
import { CreatorPagesRepo } from "./ports.js"

/** A featured product as the page shows it: the product and its rating. */
export interface FeaturedProduct {
  readonly product: Product
  readonly rating: RatingSummary
}

/** What the public page renders: the page, its avatar, the featured live products and the other live ones. */
export interface CreatorPageView {
  readonly page: CreatorPage
  readonly avatar: MediaAsset | null
  readonly featured: ReadonlyArray<FeaturedProduct>
  readonly others: ReadonlyArray<Product>
}

/** Problems said as one sentence, each after its field: `links.0.url: an http or https address …`. */
export const saidWithPaths = (problems: ReadonlyArray<FieldProblem>) =>
  problems.map((p) => `${p.path}: ${p.message}`).join("; ")

const isWebAddress = (text: string) => {
  if (!URL.canParse(text)) return false
  const url = new URL(text)
  return (url.protocol === "https:" || url.protocol === "http:") && url.hostname !== ""
}

/**
 * The creator page of each store: the seller shapes it (headline, bio, avatar, links, featured products, the sign-up
 * block) through the tool or the store API, all or none; the public page `/s/<handle>` renders it.
 */
export class StoreCreatorPage extends Effect.Service<StoreCreatorPage>()("svc/store/StoreCreatorPage", {
  dependencies: [MediaLibrary.Default],
  effect: Effect.gen(function* () {
    const repo = yield* CreatorPagesRepo
    const products = yield* ProductsRepo
    const reviews = yield* ReviewsRepo
    const media = yield* MediaLibrary

    const pageOf = (workspaceId: string) =>
      Effect.map(
        repo.find(workspaceId),
        Option.getOrElse(() => emptyCreatorPage(workspaceId))
      )

    /** The store's creator page (the empty one when never set). */
    const get = (caller: StoreCaller) => pageOf(caller.workspaceId)

    /**
     * Changes the creator page, all or none: every broken rule is one problem at its field (`links.2.url`,
     * `featured_product_ids.0`), and nothing is kept. A field left out stays; null (or "") clears it.
     */
    const update = (caller: StoreCaller, changes: CreatorPageChanges) =>
      Effect.gen(function* () {
        yield* requireApiKeyFor(caller, "change the creator page")
        const current = yield* pageOf(caller.workspaceId)
        const problems: Array<FieldProblem> = []
        const problem = (path: string, message: string) => problems.push(new FieldProblem({ path, message }))

        const text = (path: string, given: string | null | undefined, max: number, kept: string | null) => {
          if (given === undefined) return kept
          const trimmed = given?.trim() ?? ""
          if (trimmed === "") return null
          if (trimmed.length > max) problem(path, `at most ${max} characters; ${trimmed.length} given`)
          else if (unstorableText(trimmed) !== undefined) problem(path, unstorableText(trimmed) ?? "")
          return trimmed
        }

        const headline = text("headline", changes.headline, CREATOR_HEADLINE_MAX, current.headline)
        const bio = text("bio", changes.bio, CREATOR_BIO_MAX, current.bio)

        let links: ReadonlyArray<CreatorLink> = current.links
        if (changes.links !== undefined) {
          const given = changes.links ?? []
          if (given.length > CREATOR_LINKS_MAX) problem("links", `at most ${CREATOR_LINKS_MAX} links`)
          links = given.map((link, i) => {
            const label = link.label.trim()
            const url = link.url.trim()
            if (label === "" || label.length > CREATOR_LINK_LABEL_MAX || unstorableText(label) !== undefined) {
              problem(`links.${i}.label`, `1 to ${CREATOR_LINK_LABEL_MAX} characters of text, e.g. YouTube`)
            }
            if (url.length > CREATOR_LINK_URL_MAX || !isWebAddress(url)) {
              problem(`links.${i}.url`, `an http or https address of at most ${CREATOR_LINK_URL_MAX} characters`)
            }
            return { label, url }
          })
        }

        let featuredProductIds: ReadonlyArray<string> = current.featuredProductIds
        if (changes.featuredProductIds !== undefined) {
          const given = (changes.featuredProductIds ?? []).map((id) => id.trim())
          if (given.length > CREATOR_FEATURED_MAX) {
            problem("featured_product_ids", `at most ${CREATOR_FEATURED_MAX} products`)
          }
          const seen = new Set<string>()
          for (const [i, id] of given.entries()) {
            if (seen.has(id)) problem(`featured_product_ids.${i}`, `${id} is given twice`)
            seen.add(id)
            const found = id === "" ? Option.none() : yield* products.find(caller.workspaceId, id)
            if (Option.isNone(found)) problem(`featured_product_ids.${i}`, `no product ${id} in this store`)
          }
          featuredProductIds = given
        }

        let avatarMediaId = current.avatarMediaId
        if (changes.avatarMediaId !== undefined) {
          const id = changes.avatarMediaId?.trim() ?? ""
          avatarMediaId = id === "" ? null : id
          if (avatarMediaId !== null) {
            const found = yield* Effect.either(media.findReady(caller.workspaceId, [avatarMediaId]))
            const asset = Either.isRight(found) ? found.right[0] : undefined
            if (asset === undefined) {
              problem("avatar_media_id", `no media file ${avatarMediaId} in this workspace; upload the image first`)
            } else if (asset.kind !== "image" && asset.kind !== "gif") {
              problem("avatar_media_id", `${avatarMediaId} is a ${asset.kind}; the avatar must be an image`)
            }
          }
        }

        const signupChanges = changes.signup ?? {}
        const heading = text("signup.heading", signupChanges.heading, SIGNUP_HEADING_MAX, current.signup.heading)
        const signup = {
          shown: signupChanges.shown ?? current.signup.shown,
          heading: heading ?? DEFAULT_SIGNUP_HEADING,
          text: text("signup.text", signupChanges.text, SIGNUP_TEXT_MAX, current.signup.text)
        }

        if (problems.length > 0) {
          return yield* new InvalidInput({ message: saidWithPaths(problems), errors: problems })
        }
        const page: CreatorPage = {
          workspaceId: caller.workspaceId,
          headline,
          bio,
          avatarMediaId,
          links,
          featuredProductIds,
          signup,
          updatedAt: new Date(yield* Clock.currentTimeMillis)
        }
        yield* repo.save(page)
        return page
      })

    /** The avatar's asset, when the page has one still in the media library. */
    const avatarOf = (page: CreatorPage) =>
      page.avatarMediaId === null
        ? Effect.succeed(null)
        : Effect.map(Effect.either(media.findReady(page.workspaceId, [page.avatarMediaId])), (found) =>
            Either.isRight(found) ? (found.right[0] ?? null) : null
          )

    /**
     * What the public page shows: the page, its avatar, the featured products that are live (in the seller's order,
     * each with its rating), then the store's other live products.
     */
    const publicView = (workspaceId: string) =>
      Effect.gen(function* () {
        const page = yield* pageOf(workspaceId)
        const live = (yield* products.listAll(workspaceId)).filter((p) => p.status === "live")
        const byId = new Map(live.map((p) => [p.id, p]))
        const featured = yield* Effect.forEach(
          page.featuredProductIds.flatMap((id) => {
            const product = byId.get(id)
            return product === undefined ? [] : [product]
          }),
          (product) => Effect.map(reviews.rating(workspaceId, product.id), (rating) => ({ product, rating }))
        )
        const featuredIds = new Set(featured.map((f) => f.product.id))
        return {
          page,
          avatar: yield* avatarOf(page),
          featured,
          others: live.filter((p) => !featuredIds.has(p.id))
        } satisfies CreatorPageView
      })

    /** The avatar of a store's page, for the route that serves it. */
    const avatarFor = (workspaceId: string) => Effect.flatMap(pageOf(workspaceId), avatarOf)

    return { get, update, publicView, avatarFor } as const
  })
}) {}
