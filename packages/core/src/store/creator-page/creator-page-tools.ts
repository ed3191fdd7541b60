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

// "" clears a text and [] empties a list: no null, so each field is one plain type (and the input decodes fast).
const clearable = (max: number, description: string) =>
  Schema.optional(Schema.String.pipe(Schema.maxLength(max)).annotations({ description }))

const Link = Schema.Struct({
  label: Schema.String.pipe(Schema.maxLength(CREATOR_LINK_LABEL_MAX)).annotations({ description: "e.g. Blog." }),
  url: Schema.String.pipe(Schema.maxLength(CREATOR_LINK_URL_MAX)).annotations({ description: "An http(s) URL." })
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
      title: "Update creator page",
      group: "Store",
      write: true,
      annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: false },
      description: `Set the public page /s/<handle>: headline, bio, avatar, links, featured products, sign-up block. Omitted fields stay; "" clears a text; a list replaces the old one. All or none; no field: reads it.`,
      input: {
        storeHandle: StoreHandleField,
        headline: clearable(CREATOR_HEADLINE_MAX, "Line under the name."),
        bio: clearable(CREATOR_BIO_MAX, "Plain text paragraphs."),
        avatarMediaId: clearable(100, "Image media id (med_…)."),
        links: Schema.optional(
          Schema.Array(Link).pipe(Schema.maxItems(CREATOR_LINKS_MAX)).annotations({ description: "Links, in order." })
        ),
        featuredProductIds: Schema.optional(
          Schema.Array(Schema.String.pipe(Schema.maxLength(100)).annotations({ description: "prod_…" }))
            .pipe(Schema.maxItems(CREATOR_FEATURED_MAX))
            .annotations({ description: "Product ids shown first (live ones)." })
        ),
        signupShown: Schema.optional(Schema.Boolean.annotations({ description: "false hides sign-up." })),
        signupHeading: clearable(SIGNUP_HEADING_MAX, "Sign-up heading."),
        signupText: clearable(SIGNUP_TEXT_MAX, "Line above sign-up.")
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
