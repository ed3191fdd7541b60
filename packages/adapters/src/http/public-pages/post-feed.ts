import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter"
import type { HttpServerRequest } from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { WorkspacesRepo } from "@svc/core/accounts"
import { feedLinkPath, isFeedLinkTarget, signFeedLink } from "@svc/core/analytics"
import { MailSigner } from "@svc/core/mail"
import { MediaLibrary } from "@svc/core/media"
import { PostsRepo, type PostView } from "@svc/core/scheduling"
import { decodeCursor, encodeCursor } from "@svc/core/shared"
import { Effect, Either, type Layer, Option } from "effect"
import { generateAtomFeed, generateJsonFeed, generateRssFeed } from "feedsmith"
import { type Html, html, page } from "../browser/index.js"
import { PublicUrl } from "../config.js"
import { notePage } from "./pages.js"

/** Posts on one page of the feed's HTML list. */
const PAGE_SIZE = 20
/** Entries in the RSS, Atom and JSON feeds: the newest, as feed readers poll. */
const FEED_SIZE = 50
/** Feeds and pages are public and change only when a post goes out: readers may keep them a minute. */
const PUBLIC_CACHE = "public, max-age=60"

/** Whose feed a handle names: a store's handle, or a workspace id for a workspace without a store. */
interface FeedOwner {
  readonly workspaceId: string
  readonly handle: string
  readonly title: string
}

const URL_IN_TEXT = /\bhttps?:\/\/[^\s<>"']+[^\s<>"'.,;:!?)\]]/g

/**
 * A post's text as HTML: paragraphs at blank lines, line breaks kept, web addresses as links (through `hrefs`, the
 * feed's counting redirect, where it has one for the address).
 */
const textHtml = (text: string, hrefs: ReadonlyMap<string, string>): Html => {
  const linked = (line: string): Html => {
    const parts: Array<Html | string> = []
    let at = 0
    for (const match of line.matchAll(URL_IN_TEXT)) {
      parts.push(line.slice(at, match.index))
      parts.push(html`<a href="${hrefs.get(match[0]) ?? match[0]}" rel="nofollow noopener">${match[0]}</a>`)
      at = match.index + match[0].length
    }
    parts.push(line.slice(at))
    return html`${parts}`
  }
  const paragraphs = text.trim().split(/\n\s*\n/)
  return html`${paragraphs.map((p) => html`<p>${p.split("\n").map((line, i) => html`${i > 0 ? html`<br>` : ""}${linked(line)}`)}</p>`)}`
}

/** The first line of a post, for titles: at most 80 characters. */
const titleOf = (post: PostView): string => {
  const line = post.text.trim().split("\n")[0] ?? ""
  return line.length > 80 ? `${line.slice(0, 79)}…` : line
}

const feedTime = (post: PostView): Date =>
  post.deliveries.find((d) => d.platform === "feed")?.postedAt ?? post.postedAt ?? post.createdAt

/**
 * The workspace's own feed, the publishing target that needs nothing outside: `/s/<handle>/posts` (the posts that
 * went out there, newest first, paged), `/s/<handle>/posts/<post id>` (one post), the same as RSS 2.0, Atom and JSON
 * Feed (`/s/<handle>/feed.xml`, `feed.atom`, `feed.json`, made with feedsmith), and the posts' media files
 * (`/s/<handle>/media/<media id>`, only files of posts that went out there). `<handle>` is the store's handle, or
 * the workspace id of a workspace that has no store.
 */
export const PostFeedRoutes: Layer.Layer<
  never,
  never,
  HttpLayerRouter.HttpRouter | PublicUrl | WorkspacesRepo | PostsRepo | MediaLibrary | MailSigner
> = HttpLayerRouter.use((router) =>
  Effect.gen(function* () {
    const url = yield* PublicUrl
    const workspaces = yield* WorkspacesRepo
    const posts = yield* PostsRepo
    const media = yield* MediaLibrary
    const signer = yield* MailSigner
    const notFound = notePage({ base: url.base, title: "Not found", message: "There is no such page.", status: 404 })

    const ownerOf = Effect.gen(function* () {
      const params = yield* HttpLayerRouter.params
      const handle = params.handle ?? ""
      const store = yield* workspaces.findStoreByHandle(handle.toLowerCase())
      if (Option.isSome(store)) {
        return Option.some<FeedOwner>({
          workspaceId: store.value.workspaceId,
          handle: store.value.handle,
          title: store.value.name
        })
      }
      if (!handle.startsWith("ws_")) return Option.none<FeedOwner>()
      const workspace = yield* workspaces.findById(handle)
      return Option.map(workspace, (w): FeedOwner => ({ workspaceId: w.id, handle: w.id, title: w.name }))
    })

    const feedBase = (owner: FeedOwner) => `${url.base}/s/${encodeURIComponent(owner.handle)}`
    const postUrl = (owner: FeedOwner, post: PostView) => `${feedBase(owner)}/posts/${post.id}`
    const mediaUrl = (owner: FeedOwner, id: string) => `${feedBase(owner)}/media/${id}`

    /**
     * The post's text as HTML, each web address in it linked through the feed's redirect (feed-clicks.ts), signed for
     * this post, so a click is counted for it.
     */
    const postHtml = (owner: FeedOwner, post: PostView) =>
      Effect.gen(function* () {
        const hrefs = new Map<string, string>()
        for (const match of post.text.matchAll(URL_IN_TEXT)) {
          const target = match[0]
          if (hrefs.has(target) || !isFeedLinkTarget(target)) continue
          const signature = yield* signFeedLink(post.id, target)
          hrefs.set(target, `${url.base}${feedLinkPath(owner.handle, post.id, target, signature)}`)
        }
        return textHtml(post.text, hrefs)
      }).pipe(Effect.provideService(MailSigner, signer))

    /** The page, cacheable by anyone and allowed to show the posts' images and videos from this server. */
    const publicPage = (title: string, body: Html, status = 200) =>
      page({ base: url.base, title, body, status, wide: true }).pipe(
        HttpServerResponse.setHeader("cache-control", status === 200 ? PUBLIC_CACHE : "no-store"),
        HttpServerResponse.setHeader(
          "content-security-policy",
          "default-src 'none'; style-src 'self'; img-src 'self' data:; media-src 'self'; base-uri 'none'; frame-ancestors 'none'"
        )
      )

    const mediaHtml = (owner: FeedOwner, post: PostView) =>
      Effect.map(
        Effect.either(
          media.findReady(
            post.workspaceId,
            post.media.map((m) => m.id)
          )
        ),
        Either.match({
          onLeft: () => html``,
          onRight: (assets) =>
            html`${assets.map((asset, i) => {
              const src = mediaUrl(owner, asset.id)
              const alt = post.media[i]?.altText ?? ""
              return asset.kind === "video"
                ? html`<p><video controls preload="metadata" src="${src}" aria-label="${alt}"></video></p>`
                : asset.kind === "pdf"
                  ? html`<p><a href="${src}">${asset.fileName ?? "Document"} (PDF)</a></p>`
                  : html`<p><img src="${src}" alt="${alt}" loading="lazy"${asset.width && asset.height ? html` width="${asset.width}" height="${asset.height}"` : html``}></p>`
            })}`
        })
      )

    const article = (owner: FeedOwner, post: PostView, linked: boolean) =>
      Effect.zipWith(
        mediaHtml(owner, post),
        postHtml(owner, post),
        (files, text) => html`<article class="card">
${text}
${files}
<p class="muted"><time datetime="${feedTime(post).toISOString()}">${feedTime(post).toUTCString()}</time>${
          linked ? html` · <a href="${postUrl(owner, post)}">Link</a>` : html``
        }</p>
</article>`
      )

    const feedLinks = (owner: FeedOwner) =>
      html`<p class="muted">Follow: <a href="${feedBase(owner)}/feed.xml">RSS</a> · <a href="${feedBase(owner)}/feed.atom">Atom</a> · <a href="${feedBase(owner)}/feed.json">JSON Feed</a></p>`

    const listPage = (request: HttpServerRequest) =>
      Effect.gen(function* () {
        const owner = yield* ownerOf
        if (Option.isNone(owner)) return notFound
        const before = new URL(request.url, url.base).searchParams.get("before")
        const after = before === null ? Either.right(undefined) : decodeCursor(before)
        if (Either.isLeft(after)) return notFound
        const found = yield* posts.feedPage(owner.value.workspaceId, { limit: PAGE_SIZE, after: after.right })
        const articles = yield* Effect.forEach(found.rows, (post) => article(owner.value, post, true))
        const more =
          found.next === undefined
            ? html``
            : html`<p><a href="${feedBase(owner.value)}/posts?before=${encodeCursor(found.next)}">Older posts</a></p>`
        return publicPage(
          `${owner.value.title}: posts`,
          html`<h1>${owner.value.title}</h1>
${feedLinks(owner.value)}
${articles.length === 0 ? html`<p>No posts yet.</p>` : html`${articles}`}
${more}`
        )
      })

    const onePost = Effect.gen(function* () {
      const owner = yield* ownerOf
      if (Option.isNone(owner)) return notFound
      const params = yield* HttpLayerRouter.params
      const post = yield* posts.feedPost(owner.value.workspaceId, params.postId ?? "")
      if (Option.isNone(post)) return notFound
      return publicPage(
        titleOf(post.value),
        html`<p><a href="${feedBase(owner.value)}/posts">${owner.value.title}</a></p>
${yield* article(owner.value, post.value, false)}`
      )
    })

    /** The newest posts with their media files, for the feeds. */
    const latest = (owner: FeedOwner) =>
      Effect.gen(function* () {
        const page = yield* posts.feedPage(owner.workspaceId, { limit: FEED_SIZE, after: undefined })
        return yield* Effect.forEach(page.rows, (post) =>
          Effect.map(
            Effect.orElseSucceed(
              media.findReady(
                post.workspaceId,
                post.media.map((m) => m.id)
              ),
              () => []
            ),
            (assets) => ({ post, assets })
          ).pipe(
            Effect.zip(postHtml(owner, post)),
            Effect.map(([entry, text]) => ({ ...entry, text }))
          )
        )
      })

    const feed = (kind: "rss" | "atom" | "json") =>
      Effect.gen(function* () {
        const owner = yield* ownerOf
        if (Option.isNone(owner)) return notFound
        const o = owner.value
        const entries = yield* latest(o)
        const home = `${feedBase(o)}/posts`
        const updated = entries[0] === undefined ? new Date(0) : feedTime(entries[0].post)
        const title = `${o.title}: posts`
        const body =
          kind === "rss"
            ? generateRssFeed({
                title,
                link: home,
                description: `Posts of ${o.title}`,
                lastBuildDate: updated,
                items: entries.map(({ post, assets, text }) => ({
                  title: titleOf(post),
                  link: postUrl(o, post),
                  guid: { value: postUrl(o, post), isPermaLink: true },
                  description: text.html,
                  pubDate: feedTime(post),
                  enclosures: assets.map((a) => ({ url: mediaUrl(o, a.id), length: a.bytes, type: a.mimeType }))
                }))
              })
            : kind === "atom"
              ? generateAtomFeed({
                  id: home,
                  title: { value: title },
                  updated,
                  links: [
                    { href: `${feedBase(o)}/feed.atom`, rel: "self" },
                    { href: home, rel: "alternate" }
                  ],
                  entries: entries.map(({ post, assets, text }) => ({
                    id: postUrl(o, post),
                    title: { value: titleOf(post) },
                    updated: feedTime(post),
                    published: feedTime(post),
                    links: [
                      { href: postUrl(o, post), rel: "alternate" },
                      ...assets.map((a) => ({
                        href: mediaUrl(o, a.id),
                        rel: "enclosure",
                        type: a.mimeType,
                        length: a.bytes
                      }))
                    ],
                    content: { type: "html", value: text.html }
                  }))
                })
              : JSON.stringify(
                  generateJsonFeed({
                    title,
                    home_page_url: home,
                    feed_url: `${feedBase(o)}/feed.json`,
                    items: entries.map(({ post, assets }) => ({
                      id: postUrl(o, post),
                      url: postUrl(o, post),
                      title: titleOf(post),
                      content_text: post.text,
                      date_published: feedTime(post),
                      attachments: assets.map((a) => ({
                        url: mediaUrl(o, a.id),
                        mime_type: a.mimeType,
                        size_in_bytes: a.bytes
                      }))
                    }))
                  })
                )
        const contentType =
          kind === "rss"
            ? "application/rss+xml; charset=utf-8"
            : kind === "atom"
              ? "application/atom+xml; charset=utf-8"
              : "application/feed+json; charset=utf-8"
        return HttpServerResponse.text(body, {
          contentType,
          headers: { "cache-control": PUBLIC_CACHE, "x-content-type-options": "nosniff" }
        })
      })

    const mediaFile = Effect.gen(function* () {
      const owner = yield* ownerOf
      if (Option.isNone(owner)) return notFound
      const params = yield* HttpLayerRouter.params
      const id = params.mediaId ?? ""
      // Only what went out on the feed is public: an uploaded file of a draft or of another platform's post is not.
      if (!(yield* posts.feedHasMedia(owner.value.workspaceId, id))) return notFound
      const found = yield* Effect.either(media.findReady(owner.value.workspaceId, [id]))
      if (Either.isLeft(found) || found.right[0] === undefined) return notFound
      const asset = found.right[0]
      return HttpServerResponse.stream(media.open(asset), {
        contentType: asset.mimeType,
        contentLength: asset.bytes,
        headers: {
          "cache-control": "public, max-age=86400, immutable",
          "x-content-type-options": "nosniff",
          // A PDF or a video opened from here runs nothing of ours, and cannot be framed.
          "content-security-policy": "default-src 'none'; sandbox",
          "cross-origin-resource-policy": "same-site"
        }
      })
    })

    yield* router.add("GET", "/s/:handle/posts", (request) => listPage(request))
    yield* router.add("GET", "/s/:handle/posts/:postId", onePost)
    yield* router.add("GET", "/s/:handle/feed.xml", feed("rss"))
    yield* router.add("GET", "/s/:handle/feed.atom", feed("atom"))
    yield* router.add("GET", "/s/:handle/feed.json", feed("json"))
    yield* router.add("GET", "/s/:handle/media/:mediaId", mediaFile)
  })
)
