import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import { Schema } from "effect"
import { strict } from "../../shared/list-wire.js"
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

const nullableString = Schema.NullOr(Schema.String)

/** One link of a creator page, on the wire. */
export const CreatorLinkRow = Schema.Struct({
  label: Schema.String.annotations({ description: `1 to ${CREATOR_LINK_LABEL_MAX} characters.` }),
  url: Schema.String.annotations({ description: `http(s), up to ${CREATOR_LINK_URL_MAX} characters.` })
}).annotations({ identifier: "CreatorLink", parseOptions: { onExcessProperty: "error" } })

/** The store's creator page as the store API answers it. */
export const CreatorPageRow = Schema.Struct({
  url: Schema.String.annotations({ description: "The public page." }),
  headline: nullableString,
  bio: nullableString,
  avatar_media_id: nullableString,
  avatar_url: nullableString,
  links: Schema.Array(CreatorLinkRow),
  featured_product_ids: Schema.Array(Schema.String),
  signup: Schema.Struct({ shown: Schema.Boolean, heading: Schema.String, text: nullableString }),
  updated_at: Schema.NullOr(Schema.String).annotations({ description: "null: never set." })
}).annotations({ identifier: "CreatorPageRow", description: "The store's public page as its creator shapes it." })

/** What `PATCH /creator-page` takes: each field given replaces the kept one; null or "" clears it. */
export const CreatorPageBody = Schema.Struct({
  headline: Schema.optional(nullableString).annotations({ description: `Up to ${CREATOR_HEADLINE_MAX} characters.` }),
  bio: Schema.optional(nullableString).annotations({ description: `Up to ${CREATOR_BIO_MAX} characters.` }),
  avatar_media_id: Schema.optional(nullableString).annotations({
    description: "An image or GIF of the workspace's media library (upload it first: POST /v1/media)."
  }),
  links: Schema.optional(Schema.NullOr(Schema.Array(CreatorLinkRow))).annotations({
    description: `The whole list, up to ${CREATOR_LINKS_MAX}, in order; null or [] removes them.`
  }),
  featured_product_ids: Schema.optional(Schema.NullOr(Schema.Array(Schema.String))).annotations({
    description: `The whole list, up to ${CREATOR_FEATURED_MAX} product ids of this store, in order.`
  }),
  signup: Schema.optional(
    Schema.Struct({
      shown: Schema.optional(Schema.Boolean),
      heading: Schema.optional(nullableString).annotations({
        description: `Up to ${SIGNUP_HEADING_MAX} characters; null: "Join the email list".`
      }),
      text: Schema.optional(nullableString).annotations({ description: `Up to ${SIGNUP_TEXT_MAX} characters.` })
    }).annotations({ parseOptions: { onExcessProperty: "error" } })
  )
}).annotations(strict)

/** The answer of both routes. */
export const CreatorPageAnswer = Schema.Struct({ ok: Schema.Literal(true), creator_page: CreatorPageRow })

/** The creator page on the store API: read it, change it. */
export const CreatorPageApiGroup = HttpApiGroup.make("creatorPage")
  .add(
    HttpApiEndpoint.get("get", "/creator-page")
      .addSuccess(CreatorPageAnswer)
      .annotate(OpenApi.Summary, "Get the creator page")
      .annotate(OpenApi.Description, "The store's public page settings, with its url.")
  )
  .add(
    HttpApiEndpoint.patch("update", "/creator-page")
      .setPayload(CreatorPageBody)
      .addSuccess(CreatorPageAnswer)
      .annotate(OpenApi.Summary, "Change the creator page")
      .annotate(
        OpenApi.Description,
        "Changes the store's public page /s/<handle>: headline, bio, avatar, links, featured products and the sign-up block. All or none: 422 names each broken rule (links.2.url, featured_product_ids.0). Needs an API key with Store on Edit (not an automation connection)."
      )
  )
