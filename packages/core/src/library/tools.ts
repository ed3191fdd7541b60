import { Effect, Schema } from "effect"
import { defineTool } from "../tools/tool.js"
import { LIBRARY_LIMITS } from "../items/limits.js"
import { Platform } from "../items/schema.js"
import type { LibraryItem, SaveOutcome } from "./ports.js"
import {
  BoardId,
  SavedOnBoard,
  ItemTitle,
  MediaCard,
  MediaKind,
  PreviewSource,
  SavedLink,
  SavedPost,
  SavedText,
  WebUrl
} from "./schema.js"
import { LibrarySaves, type SourceInput } from "./service.js"

const MAX = LIBRARY_LIMITS.urlsPerCall

const str = (item: LibraryItem, name: string): string | null => {
  const value = item.data[name]
  return typeof value === "string" ? value : null
}

const Note = Schema.String.pipe(Schema.maxLength(LIBRARY_LIMITS.itemNoteCharacters)).annotations({
  description: `The item note: what you think of it, up to ${LIBRARY_LIMITS.itemNoteCharacters} characters. Kept only if the item has no note yet.`
})

const textField = (what: string) =>
  SavedText.annotations({
    description: `${what}, up to ${LIBRARY_LIMITS.savedTextCharacters} characters. Saved as a capture (svc_search_captures) and searchable with svc_search_workspace_items.`
  })

const boardIdField = (required: boolean, what = "the items") =>
  BoardId.annotations({
    description: required
      ? `Board id (board_…) to place ${what} on; from svc_create_board or svc_list_workspace_items with type board.`
      : `Board id (board_…) to also place ${what} on. Leave out to save to the library only.`
  })

const PlacementOrNull = Schema.NullOr(SavedOnBoard).annotations({
  description: "The board the items were placed on, or null when no boardId was given."
})

const LinkEntry = Schema.Struct({
  url: WebUrl.annotations({
    description: `Absolute http(s) address of the page, up to ${LIBRARY_LIMITS.urlCharacters} characters.`
  }),
  title: Schema.optional(
    ItemTitle.annotations({ description: "Title to use instead of the one made from the page or address." })
  ),
  note: Schema.optional(Note),
  text: Schema.optional(textField("Text of the page you already have (an excerpt or the whole article)")),
  highlights: Schema.optional(
    Schema.Array(
      Schema.String.pipe(Schema.minLength(1), Schema.maxLength(LIBRARY_LIMITS.highlightCharacters)).annotations({
        description: `One passage, up to ${LIBRARY_LIMITS.highlightCharacters} characters.`
      })
    ).annotations({
      description: `Passages of the page to save as highlights (svc_search_highlights), at most ${LIBRARY_LIMITS.highlightsPerLink}. A passage already saved from this link is not saved twice.`
    })
  )
}).annotations({ description: "A link with optional title, note, page text and highlights." })

const sourceFields = {
  url: Schema.optional(
    WebUrl.annotations({
      description:
        "Address of the post or ad. Platform, id and author are read from it when it shows them (x.com/…/status/…, instagram.com/p/…, tiktok.com/@…/video/…, youtube.com/watch?v=…, linkedin.com/…activity…, facebook.com/ads/library/?id=…)."
    })
  ),
  platform: Schema.optional(Platform),
  text: Schema.optional(textField("Text of the post or ad, as shown")),
  title: Schema.optional(
    ItemTitle.annotations({ description: "Item title. Leave out to make one from the author and the text." })
  ),
  note: Schema.optional(Note)
}

const PostEntry = Schema.Struct({
  ...sourceFields,
  postId: Schema.optional(
    Schema.String.pipe(Schema.minLength(1), Schema.maxLength(200)).annotations({
      description: "The post's id on its platform (as the research tools return it). Needs platform."
    })
  ),
  author: Schema.optional(
    Schema.String.pipe(Schema.minLength(1), Schema.maxLength(200)).annotations({
      description: "Who posted it, e.g. @handle or a name."
    })
  )
}).annotations({ description: "A social post: give url, or platform and postId; author and text are kept as given." })

const AdEntry = Schema.Struct({
  ...sourceFields,
  adId: Schema.optional(
    Schema.String.pipe(Schema.minLength(1), Schema.maxLength(200)).annotations({
      description: "The ad's id on its platform or ad library (as svc_search_ads returns it). Needs platform."
    })
  ),
  brand: Schema.optional(
    Schema.String.pipe(Schema.minLength(1), Schema.maxLength(200)).annotations({
      description: "The brand or page running the ad."
    })
  )
}).annotations({ description: "An ad: give url, or platform and adId; brand and text are kept as given." })

const Posts = Schema.Array(PostEntry)
  .pipe(Schema.minItems(1), Schema.maxItems(MAX))
  .annotations({
    description: `Posts to save, 1 to ${MAX}. The same post saved again (same platform and id, or same address) reuses its item.`
  })

const reusedOf = (outcome: SaveOutcome) => outcome !== "created"

const toPost = (saved: { item: LibraryItem; outcome: SaveOutcome; captureId: string | null }) =>
  new SavedPost({
    id: saved.item.id,
    type: saved.item.type === "ad" ? "ad" : "post",
    title: saved.item.title,
    platform: Schema.is(Platform)(saved.item.data.platform) ? saved.item.data.platform : "other",
    externalId: str(saved.item, "externalId"),
    author: str(saved.item, "author"),
    text: str(saved.item, "text"),
    url: saved.item.url,
    reused: reusedOf(saved.outcome),
    captureId: saved.captureId,
    createdAt: saved.item.createdAt,
    updatedAt: saved.item.updatedAt
  })

const postSources = (posts: ReadonlyArray<typeof PostEntry.Type>): ReadonlyArray<SourceInput> =>
  posts.map(({ postId, ...rest }) => ({ ...rest, externalId: postId }))

/** The Boards & documents tools that save links, posts, ads and media. */
export const libraryTools = Effect.gen(function* () {
  const saves = yield* LibrarySaves
  return [
    defineTool({
      name: "svc_save_links_to_board",
      title: "Save links to board",
      group: "Boards & documents",
      write: true,
      annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: true },
      description: `Save web links as link items of the workspace, optionally on a board, and return each link (id, title, url, preview) and the board placement. Free. Titles come from the page-preview service; this server's default does not fetch pages and makes the title from the address (preview: "offline"). A URL already saved in the workspace reuses its item (reused: true). Give text to keep the page's words (a capture) and highlights to keep passages. At most ${MAX} links per call. Find them later with svc_search_workspace_items.`,
      input: {
        urls: Schema.optional(
          Schema.Array(WebUrl.annotations({ description: "Absolute http(s) address of a page." }))
            .pipe(Schema.maxItems(MAX))
            .annotations({ description: `Addresses to save, with nothing else; up to ${MAX} with links.` })
        ),
        links: Schema.optional(
          Schema.Array(LinkEntry)
            .pipe(Schema.maxItems(MAX))
            .annotations({
              description: `Links with a title, note, text or highlights; up to ${MAX} together with urls. Give urls or links (or both).`
            })
        ),
        boardId: Schema.optional(boardIdField(false))
      },
      output: {
        links: Schema.Array(SavedLink).annotations({ description: "The saved links, in the order given." }),
        board: PlacementOrNull
      },
      handler: (input, { workspace }) =>
        Effect.gen(function* () {
          const { id } = yield* workspace
          const result = yield* saves.saveLinks(id, input)
          return {
            links: result.links.map(
              ({ item, outcome, captureId, highlights }) =>
                new SavedLink({
                  id: item.id,
                  title: item.title,
                  url: item.url ?? "",
                  description: str(item, "description"),
                  preview: Schema.is(PreviewSource)(item.data.preview) ? item.data.preview : "offline",
                  note: item.note,
                  reused: reusedOf(outcome),
                  highlights,
                  captureId,
                  createdAt: item.createdAt,
                  updatedAt: item.updatedAt
                })
            ),
            board: result.board === null ? null : new SavedOnBoard(result.board)
          }
        })
    }),
    defineTool({
      name: "svc_save_posts_to_board",
      title: "Save posts to board",
      group: "Boards & documents",
      write: true,
      annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: false },
      description: `Save social posts to a board (and so to the library) and return each saved post (id, platform, author, text) and the board placement. Free. Give each post by url, or by platform and postId as the research tools return them; author and text are kept as given, and the text is also saved as a capture. The same post saved again reuses its item. At most ${MAX} per call. To save without a board use svc_save_posts_to_library.`,
      input: { posts: Posts, boardId: boardIdField(true) },
      output: {
        posts: Schema.Array(SavedPost).annotations({ description: "The saved posts, in the order given." }),
        board: SavedOnBoard
      },
      handler: (input, { workspace }) =>
        Effect.gen(function* () {
          const { id } = yield* workspace
          const fields = { list: "posts", id: "postId" }
          const result = yield* saves.saveSources(id, "post", fields, postSources(input.posts), input.boardId)
          // A board was named, so a placement is always there.
          if (result.board === null) return yield* Effect.dieMessage("a save with a boardId answered no placement")
          return { posts: result.saved.map(toPost), board: new SavedOnBoard(result.board) }
        })
    }),
    defineTool({
      name: "svc_save_posts_to_library",
      title: "Save posts to library",
      group: "Boards & documents",
      write: true,
      annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: false },
      description: `Save social posts to the workspace library and return each saved post (id, platform, author, text). Free. Give each post by url, or by platform and postId as the research tools return them; author and text are kept as given, and the text is also saved as a capture (svc_search_captures). The same post saved again reuses its item. At most ${MAX} per call. Put them on a board with svc_save_posts_to_board.`,
      input: { posts: Posts },
      output: { posts: Schema.Array(SavedPost).annotations({ description: "The saved posts, in the order given." }) },
      handler: (input, { workspace }) =>
        Effect.gen(function* () {
          const { id } = yield* workspace
          const fields = { list: "posts", id: "postId" }
          const result = yield* saves.saveSources(id, "post", fields, postSources(input.posts), undefined)
          return { posts: result.saved.map(toPost) }
        })
    }),
    defineTool({
      name: "svc_save_ads_to_board",
      title: "Save ads to board",
      group: "Boards & documents",
      write: true,
      annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: false },
      description: `Save ads to the workspace, optionally on a board, and return each saved ad (id, platform, brand as author, text) and the board placement. Free. Give each ad by url, or by platform and adId as svc_search_ads returns them; brand and text are kept as given, and the text is also saved as a capture. The same ad saved again reuses its item. At most ${MAX} per call.`,
      input: {
        ads: Schema.Array(AdEntry)
          .pipe(Schema.minItems(1), Schema.maxItems(MAX))
          .annotations({
            description: `Ads to save, 1 to ${MAX}. The same ad saved again (same platform and id, or same address) reuses its item.`
          }),
        boardId: Schema.optional(boardIdField(false))
      },
      output: {
        ads: Schema.Array(SavedPost).annotations({
          description: "The saved ads, in the order given (author holds the brand)."
        }),
        board: PlacementOrNull
      },
      handler: (input, { workspace }) =>
        Effect.gen(function* () {
          const { id } = yield* workspace
          const sources = input.ads.map(({ adId, brand, ...rest }) => ({ ...rest, externalId: adId, author: brand }))
          const result = yield* saves.saveSources(id, "ad", { list: "ads", id: "adId" }, sources, input.boardId)
          return {
            ads: result.saved.map(toPost),
            board: result.board === null ? null : new SavedOnBoard(result.board)
          }
        })
    }),
    defineTool({
      name: "svc_add_media_to_board",
      title: "Add media to board",
      group: "Boards & documents",
      write: true,
      annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: false },
      description:
        "Add an image, video or GIF by its address as a media card, optionally on a board, and return the card (id, kind, url, title, note, boards) and the placement. Free. The kind is read from the file extension unless given. The same address added again reuses its card. Read it later with svc_read_media_card.",
      input: {
        url: WebUrl.annotations({
          description: `Absolute http(s) address of the image or video file, up to ${LIBRARY_LIMITS.urlCharacters} characters.`
        }),
        kind: Schema.optional(
          MediaKind.annotations({
            description:
              "image, video or gif. Leave out when the address ends in a known extension (.jpg .jpeg .png .webp .avif .heic .svg .gif .mp4 .mov .webm .m4v)."
          })
        ),
        title: Schema.optional(
          ItemTitle.annotations({ description: "Card title. Leave out to make one from the address." })
        ),
        note: Schema.optional(Note),
        boardId: Schema.optional(boardIdField(false, "the card"))
      },
      output: {
        media: MediaCard,
        reused: Schema.Boolean.annotations({
          description: "True when this address was already a card of the workspace; that card is answered."
        }),
        board: PlacementOrNull
      },
      handler: (input, { workspace }) =>
        Effect.gen(function* () {
          const { id } = yield* workspace
          const result = yield* saves.addMedia(id, input)
          return {
            media: result.card,
            reused: reusedOf(result.outcome),
            board: result.board === null ? null : new SavedOnBoard(result.board)
          }
        })
    })
  ]
})
