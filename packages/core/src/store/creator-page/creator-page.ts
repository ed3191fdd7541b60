/** The most links a creator page lists. */
export const CREATOR_LINKS_MAX = 10
/** The most products a creator page features. */
export const CREATOR_FEATURED_MAX = 6
export const CREATOR_HEADLINE_MAX = 120
export const CREATOR_BIO_MAX = 2_000
export const CREATOR_LINK_LABEL_MAX = 60
export const CREATOR_LINK_URL_MAX = 500
export const SIGNUP_HEADING_MAX = 80
export const SIGNUP_TEXT_MAX = 300
/** The sign-up block's heading when the seller gives none. */
export const DEFAULT_SIGNUP_HEADING = "Join the email list"

/** One link of a creator page: where else to find the creator. */
export interface CreatorLink {
  readonly label: string
  readonly url: string
}

/** The email sign-up block of a creator page. */
export interface SignupBlock {
  /** Whether the page shows the sign-up form at all. */
  readonly shown: boolean
  readonly heading: string
  /** A line above the form (what the list sends, how often); null: none. */
  readonly text: string | null
}

/**
 * The store's public page as its creator shapes it (`/s/<handle>`): who they are, where else to find them, the
 * products they put first, and the email sign-up. A store that never set it has {@link emptyCreatorPage}.
 */
export interface CreatorPage {
  readonly workspaceId: string
  /** One line under the store's name. */
  readonly headline: string | null
  /** A few paragraphs of plain text (blank lines part them). */
  readonly bio: string | null
  /** An image of the store's media library (`med_…`), shown round at the top. */
  readonly avatarMediaId: string | null
  readonly links: ReadonlyArray<CreatorLink>
  /** Products shown first, as cards with price and rating, in this order (only live ones are shown). */
  readonly featuredProductIds: ReadonlyArray<string>
  readonly signup: SignupBlock
  readonly updatedAt: Date | null
}

/** A creator page nobody set: the store's name, its products and the sign-up form, as before. */
export const emptyCreatorPage = (workspaceId: string): CreatorPage => ({
  workspaceId,
  headline: null,
  bio: null,
  avatarMediaId: null,
  links: [],
  featuredProductIds: [],
  signup: { shown: true, heading: DEFAULT_SIGNUP_HEADING, text: null },
  updatedAt: null
})

/** What an update changes: each field given replaces the one kept (null clears it); a field left out stays. */
export interface CreatorPageChanges {
  readonly headline?: string | null | undefined
  readonly bio?: string | null | undefined
  readonly avatarMediaId?: string | null | undefined
  readonly links?: ReadonlyArray<CreatorLink> | null | undefined
  readonly featuredProductIds?: ReadonlyArray<string> | null | undefined
  readonly signup?:
    | {
        readonly shown?: boolean | undefined
        readonly heading?: string | null | undefined
        readonly text?: string | null | undefined
      }
    | undefined
}
