import { Context, type Effect, type Option } from "effect"
import type { Page, PageRequest } from "../shared/paging.js"
import type { ResearchPlatform } from "./schema.js"

/** Kinds of research list: creators to compare, or brands whose ads to watch. */
export type ResearchListKind = "creators" | "brands"

/** A workspace's named list of creators or brands. */
export interface ResearchList {
  readonly id: string
  readonly workspaceId: string
  readonly kind: ResearchListKind
  readonly name: string
  readonly memberCount: number
  readonly createdAt: Date
  readonly updatedAt: Date
}

/**
 * One member of a list. For a creator: `platform` and the network's `key` (its id); for a brand: platform `null` and
 * the ad library's page id. `name` and `handle` are kept as saved so a list reads without asking a source.
 */
export interface ResearchListMember {
  readonly listId: string
  readonly platform: ResearchPlatform | null
  readonly key: string
  readonly handle: string
  readonly name: string
  readonly url: string | null
  readonly addedAt: Date
}

/** Stored research lists. Names are unique per workspace and kind, case-insensitively. */
export class ResearchListsRepo extends Context.Tag("svc/research/ResearchListsRepo")<
  ResearchListsRepo,
  {
    /** The list of the workspace with this id, or with this name (case-insensitive) and kind. */
    readonly find: (workspaceId: string, id: string) => Effect.Effect<Option.Option<ResearchList>>
    readonly findByName: (
      workspaceId: string,
      kind: ResearchListKind,
      name: string
    ) => Effect.Effect<Option.Option<ResearchList>>
    /** Creates an empty list (inside the caller's transaction). */
    readonly insert: (list: Omit<ResearchList, "memberCount">) => Effect.Effect<void>
    /** The workspace's lists of a kind, newest first. */
    readonly listPage: (
      workspaceId: string,
      kind: ResearchListKind | undefined,
      page: PageRequest
    ) => Effect.Effect<Page<ResearchList>>
    readonly countLists: (workspaceId: string) => Effect.Effect<number>
    /** Locks the list row for a change of its members (inside a transaction). */
    readonly lock: (workspaceId: string, id: string) => Effect.Effect<Option.Option<ResearchList>>
    /** Adds members not yet on the list (same platform and key); answers how many were new. Touches `updatedAt`. */
    readonly addMembers: (listId: string, members: ReadonlyArray<ResearchListMember>, at: Date) => Effect.Effect<number>
    /** Removes members by (platform, key); answers how many were removed. Touches `updatedAt`. */
    readonly removeMembers: (
      listId: string,
      keys: ReadonlyArray<{ readonly platform: ResearchPlatform | null; readonly key: string }>,
      at: Date
    ) => Effect.Effect<number>
    /** Every member, in the order they were added (lists are capped, see `RESEARCH_LIMITS`). */
    readonly members: (listId: string) => Effect.Effect<ReadonlyArray<ResearchListMember>>
  }
>() {}

/** A cached source answer: the JSON it was, and when it was fetched. */
export interface CachedAnswer {
  readonly value: unknown
  readonly fetchedAt: Date
}

/**
 * Source answers kept for a while, shared by every instance, so repeated research costs the source nothing. Keys
 * are the source's name, the kind of question and its arguments; an entry past `expiresAt` is never answered.
 */
export class ResearchCache extends Context.Tag("svc/research/ResearchCache")<
  ResearchCache,
  {
    readonly get: (key: string, now: Date) => Effect.Effect<Option.Option<CachedAnswer>>
    readonly put: (key: string, value: unknown, fetchedAt: Date, expiresAt: Date) => Effect.Effect<void>
    /** Deletes entries that expired before `now`; answers how many. */
    readonly purgeExpired: (now: Date, limit: number) => Effect.Effect<number>
  }
>() {}

/** A social post, ad or link saved in the workspace's library, as research reads it. */
export interface SavedSocialItem {
  readonly id: string
  readonly type: "post" | "ad" | "link"
  readonly title: string
  readonly url: string | null
  readonly note: string
  /** The saved post's platform (`x`, `linkedin`, …, `other`); null for links. */
  readonly platform: string | null
  readonly externalId: string | null
  /** The author (or brand) as saved, e.g. `@alice`; null when unknown. */
  readonly author: string | null
  /** The saved text (a post's words, a link's description); empty when none. */
  readonly text: string
  readonly createdAt: Date
}

/** An author whose posts the workspace saved, with how many. */
export interface SavedAuthor {
  readonly platform: string
  readonly author: string
  readonly posts: number
}

/** The workspace's library read as research data: saved posts, ads and links (outside the trash). */
export class ResearchLibraryRepo extends Context.Tag("svc/research/ResearchLibraryRepo")<
  ResearchLibraryRepo,
  {
    /** Saved posts and links matching a websearch-syntax query, best first. */
    readonly search: (
      workspaceId: string,
      query: string,
      types: ReadonlyArray<SavedSocialItem["type"]>,
      limit: number
    ) => Effect.Effect<ReadonlyArray<SavedSocialItem>>
    /** Saved posts by an author (compared case-insensitively, a leading `@` ignored), newest first. */
    readonly byAuthor: (
      workspaceId: string,
      author: string,
      platform: string | undefined,
      limit: number
    ) => Effect.Effect<ReadonlyArray<SavedSocialItem>>
    /** Authors of saved posts whose name contains `query` (case-insensitive), most saved first. */
    readonly authors: (workspaceId: string, query: string, limit: number) => Effect.Effect<ReadonlyArray<SavedAuthor>>
    /** A saved post, ad or link by item id or by address. */
    readonly find: (workspaceId: string, idOrUrl: string) => Effect.Effect<Option.Option<SavedSocialItem>>
  }
>() {}
