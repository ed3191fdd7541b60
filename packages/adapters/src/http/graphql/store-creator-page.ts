import { CreatorPageRow, creatorPageJson, StoreCreatorPage, StorePages } from "@svc/core/store"
import { Effect } from "effect"
import type { GraphQLFieldConfig } from "graphql"
import type { GraphqlContext } from "./context.js"
import type { GraphqlKit } from "./parts.js"
import { readCaller } from "./store-contract.js"

/**
 * The creator page on the graph, as the store API has it (`GET /creator-page`): `store.creatorPage`, a `CreatorPage`,
 * the store API's `CreatorPageRow` with its `url` on the same public address, wherever the row is met.
 */
export const creatorPageQuery = ({ types }: GraphqlKit) =>
  Effect.gen(function* () {
    const pages = yield* StoreCreatorPage
    const { publicBase } = yield* StorePages
    types.rename(CreatorPageRow, "CreatorPage")
    const field: GraphQLFieldConfig<unknown, GraphqlContext> = {
      type: types.output(CreatorPageRow, "CreatorPage"),
      description:
        "The store's public page /s/<handle> as its creator shapes it: headline, bio, avatar, links, featured " +
        "products and the email sign-up block, with its url; the empty page when never set (GET /creator-page).",
      resolve: async (_source, _args, context) => {
        const caller = await readCaller(context)
        const page = await context.run(pages.get(caller))
        return creatorPageJson(page, { publicBase, handle: caller.store.handle })
      }
    }
    return field
  })
