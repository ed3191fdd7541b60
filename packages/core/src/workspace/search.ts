import { Effect, Either, Option } from "effect"
import type { ItemType } from "../items/schema.js"
import { SearchRepo } from "../items/search-ports.js"
import { mediaCardOf } from "../library/cards.js"
import { LibraryRepo } from "../library/ports.js"
import { invalid, NotFound } from "../shared/errors.js"
import { decodeCursor, encodeCursor } from "../shared/paging.js"
import { decodeSearchCursor, encodeSearchCursor } from "../shared/ranked-paging.js"
import { ChatsRepo } from "./ports.js"
import { withSpan } from "../shared/spans.js"

/** Full-text search over the workspace, media cards and chats. */
export class WorkspaceSearch extends Effect.Service<WorkspaceSearch>()("svc/workspace/WorkspaceSearch", {
  effect: Effect.gen(function* () {
    const search = yield* SearchRepo
    const library = yield* LibraryRepo
    const chats = yield* ChatsRepo

    /**
     * Items matching a websearch-syntax query (`"exact phrase"`, `or`, `-word`), best first by ts_rank, each with a
     * snippet. The cursor is a keyset on (rank, id), tied to the query and type it was issued for.
     */
    const searchItems = (
      workspaceId: string,
      input: {
        readonly query: string
        readonly type?: ItemType | undefined
        readonly limit?: number | undefined
        readonly cursor?: string | undefined
      }
    ) =>
      Effect.gen(function* () {
        const query = input.query.trim()
        if (!(yield* search.hasTerms(query))) {
          return yield* invalid(
            "query",
            "the query has no searchable words (only common words or punctuation); search for more specific words"
          )
        }
        const key = JSON.stringify([query, input.type ?? null])
        const position =
          input.cursor === undefined
            ? undefined
            : yield* Either.match(decodeSearchCursor(input.cursor, key), {
                onLeft: Effect.fail,
                onRight: Effect.succeed
              })
        if (position?._tag === "Recent") return yield* invalid("cursor", "this cursor belongs to another list")
        const page = yield* search.searchItems(
          workspaceId,
          query,
          { type: input.type },
          {
            limit: input.limit ?? 25,
            after: position?.key
          }
        )
        return {
          rows: page.rows,
          nextCursor: page.next ? encodeSearchCursor({ _tag: "Ranked", key: page.next }, key) : undefined
        }
      }).pipe(withSpan("WorkspaceSearch.searchItems"))

    /** One media card with the boards it sits on. */
    const readMediaCard = (workspaceId: string, mediaId: string) =>
      Effect.gen(function* () {
        const found = yield* library.find(workspaceId, mediaId, "media")
        if (Option.isNone(found)) {
          return yield* new NotFound({
            message: `no media card ${mediaId} in this workspace (or it is in the trash); svc_list_workspace_items with type "media" lists them`
          })
        }
        return mediaCardOf(found.value, yield* library.boardsOf(mediaId))
      }).pipe(withSpan("WorkspaceSearch.readMediaCard"))

    /** The workspace's chats, most recently active first. */
    const listChats = (
      workspaceId: string,
      input: {
        readonly customAIId?: string | undefined
        readonly limit?: number | undefined
        readonly cursor?: string | undefined
      }
    ) =>
      Effect.gen(function* () {
        const after =
          input.cursor === undefined
            ? undefined
            : yield* Either.match(decodeCursor(input.cursor), { onLeft: Effect.fail, onRight: Effect.succeed })
        const page = yield* chats.list(
          workspaceId,
          { customAIId: input.customAIId },
          { limit: input.limit ?? 25, after }
        )
        return { rows: page.rows, nextCursor: page.next ? encodeCursor(page.next) : undefined }
      }).pipe(withSpan("WorkspaceSearch.listChats"))

    return { searchItems, readMediaCard, listChats } as const
  })
}) {}
