import { Effect, Schema } from "effect"
import { invalid } from "../../shared/errors.js"
import { defineTool } from "../../tools/tool.js"
import { LINK_TITLE_MAX, LINK_URL_MAX, LINKS_PER_PRODUCT_MAX, StoreContentLinks } from "./content-links.js"
import { makeStoreOfCall, StoreHandleField } from "../tool-support.js"

// Ids carry only a length cap (an empty one is not found): every byte of the input schema is in tools/list.
const LinkId = Schema.String.pipe(Schema.maxLength(100))

const LinkOutput = Schema.Struct({
  id: Schema.String.annotations({ description: "Link id (link_…)." }),
  title: Schema.String.annotations({ description: "What the buyer sees." }),
  url: Schema.String.annotations({ description: "The http or https address." }),
  position: Schema.Int.annotations({ description: "Its place in the list, from 0." })
})

/** The Store group's svc_manage_content_links. */
export const contentLinkTools = Effect.gen(function* () {
  const links = yield* StoreContentLinks
  const storeOf = yield* makeStoreOfCall

  return [
    defineTool({
      name: "svc_manage_content_links",
      title: "Manage content links",
      group: "Store",
      write: true,
      annotations: { destructiveHint: true, idempotentHint: false, openWorldHint: false },
      description: `List, add, reorder or remove the links a product delivers (at most ${LINKS_PER_PRODUCT_MAX}), sent in its access email. Answers the links.`,
      input: {
        storeHandle: StoreHandleField,
        action: Schema.Literal("list", "add", "reorder", "remove").annotations({ description: "What to do." }),
        productId: Schema.String.pipe(Schema.maxLength(100)).annotations({ description: "Product id (prod_…)." }),
        title: Schema.optional(
          Schema.String.pipe(Schema.maxLength(LINK_TITLE_MAX)).annotations({
            description: "add: link title."
          })
        ),
        url: Schema.optional(
          Schema.String.pipe(Schema.maxLength(LINK_URL_MAX)).annotations({
            description: "add: http(s) address."
          })
        ),
        linkIds: Schema.optional(
          Schema.Array(LinkId)
            .pipe(Schema.maxItems(LINKS_PER_PRODUCT_MAX))
            .annotations({ description: "reorder: all link ids, new order." })
        ),
        linkId: Schema.optional(LinkId.annotations({ description: "remove: link id." }))
      },
      output: {
        links: Schema.Array(LinkOutput).annotations({ description: "The product's links, in order." })
      },
      handler: (input, context) =>
        Effect.gen(function* () {
          const caller = yield* storeOf(context, input.storeHandle)
          const needs = (field: "title" | "url" | "linkIds" | "linkId", actions: ReadonlyArray<string>) =>
            input[field] !== undefined && !actions.includes(input.action)
              ? Effect.fail(invalid(field, `${field} is for action ${actions.join(" or ")} only`))
              : input[field] === undefined && actions.includes(input.action)
                ? Effect.fail(invalid(field, `action ${input.action} needs ${field}`))
                : Effect.void
          yield* needs("title", ["add"])
          yield* needs("url", ["add"])
          yield* needs("linkIds", ["reorder"])
          yield* needs("linkId", ["remove"])
          const productId = input.productId
          const answer =
            input.action === "list"
              ? yield* links.list(caller, productId)
              : input.action === "add"
                ? yield* links.add(caller, { productId, title: input.title ?? "", url: input.url ?? "" })
                : input.action === "reorder"
                  ? yield* links.reorder(caller, { productId, linkIds: input.linkIds ?? [] })
                  : yield* links.remove(caller, { productId, linkId: input.linkId ?? "" })
          return { links: answer }
        })
    })
  ]
})
