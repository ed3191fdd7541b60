import { Context, type Effect } from "effect"
import type { Page, PageRequest } from "../shared/paging.js"

/** A chat of the workspace. */
export interface ChatRow {
  readonly id: string
  readonly title: string
  readonly customAIId: string | null
  readonly createdAt: Date
  readonly updatedAt: Date
}

/** Stored chats. */
export class ChatsRepo extends Context.Tag("svc/workspace/ChatsRepo")<
  ChatsRepo,
  {
    /** Chats, most recently active first; the page key's `createdAt` carries `updatedAt`. */
    readonly list: (
      workspaceId: string,
      filter: { readonly customAIId?: string | undefined },
      page: PageRequest
    ) => Effect.Effect<Page<ChatRow>>
  }
>() {}
