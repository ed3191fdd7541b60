import { Effect, Schema } from "effect"
import { InvalidInput, renamePaths } from "../../shared/errors.js"
import { defineTool } from "../../tools/tool.js"
import { StorePages } from "../catalog/store-pages.js"
import { makeStoreOfCall, StoreHandleField } from "../tool-support.js"
import {
  CREATOR_BIO_MAX,
  CREATOR_FEATURED_MAX,
  CREATOR_HEADLINE_MAX,
  CREATOR_LINK_LABEL_MAX,
  CREATOR_LINK_URL_MAX,
  CREATOR_LINKS_MAX,
  SIGNUP_HEADING_MAX,
  SIGNUP_TEXT_MAX
} from "./creator-page.js"
import { CreatorPageRow } from "./creator-page-api.js"
import { creatorPageJson } from "./creator-page-json.js"
import { saidWithPaths, StoreCreatorPage } from "./creator-pages.js"

const clearable = (max: number, description: string) =>
  Schema.optional(Schema.NullOr(Schema.String.pipe(Schema.maxLength(max)))).annotations({ description })

const Link = Schema.Struct({
  label: Schema.String.pipe(Schema.maxLength(CREATOR_LINK_LABEL_MAX)).annotations({ description: "e.g. YouTube." }),
  url: Schema.String.pipe(Schema.maxLength(CREATOR_LINK_URL_MAX)).annotations({ description: "http(s) address." })
}).annotations({ parseOptions: { onExcessProperty: "error" } })

const TOOL_FIELDS: Readonly<Record<string, string>> = {
  avatar_media_id: "avatarMediaId",
  featured_product_ids: "featuredProductIds",
  // The sign-up block is three flat fields here.
  "signup.shown": "signupShown",
  "signup.heading": "signupHeading",
  "signup.text": "signupText"
}

/** A refusal of the page's fields, with each path (and the message naming it) in this tool's own field names. */
const inToolFields = (error: InvalidInput) => {
  const renamed = renamePaths(error, (path) => {
    const head = Object.keys(TOOL_FIELDS).find((name) => path === name || path.startsWith(`${name}.`))
    return head === undefined ? path : `${TOOL_FIELDS[head]}${path.slice(head.length)}`
  })
  return new InvalidInput({ message: saidWithPaths(renamed.errors), errors: renamed.errors, next: renamed.next })
}

/** The Store group's svc_update_creator_page. */
export const creatorPageTools = Effect.gen(function* () {
  const pages = yield* StoreCreatorPage
  const storeOf = yield* makeStoreOfCall
  const { publicBase } = yield* StorePages
  return [
    defineTool({
      name: "svc_update_creator_page",
      title: "Update the creator page",
      group: "Store",
      write: true,
      annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: false },
      description: `Shape the store's public page /s/<handle>: headline, bio, avatar (an image uploaded to the media library), up to ${CREATOR_LINKS_MAX} links, up to ${CREATOR_FEATURED_MAX} featured products (cards with price and rating) and the email sign-up block. Fields left out stay; null or "" clears one; links and featuredProductIds replace the whole list. All or none. With no field it answers the page as it is.`,
      input: {
        storeHandle: StoreHandleField,
        headline: clearable(CREATOR_HEADLINE_MAX, "One line under the store's name."),
        bio: clearable(CREATOR_BIO_MAX, "Plain text; blank lines part paragraphs."),
        avatarMediaId: clearable(100, "An image's media id (med_…), from svc_upload_scheduling_media."),
        links: Schema.optional(Schema.NullOr(Schema.Array(Link).pipe(Schema.maxItems(CREATOR_LINKS_MAX)))).annotations({
          description: "The whole list of links, in order."
        }),
        featuredProductIds: Schema.optional(
          Schema.NullOr(
            Schema.Array(Schema.String.pipe(Schema.maxLength(100))).pipe(Schema.maxItems(CREATOR_FEATURED_MAX))
          )
        ).annotations({ description: "Product ids (prod_…) shown first, in order; only live ones show." }),
        signupShown: Schema.optional(Schema.Boolean).annotations({ description: "false hides the sign-up form." }),
        signupHeading: clearable(SIGNUP_HEADING_MAX, 'Its heading; null: "Join the email list".'),
        signupText: clearable(SIGNUP_TEXT_MAX, "A line above the sign-up form.")
      },
      output: {
        creatorPage: CreatorPageRow.annotations({ description: "The page now, with its url." })
      },
      handler: (input, context) =>
        Effect.gen(function* () {
          const caller = yield* storeOf(context, input.storeHandle)
          const changes = {
            headline: input.headline,
            bio: input.bio,
            avatarMediaId: input.avatarMediaId,
            links: input.links,
            featuredProductIds: input.featuredProductIds,
            signup: { shown: input.signupShown, heading: input.signupHeading, text: input.signupText }
          }
          const unchanged = Object.entries(input).every(([key, value]) => key === "storeHandle" || value === undefined)
          const page = unchanged ? yield* pages.get(caller) : yield* pages.update(caller, changes)
          return { creatorPage: creatorPageJson(page, { publicBase, handle: caller.store.handle }) }
        }).pipe(Effect.mapError((error) => (error instanceof InvalidInput ? inToolFields(error) : error)))
    })
  ]
})
