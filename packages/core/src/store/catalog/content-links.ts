import { Clock, Context, Effect, Option } from "effect"
import { invalid, NotFound } from "../../shared/errors.js"
import { Ids, Transactor } from "../../shared/ports.js"
import type { StoreCaller } from "../../auth/store-caller.js"
import { ProductsRepo, WaitlistRepo } from "./ports.js"

/** The longest link title. */
export const LINK_TITLE_MAX = 200
/** The longest link address. */
export const LINK_URL_MAX = 2000
/** The most links one product delivers. */
export const LINKS_PER_PRODUCT_MAX = 50

/** A link a product delivers to the people who have it. */
export interface ContentLink {
  readonly id: string
  readonly workspaceId: string
  readonly productId: string
  readonly title: string
  readonly url: string
  /** Its place in the product's list, from 0. */
  readonly position: number
  readonly createdAt: Date
  readonly updatedAt: Date
}

/** Stored content links. */
export class ContentLinksRepo extends Context.Tag("svc/store/ContentLinksRepo")<
  ContentLinksRepo,
  {
    /** The product's links in order. */
    readonly listForProduct: (workspaceId: string, productId: string) => Effect.Effect<ReadonlyArray<ContentLink>>
    /** The links of several products, in each product's order, by product id. */
    readonly listForProducts: (
      workspaceId: string,
      productIds: ReadonlyArray<string>
    ) => Effect.Effect<ReadonlyMap<string, ReadonlyArray<ContentLink>>>
    readonly insert: (link: ContentLink) => Effect.Effect<void>
    /** Gives each link id its index in `ids` as its position. */
    readonly setOrder: (
      workspaceId: string,
      productId: string,
      ids: ReadonlyArray<string>,
      at: Date
    ) => Effect.Effect<void>
    readonly remove: (workspaceId: string, productId: string, id: string) => Effect.Effect<void>
  }
>() {}

/** A link as the tools and the customer record show it. */
export const linkJson = (link: ContentLink) => ({
  id: link.id,
  title: link.title,
  url: link.url,
  position: link.position
})

const checkTitle = (raw: string) => {
  const title = raw.trim()
  return title.length === 0 || title.length > LINK_TITLE_MAX
    ? Effect.fail(invalid("title", `the link title must be 1 to ${LINK_TITLE_MAX} characters`))
    : Effect.succeed(title)
}

const checkUrl = (raw: string) => {
  const text = raw.trim()
  const parsed = URL.canParse(text) ? new URL(text) : undefined
  return parsed === undefined ||
    (parsed.protocol !== "http:" && parsed.protocol !== "https:") ||
    text.length > LINK_URL_MAX
    ? Effect.fail(invalid("url", `the link must be an http or https address of at most ${LINK_URL_MAX} characters`))
    : Effect.succeed(text)
}

/** The links each product delivers: listed, added, reordered and removed by the seller, read by buyers' records. */
export class StoreContentLinks extends Effect.Service<StoreContentLinks>()("svc/store/StoreContentLinks", {
  effect: Effect.gen(function* () {
    const repo = yield* ContentLinksRepo
    const products = yield* ProductsRepo
    const ids = yield* Ids
    const transactor = yield* Transactor
    const places = yield* WaitlistRepo

    // Another store's product is not found, as an unknown one, so ids do not leak.
    const productOf = (caller: StoreCaller, productId: string) =>
      Effect.flatMap(products.find(caller.workspaceId, productId), (found) =>
        Option.isSome(found)
          ? Effect.succeed(found.value)
          : Effect.fail(new NotFound({ message: `no product ${productId} in this store` }))
      )

    const answer = (caller: StoreCaller, productId: string) =>
      Effect.map(repo.listForProduct(caller.workspaceId, productId), (links) => links.map(linkJson))

    /** The product's links in order. */
    const list = (caller: StoreCaller, productId: string) =>
      Effect.flatMap(productOf(caller, productId), (product) => answer(caller, product.id))

    /** Adds a link at the end of the product's list; answers the list as it now is. */
    const add = (
      caller: StoreCaller,
      input: { readonly productId: string; readonly title: string; readonly url: string }
    ) =>
      transactor.withTransaction(
        Effect.gen(function* () {
          const product = yield* productOf(caller, input.productId)
          const title = yield* checkTitle(input.title)
          const url = yield* checkUrl(input.url)
          const now = new Date(yield* Clock.currentTimeMillis)
          // Changes to one product's links wait on its row, so two at once cannot both take the last place or one
          // position.
          yield* places.lockProduct(caller.workspaceId, product.id)
          const links = yield* repo.listForProduct(caller.workspaceId, product.id)
          if (links.length >= LINKS_PER_PRODUCT_MAX) {
            return yield* invalid("", `a product delivers at most ${LINKS_PER_PRODUCT_MAX} links; remove one first`)
          }
          yield* repo.insert({
            id: yield* ids.make("link_"),
            workspaceId: caller.workspaceId,
            productId: product.id,
            title,
            url,
            position: (links[links.length - 1]?.position ?? -1) + 1,
            createdAt: now,
            updatedAt: now
          })
          return yield* answer(caller, product.id)
        })
      )

    /** Puts the product's links in the order given (every one of its link ids, once). */
    const reorder = (
      caller: StoreCaller,
      input: { readonly productId: string; readonly linkIds: ReadonlyArray<string> }
    ) =>
      transactor.withTransaction(
        Effect.gen(function* () {
          const product = yield* productOf(caller, input.productId)
          yield* places.lockProduct(caller.workspaceId, product.id)
          const links = yield* repo.listForProduct(caller.workspaceId, product.id)
          const known = new Set(links.map((l) => l.id))
          const given = new Set(input.linkIds)
          if (given.size !== input.linkIds.length || given.size !== known.size || links.some((l) => !given.has(l.id))) {
            const unknown = input.linkIds.find((id) => !known.has(id))
            if (unknown !== undefined) return yield* new NotFound({ message: `no link ${unknown} on ${product.id}` })
            return yield* invalid(
              "linkIds",
              `give every one of the product's ${known.size} link ids once, in the new order (list them with action list)`
            )
          }
          yield* repo.setOrder(caller.workspaceId, product.id, input.linkIds, new Date(yield* Clock.currentTimeMillis))
          return yield* answer(caller, product.id)
        })
      )

    /** Removes one link; the others keep their order. */
    const remove = (caller: StoreCaller, input: { readonly productId: string; readonly linkId: string }) =>
      transactor.withTransaction(
        Effect.gen(function* () {
          const product = yield* productOf(caller, input.productId)
          yield* places.lockProduct(caller.workspaceId, product.id)
          const links = yield* repo.listForProduct(caller.workspaceId, product.id)
          if (!links.some((l) => l.id === input.linkId)) {
            return yield* new NotFound({ message: `no link ${input.linkId} on ${product.id}` })
          }
          yield* repo.remove(caller.workspaceId, product.id, input.linkId)
          const rest = links.filter((l) => l.id !== input.linkId).map((l) => l.id)
          yield* repo.setOrder(caller.workspaceId, product.id, rest, new Date(yield* Clock.currentTimeMillis))
          return yield* answer(caller, product.id)
        })
      )

    return { list, add, reorder, remove } as const
  })
}) {}
