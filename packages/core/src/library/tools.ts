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
  description: "Your note on the item; kept only if it has none yet."
})

const textField = (what: string) =>
  SavedText.annotations({
    description: `${what}, saved as a capture. Search: svc_search_captures.`
  })

const boardIdField = (required: boolean, what = "the items") =>
  BoardId.annotations({
    description: required
      ? `Board id (board_…) to place ${what} on. From svc_create_board or svc_list_workspace_items.`
      : `Board id (board_…) to also place ${what} on; omit to save to the library only.`
  })

const PlacementOrNull = Schema.NullOr(SavedOnBoard).annotations({
  description: "The board the items were placed on, or null when no boardId was given."
})

const LinkEntry = Schema.Struct({
  url: WebUrl.annotations({
    description: "Absolute http(s) address of the page."
  }),
  title: Schema.optional(
    ItemTitle.annotations({ description: "Title instead of the one made from the page or address." })
  ),
  note: Schema.optional(Note),
  text: Schema.optional(textField("Text of the page you have (excerpt or whole)")),
  highlights: Schema.optional(
    Schema.Array(
      Schema.String.pipe(Schema.minLength(1), Schema.maxLength(LIBRARY_LIMITS.highlightCharacters)).annotations({
        description: "One passage."
      })
    ).annotations({
      description: `Passages to save as highlights, at most ${LIBRARY_LIMITS.highlightsPerLink}; a passage saved before is not saved twice. Search: svc_search_highlights.`
    })
  )
}).annotations({ description: "A link with optional title, note, text and highlights." })

const sourceFields = {
  url: Schema.optional(
    WebUrl.annotations({
      description:
        "Address of the post or ad; platform, id and author are read from x.com, instagram, tiktok, youtube, linkedin and facebook ad library links."
    })
  ),
  platform: Schema.optional(Platform),
  text: Schema.optional(textField("Text of the post or ad, as shown")),
  title: Schema.optional(ItemTitle.annotations({ description: "Item title; omit to make one from author and text." })),
  note: Schema.optional(Note)
}

const PostEntry = Schema.Struct({
  ...sourceFields,
  postId: Schema.optional(
    Schema.String.pipe(Schema.minLength(1), Schema.maxLength(200)).annotations({
      description: "The post's id on its platform, as research tools return it; needs platform."
    })
  ),
  author: Schema.optional(
    Schema.String.pipe(Schema.minLength(1), Schema.maxLength(200)).annotations({
      description: "Who posted it, e.g. @handle or a name."
    })
  )
}).annotations({ description: "A social post: url, or platform and postId." })

const AdEntry = Schema.Struct({
  ...sourceFields,
  adId: Schema.optional(
    Schema.String.pipe(Schema.minLength(1), Schema.maxLength(200)).annotations({
      description: "The ad's id on its platform; needs platform."
    })
  ),
  brand: Schema.optional(
    Schema.String.pipe(Schema.minLength(1), Schema.maxLength(200)).annotations({
      description: "The brand or page running the ad."
    })
  )
}).annotations({ description: "An ad: url, or platform and adId." })

const Posts = Schema.Array(PostEntry)
  .pipe(Schema.minItems(1), Schema.maxItems(MAX))
  .annotations({
    description: `Posts to save, 1 to ${MAX}; a post saved before (same platform and id, or address) reuses its item.`
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
      description: `Save web links as link items, optionally on a board: each link (id, title, url, preview) and its placement. Free. Titles come from a page preview ("offline": from the address). A saved URL reuses its item (reused: true). Find them with svc_search_workspace_items.`,
      input: {
        urls: Schema.optional(
          Schema.Array(WebUrl.annotations({ description: "Absolute http(s) address of a page." }))
            .pipe(Schema.maxItems(MAX))
            .annotations({ description: `Bare addresses to save; up to ${MAX} with links.` })
        ),
        links: Schema.optional(
          Schema.Array(LinkEntry)
            .pipe(Schema.maxItems(MAX))
            .annotations({
              description: `Links with title, note, text or highlights; up to ${MAX} with urls. Give urls, links or both.`
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
      description: `Save social posts to a board (and the library); returns each post (id, platform, author, text) and the placement. Free. Give a post by url, or platform and postId; the text is also kept as a capture. Without a board: svc_save_posts_to_library.`,
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
      description: `Save social posts to the workspace library; returns each post (id, platform, author, text). Free. Give a post by url, or platform and postId; the text is also kept as a capture. On a board: svc_save_posts_to_board.`,
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
      description: `Save ads, optionally on a board; returns each ad (id, platform, brand as author, text) and the placement. Free. Give an ad by url, or platform and adId; the text is also kept as a capture.`,
      input: {
        ads: Schema.Array(AdEntry)
          .pipe(Schema.minItems(1), Schema.maxItems(MAX))
          .annotations({
            description: `Ads to save, 1 to ${MAX}; an ad saved before (same platform and id, or address) reuses its item.`
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
        "Add an image, video or GIF by address as a media card, optionally on a board; returns the card (id, kind, url, title, note, boards) and the placement. Free. The same address reuses its card. Read: svc_read_media_card.",
      input: {
        url: WebUrl.annotations({
          description: "Absolute http(s) address of the image or video file."
        }),
        kind: Schema.optional(
          MediaKind.annotations({
            description:
              "Media kind; omit when the address ends in .jpg .jpeg .png .webp .avif .heic .svg .gif .mp4 .mov .webm or .m4v."
          })
        ),
        title: Schema.optional(
          ItemTitle.annotations({ description: "Card title; omit to make one from the address." })
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
