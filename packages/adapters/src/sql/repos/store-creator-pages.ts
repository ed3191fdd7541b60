import { type CreatorPage, CreatorPagesRepo } from "@svc/core/store"
import { Effect, Layer, Option, Schema } from "effect"
import { jsonColumn } from "../json-column.js"
import { LeanSql } from "../lean.js"

interface CreatorPageRow {
  readonly workspace_id: string
  readonly headline: string | null
  readonly bio: string | null
  readonly avatar_media_id: string | null
  readonly links: unknown
  readonly featured_product_ids: unknown
  readonly signup_shown: boolean
  readonly signup_heading: string
  readonly signup_text: string | null
  readonly updated_at: Date
}

const decodeLinks = Schema.decodeUnknownSync(Schema.Array(Schema.Struct({ label: Schema.String, url: Schema.String })))
const decodeIds = Schema.decodeUnknownSync(Schema.Array(Schema.String))

const toPage = (row: CreatorPageRow): CreatorPage => ({
  workspaceId: row.workspace_id,
  headline: row.headline,
  bio: row.bio,
  avatarMediaId: row.avatar_media_id,
  links: decodeLinks(jsonColumn(row.links)),
  featuredProductIds: decodeIds(jsonColumn(row.featured_product_ids)),
  signup: { shown: row.signup_shown, heading: row.signup_heading, text: row.signup_text },
  updatedAt: row.updated_at
})

/** `CreatorPagesRepo` over SQL: one row per workspace, written whole. */
export const CreatorPagesRepoSql = Layer.effect(
  CreatorPagesRepo,
  Effect.gen(function* () {
    const lean = yield* LeanSql
    return {
      find: (workspaceId) =>
        lean<CreatorPageRow>`SELECT * FROM store_creator_pages WHERE workspace_id = ${workspaceId}`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toPage)),
          Effect.orDie
        ),
      save: (p) =>
        lean`INSERT INTO store_creator_pages (workspace_id, headline, bio, avatar_media_id, links, featured_product_ids,
              signup_shown, signup_heading, signup_text, updated_at)
            VALUES (${p.workspaceId}, ${p.headline}, ${p.bio}, ${p.avatarMediaId}, ${JSON.stringify(p.links)}::jsonb,
              ${JSON.stringify(p.featuredProductIds)}::jsonb, ${p.signup.shown}, ${p.signup.heading},
              ${p.signup.text}, ${p.updatedAt ?? new Date()})
            ON CONFLICT (workspace_id) DO UPDATE SET headline = EXCLUDED.headline, bio = EXCLUDED.bio,
              avatar_media_id = EXCLUDED.avatar_media_id, links = EXCLUDED.links,
              featured_product_ids = EXCLUDED.featured_product_ids, signup_shown = EXCLUDED.signup_shown,
              signup_heading = EXCLUDED.signup_heading, signup_text = EXCLUDED.signup_text,
              updated_at = EXCLUDED.updated_at`.pipe(Effect.asVoid, Effect.orDie)
    }
  })
)
