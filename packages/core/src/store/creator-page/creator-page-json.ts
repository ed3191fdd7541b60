import type { CreatorPage, CreatorPageChanges } from "./creator-page.js"
import type { CreatorPageBody, CreatorPageRow } from "./creator-page-api.js"

/** The public page's address and its avatar's. */
export const creatorPageUrl = (publicBase: string, handle: string) => `${publicBase}/s/${encodeURIComponent(handle)}`
export const creatorAvatarUrl = (publicBase: string, handle: string) => `${creatorPageUrl(publicBase, handle)}/avatar`

/** The creator page as the store API (and the tool) answer it. */
export const creatorPageJson = (
  page: CreatorPage,
  where: { readonly publicBase: string; readonly handle: string }
): typeof CreatorPageRow.Type => ({
  url: creatorPageUrl(where.publicBase, where.handle),
  headline: page.headline,
  bio: page.bio,
  avatar_media_id: page.avatarMediaId,
  avatar_url: page.avatarMediaId === null ? null : creatorAvatarUrl(where.publicBase, where.handle),
  links: page.links.map((link) => ({ label: link.label, url: link.url })),
  featured_product_ids: [...page.featuredProductIds],
  signup: { shown: page.signup.shown, heading: page.signup.heading, text: page.signup.text },
  updated_at: page.updatedAt === null ? null : page.updatedAt.toISOString()
})

/** The body of `PATCH /creator-page` (and the graph's mutation) as the page's changes. */
export const creatorPageChangesOf = (body: typeof CreatorPageBody.Type): CreatorPageChanges => ({
  headline: body.headline,
  bio: body.bio,
  avatarMediaId: body.avatar_media_id,
  links: body.links,
  featuredProductIds: body.featured_product_ids,
  signup: body.signup
})
