import { Context, type Effect, type Option } from "effect"
import type { Page, PageRequest } from "../shared/paging.js"
import type { CustomAi } from "./schema.js"

/** The fields of a Custom AI a change may set. */
export interface CustomAiChanges {
  readonly name?: string
  readonly kind?: CustomAi["kind"]
  readonly description?: string
  readonly instructions?: string
  readonly isDefault?: boolean
  readonly updatedAt: Date
}

/** Stored Custom AIs. */
export class CustomAisRepo extends Context.Tag("svc/custom-ai/CustomAisRepo")<
  CustomAisRepo,
  {
    /** Adds a Custom AI; when it is the default, the workspace's former default stops being one, atomically. */
    readonly insert: (customAi: CustomAi) => Effect.Effect<void>
    /** One Custom AI of the workspace (never another workspace's). */
    readonly find: (workspaceId: string, id: string) => Effect.Effect<Option.Option<CustomAi>>
    /** The workspace's default assistant, if it has one. */
    readonly findDefault: (workspaceId: string) => Effect.Effect<Option.Option<CustomAi>>
    /** The workspace's Custom AIs, newest first. */
    readonly list: (workspaceId: string) => Effect.Effect<ReadonlyArray<CustomAi>>
    /** A page of the workspace's Custom AIs, newest first (keyset on created_at, id). */
    readonly listPage: (workspaceId: string, page: PageRequest) => Effect.Effect<Page<CustomAi>>
    readonly count: (workspaceId: string) => Effect.Effect<number>
    /** Applies `changes`; answers the Custom AI as it now is, none when it does not exist. */
    readonly update: (
      workspaceId: string,
      id: string,
      changes: CustomAiChanges
    ) => Effect.Effect<Option.Option<CustomAi>>
    /**
     * Deletes it with its knowledge and chats, unless a store product sells it (`sold`). When it was the default,
     * the newest remaining one becomes the default.
     */
    readonly remove: (workspaceId: string, id: string) => Effect.Effect<"removed" | "not_found" | "sold">
  }
>() {}
