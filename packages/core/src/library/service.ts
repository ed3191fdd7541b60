import { Clock, Effect, Option } from "effect"
import { makeEventRecorder } from "../events/service.js"
import { makeClipWriter } from "../highlights/writer.js"
import { invalid, NotFound } from "../shared/errors.js"
import { Ids, Transactor } from "../shared/ports.js"
import { LIBRARY_LIMITS } from "../items/limits.js"
import { type Platform, TITLE_MAX_CHARACTERS } from "../items/schema.js"
import { checkEach, inKeyOrder } from "./batch.js"
import { mediaCardOf } from "./cards.js"
import { LibraryRepo, type LibraryItem, LinkPreview, type LockedBoard, type NewLibraryItem } from "./ports.js"
import type { MediaKind } from "./schema.js"
import { postTitle, sourceFactsOf } from "./sources.js"
import { extensionOf, parseWebAddress, titleFromAddress, type WebAddress } from "./urls.js"
import { withSpan } from "../shared/spans.js"

/** A link to save, as the tools take it. */
export interface LinkInput {
  readonly url: string
  readonly title?: string | undefined
  readonly note?: string | undefined
  readonly text?: string | undefined
  readonly highlights?: ReadonlyArray<string> | undefined
}

/** A post or ad to save: an address, or a platform and the id the platform (or a research tool) gives it. */
export interface SourceInput {
  readonly url?: string | undefined
  readonly platform?: Platform | undefined
  readonly externalId?: string | undefined
  readonly author?: string | undefined
  readonly text?: string | undefined
  readonly title?: string | undefined
  readonly note?: string | undefined
}

/** A media card to add. */
export interface MediaInput {
  readonly url: string
  readonly kind?: MediaKind | undefined
  readonly title?: string | undefined
  readonly note?: string | undefined
}

/** How a kind of source is named in tool inputs, for messages that point at the right field. */
export interface SourceFields {
  readonly list: string
  readonly id: string
}

const MEDIA_EXTENSIONS: Record<string, MediaKind> = {
  jpg: "image",
  jpeg: "image",
  png: "image",
  webp: "image",
  avif: "image",
  heic: "image",
  svg: "image",
  bmp: "image",
  gif: "gif",
  mp4: "video",
  mov: "video",
  webm: "video",
  m4v: "video",
  mkv: "video"
}

// New items go on the board in a grid after the ones already there, so nothing lands on top of anything.
const GRID_COLUMNS = 4
const gridPosition = (index: number) => ({ x: (index % GRID_COLUMNS) * 360, y: Math.floor(index / GRID_COLUMNS) * 280 })

// Given titles are at most TITLE_MAX_CHARACTERS by their schema; made ones (a long page title, a long host) are cut.
const fitTitle = (title: string): string =>
  title.length > TITLE_MAX_CHARACTERS ? `${title.slice(0, TITLE_MAX_CHARACTERS - 1)}…` : title

const present = (text: string | undefined): string | null => {
  const trimmed = text?.trim() ?? ""
  return trimmed.length === 0 ? null : trimmed
}

// Fields with no value stay out of `data`, so a later save of the same thing can fill them in.
const known = (fields: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== null && value !== undefined))

const stringField = (item: LibraryItem, name: string): string | null => {
  const value = item.data[name]
  return typeof value === "string" ? value : null
}

/** Saving links, social posts, ads and media into the library, and onto a board when one is named. */
export class LibrarySaves extends Effect.Service<LibrarySaves>()("svc/library/LibrarySaves", {
  effect: Effect.gen(function* () {
    const repo = yield* LibraryRepo
    const previews = yield* LinkPreview
    const ids = yield* Ids
    const tx = yield* Transactor
    const recordEvent = yield* makeEventRecorder
    const clips = yield* makeClipWriter

    const address = (path: string, url: string) =>
      Option.match(parseWebAddress(url), {
        onNone: () =>
          Effect.fail(invalid(path, "must be an absolute http:// or https:// address without a user name or password")),
        onSome: Effect.succeed
      })

    const checkCount = (path: string, count: number, what: string) =>
      count === 0
        ? Effect.fail(invalid(path, `give at least one ${what}`))
        : count > LIBRARY_LIMITS.urlsPerCall
          ? Effect.fail(invalid(path, `at most ${LIBRARY_LIMITS.urlsPerCall} ${what}s per call; split the list`))
          : Effect.void

    /** Locks the board (inside the transaction) so its item count holds until the placement commits. */
    const lockBoard = (workspaceId: string, boardId: string) =>
      Effect.flatMap(
        repo.lockBoard(workspaceId, boardId),
        Option.match({
          onNone: () =>
            Effect.fail(
              new NotFound({
                message: `no board ${boardId} in this workspace (or it is in the trash); svc_list_workspace_items with type "board" lists them`
              })
            ),
          onSome: Effect.succeed
        })
      )

    /** Saves one item and records what happened to it. */
    const saveItem = (workspaceId: string, item: NewLibraryItem) =>
      Effect.gen(function* () {
        const saved = yield* repo.save(workspaceId, item)
        if (saved.outcome === "created") {
          yield* recordEvent(workspaceId, "item.created", {
            item_id: saved.item.id,
            type: item.type,
            title: saved.item.title,
            url: saved.item.url
          })
        } else if (saved.outcome === "updated") {
          yield* recordEvent(workspaceId, "item.updated", { item_id: saved.item.id, change: "filled-in" })
        } else if (saved.outcome === "restored") {
          yield* recordEvent(workspaceId, "item.restored", { item_id: saved.item.id, type: item.type })
        }
        return saved
      })

    /** Places saved items on a locked board, refusing to pass the board's item limit. */
    const placeOnBoard = (workspaceId: string, board: LockedBoard, itemIds: ReadonlyArray<string>, at: Date) =>
      Effect.gen(function* () {
        const distinct = [...new Set(itemIds)]
        const placements = distinct.map((itemId, i) => ({ itemId, ...gridPosition(board.itemCount + i) }))
        const added = yield* repo.place(board.id, placements, at)
        const itemCount = board.itemCount + added.length
        if (itemCount > LIBRARY_LIMITS.boardItems) {
          return yield* invalid(
            "boardId",
            `board ${board.id} holds ${board.itemCount} items and can take ${Math.max(0, LIBRARY_LIMITS.boardItems - board.itemCount)} more (at most ${LIBRARY_LIMITS.boardItems}); start another board`
          )
        }
        if (added.length > 0) {
          yield* recordEvent(workspaceId, "board.items_added", { board_id: board.id, item_ids: added })
        }
        return { id: board.id, title: board.title, added: added.length, itemCount }
      })

    /**
     * Saves links (a URL already saved in the workspace reuses its item), with their text as a capture and
     * their highlights; titles come from `LinkPreview` unless given.
     */
    const saveLinks = (
      workspaceId: string,
      input: {
        readonly urls?: ReadonlyArray<string> | undefined
        readonly links?: ReadonlyArray<LinkInput> | undefined
        readonly boardId?: string | undefined
      }
    ) =>
      Effect.gen(function* () {
        const entries: ReadonlyArray<{ readonly path: string; readonly link: LinkInput }> = [
          ...(input.urls ?? []).map((url, i) => ({ path: `urls.${i}`, link: { url } })),
          ...(input.links ?? []).map((link, i) => ({ path: `links.${i}`, link }))
        ]
        yield* checkCount(input.links && !input.urls ? "links" : "urls", entries.length, "link")
        const prepared = yield* checkEach(entries, ({ path, link }) =>
          Effect.gen(function* () {
            const where = path.startsWith("urls") ? path : `${path}.url`
            const parsed = yield* address(where, link.url)
            const highlights = (link.highlights ?? []).map((h) => h.trim()).filter((h) => h.length > 0)
            if (highlights.length > LIBRARY_LIMITS.highlightsPerLink) {
              return yield* invalid(
                `${path}.highlights`,
                `at most ${LIBRARY_LIMITS.highlightsPerLink} highlights per link`
              )
            }
            return { path, link, address: parsed, highlights }
          })
        )
        // Previews may reach the network, so they run before the transaction opens.
        const withPreviews = yield* Effect.forEach(
          prepared,
          (entry) => Effect.map(previews.preview(entry.address.href), (preview) => ({ ...entry, preview })),
          { concurrency: 4 }
        )
        const now = new Date(yield* Clock.currentTimeMillis)
        return yield* tx.withTransaction(
          Effect.gen(function* () {
            const board = input.boardId === undefined ? undefined : yield* lockBoard(workspaceId, input.boardId)
            const links = yield* inKeyOrder(
              withPreviews,
              (entry) => entry.address.href,
              (entry) =>
                Effect.gen(function* () {
                  const title = fitTitle(
                    present(entry.link.title) ?? entry.preview.title ?? titleFromAddress(entry.address)
                  )
                  const text = present(entry.link.text)
                  const { item, outcome } = yield* saveItem(workspaceId, {
                    id: yield* ids.make("link_"),
                    type: "link",
                    title,
                    url: entry.address.href,
                    note: present(entry.link.note) ?? "",
                    data: known({ description: entry.preview.description, preview: entry.preview.source, text }),
                    sourceKey: entry.address.href,
                    at: now
                  })
                  const captureId =
                    text === null
                      ? null
                      : yield* clips.addCapture(workspaceId, {
                          itemId: item.id,
                          sourceUrl: item.url,
                          platform: null,
                          title: item.title,
                          text
                        })
                  const highlights = yield* Effect.forEach(entry.highlights, (passage) =>
                    clips.addHighlight(workspaceId, item.id, passage, "")
                  )
                  return { item, outcome, captureId, highlights }
                })
            )
            const placed =
              board === undefined
                ? null
                : yield* placeOnBoard(
                    workspaceId,
                    board,
                    links.map((l) => l.item.id),
                    now
                  )
            return { links, board: placed }
          })
        )
      }).pipe(withSpan("LibrarySaves.saveLinks"))

    /** Saves social posts or ads; the same post (same platform id, or same address) reuses its item. */
    const saveSources = (
      workspaceId: string,
      type: "post" | "ad",
      fields: SourceFields,
      sources: ReadonlyArray<SourceInput>,
      boardId: string | undefined
    ) =>
      Effect.gen(function* () {
        yield* checkCount(fields.list, sources.length, type)
        const prepared = yield* checkEach(sources, (source, i) =>
          Effect.gen(function* () {
            const path = `${fields.list}.${i}`
            const parsed: WebAddress | null =
              source.url === undefined ? null : yield* address(`${path}.url`, source.url)
            const externalId = present(source.externalId)
            if (parsed === null && (source.platform === undefined || externalId === null)) {
              return yield* invalid(path, `give url, or platform and ${fields.id}`)
            }
            const facts = parsed
              ? sourceFactsOf(parsed)
              : { platform: "other" as const, externalId: null, author: null }
            const platform = source.platform ?? facts.platform
            const id = externalId ?? (platform === facts.platform ? facts.externalId : null)
            const author = present(source.author) ?? (platform === facts.platform ? facts.author : null)
            const text = present(source.text)
            const title = fitTitle(present(source.title) ?? postTitle(type, { platform, author, externalId: id }, text))
            // Known ids identify a post wherever its address came from; otherwise the address does.
            const sourceKey = id !== null ? `${platform}:${id}` : `url:${parsed?.href}`
            return { parsed, platform, id, author, text, title, sourceKey, note: present(source.note) ?? "" }
          })
        )
        const now = new Date(yield* Clock.currentTimeMillis)
        return yield* tx.withTransaction(
          Effect.gen(function* () {
            const board = boardId === undefined ? undefined : yield* lockBoard(workspaceId, boardId)
            const saved = yield* inKeyOrder(
              prepared,
              (entry) => entry.sourceKey,
              (entry) =>
                Effect.gen(function* () {
                  const { item, outcome } = yield* saveItem(workspaceId, {
                    id: yield* ids.make(type === "post" ? "post_" : "ad_"),
                    type,
                    title: entry.title,
                    url: entry.parsed?.href ?? null,
                    note: entry.note,
                    data: known({
                      platform: entry.platform,
                      externalId: entry.id,
                      author: entry.author,
                      text: entry.text
                    }),
                    sourceKey: entry.sourceKey,
                    at: now
                  })
                  const text = stringField(item, "text")
                  const captureId =
                    text === null
                      ? null
                      : yield* clips.addCapture(workspaceId, {
                          itemId: item.id,
                          sourceUrl: item.url,
                          platform: stringField(item, "platform"),
                          title: item.title,
                          text
                        })
                  return { item, outcome, captureId }
                })
            )
            const placed =
              board === undefined
                ? null
                : yield* placeOnBoard(
                    workspaceId,
                    board,
                    saved.map((s) => s.item.id),
                    now
                  )
            return { saved, board: placed }
          })
        )
      }).pipe(withSpan("LibrarySaves.saveSources"))

    /** Adds an image, video or GIF by address as a media card; the same address reuses its card. */
    const addMedia = (workspaceId: string, input: MediaInput & { readonly boardId?: string | undefined }) =>
      Effect.gen(function* () {
        const parsed = yield* address("url", input.url)
        const kind = input.kind ?? MEDIA_EXTENSIONS[extensionOf(parsed)]
        if (kind === undefined) {
          return yield* invalid(
            "kind",
            "cannot tell the media kind from the address (no .jpg, .png, .gif, .mp4, … extension); pass kind: image, video or gif"
          )
        }
        const title = fitTitle(present(input.title) ?? titleFromAddress(parsed))
        const now = new Date(yield* Clock.currentTimeMillis)
        return yield* tx.withTransaction(
          Effect.gen(function* () {
            const board = input.boardId === undefined ? undefined : yield* lockBoard(workspaceId, input.boardId)
            const { item, outcome } = yield* saveItem(workspaceId, {
              id: yield* ids.make("media_"),
              type: "media",
              title,
              url: parsed.href,
              note: present(input.note) ?? "",
              data: { kind },
              sourceKey: parsed.href,
              at: now
            })
            const placed = board === undefined ? null : yield* placeOnBoard(workspaceId, board, [item.id], now)
            const card = mediaCardOf(item, yield* repo.boardsOf(item.id))
            return { card, outcome, board: placed }
          })
        )
      }).pipe(withSpan("LibrarySaves.addMedia"))

    return { saveLinks, saveSources, addMedia } as const
  })
}) {}
