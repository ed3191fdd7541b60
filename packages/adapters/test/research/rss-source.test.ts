/**
 * The RSS source against a real feed server on loopback (node:http): an RSS 2.0 publication, an Atom blog found
 * through its page's `<link rel="alternate">`, a JSON Feed, a site whose feed is at a common path, and sites that are
 * missing, broken, throttled, slow or too large. Requests go through the checked fetch, as in the server.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, describe, expect, it } from "@effect/vitest"
import type { SocialSource, SourceFailure } from "@svc/core/research"
import { Effect, Exit, Option } from "effect"
import { makeCheckedFetch } from "../../src/http-sender/index.js"
import { makeRssSource, publicationUrlOf } from "../../src/research/rss-source.js"

const RSS = (origin: string) => `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:content="http://purl.org/rss/1.0/modules/content/">
  <channel>
    <title>Harbour Notes</title>
    <link>${origin}/news</link>
    <description>Weekly letters from the harbour &amp; the sea.</description>
    <generator>Substack</generator>
    <image><url>${origin}/logo.png</url><title>Harbour Notes</title><link>${origin}/news</link></image>
    <item>
      <title>Tides in November</title>
      <link>${origin}/news/p/tides-in-november</link>
      <guid isPermaLink="false">post-1002</guid>
      <description><![CDATA[<p>The <b>spring tides</b> came early.</p><p><a href="${origin}/x">Read on</a></p>]]></description>
      <content:encoded><![CDATA[<p>The whole article, which is long.</p>]]></content:encoded>
      <dc:creator>Mara Quay</dc:creator>
      <pubDate>Tue, 24 Nov 2026 08:00:00 GMT</pubDate>
      <enclosure url="${origin}/tides.jpg" length="1024" type="image/jpeg"/>
    </item>
    <item>
      <title>Nets and knots</title>
      <link>${origin}/news/p/nets-and-knots</link>
      <guid isPermaLink="false">post-1001</guid>
      <description>Three knots every deckhand ties.</description>
      <dc:creator>Mara Quay</dc:creator>
      <pubDate>Tue, 17 Nov 2026 08:00:00 GMT</pubDate>
    </item>
    <item>
      <title>Welcome</title>
      <link>${origin}/news/p/welcome</link>
      <guid isPermaLink="false">post-1000</guid>
      <description>Why this letter.</description>
      <pubDate>Tue, 03 Nov 2026 08:00:00 GMT</pubDate>
    </item>
  </channel>
</rss>`

const ATOM = (origin: string) => `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <title>Field Log</title>
  <subtitle>Notes on birds</subtitle>
  <link href="${origin}/blog/" rel="alternate"/>
  <link href="${origin}/blog/atom.xml" rel="self"/>
  <id>urn:uuid:60a76c80-d399-11d9-b93c-0003939e0af6</id>
  <updated>2026-11-20T10:00:00Z</updated>
  <icon>${origin}/blog/icon.png</icon>
  <author><name>Ilse Wren</name></author>
  <entry>
    <title>Curlews return</title>
    <link href="${origin}/blog/curlews/" rel="alternate"/>
    <id>urn:uuid:1225c695-cfb8-4ebb-aaaa-80da344efa6a</id>
    <published>2026-11-20T10:00:00Z</published>
    <updated>2026-11-21T10:00:00Z</updated>
    <summary type="html">&lt;p&gt;Forty curlews on the mudflat.&lt;/p&gt;</summary>
  </entry>
  <entry>
    <title>Starling murmuration</title>
    <link href="${origin}/blog/starlings/" rel="alternate"/>
    <id>urn:uuid:1225c695-cfb8-4ebb-aaaa-80da344efa6b</id>
    <published>2026-11-22T17:00:00Z</published>
    <updated>2026-11-22T17:00:00Z</updated>
    <summary>Thousands at dusk.</summary>
  </entry>
</feed>`

const JSON_FEED = (origin: string) =>
  JSON.stringify({
    version: "https://jsonfeed.org/version/1.1",
    title: "Kiln Diary",
    home_page_url: `${origin}/kiln/`,
    feed_url: `${origin}/kiln/feed.json`,
    description: "Pottery, weekly",
    items: [
      {
        id: "k-2",
        url: `${origin}/kiln/glaze`,
        title: "Glaze tests",
        content_text: "Nine tiles, one good.",
        date_published: "2026-11-10T09:00:00Z",
        authors: [{ name: "Oskar" }]
      }
    ]
  })

const page = (head: string) =>
  `<!doctype html><html><head><meta charset="utf-8"><title>Page</title>${head}</head><body><p>Hello</p></body></html>`

interface FeedServer {
  readonly origin: string
  readonly paths: Array<string>
}

/** The site the tests read: every path it serves, and the failures some paths answer. */
const handle = (origin: string, request: IncomingMessage, response: ServerResponse) => {
  const path = new URL(request.url ?? "/", origin).pathname
  const send = (status: number, type: string, body: string, headers: Record<string, string> = {}) =>
    response.writeHead(status, { "content-type": type, ...headers }).end(body)
  switch (path) {
    case "/news":
    case "/news/p/tides-in-november":
      return send(200, "text/html", page(`<link rel="alternate" type="application/rss+xml" href="/news/feed">`))
    case "/news/feed":
      return send(200, "application/rss+xml; charset=utf-8", RSS(origin))
    case "/blog/curlews/":
      return send(200, "text/html", page(`<link rel="alternate" type="application/atom+xml" href="/blog/atom.xml">`))
    case "/blog/":
      return send(
        200,
        "text/html",
        page(
          `<link rel="stylesheet" href="/s.css"><link rel="alternate" type="application/atom+xml" title="Log" href="atom.xml">`
        )
      )
    case "/blog/atom.xml":
      return send(200, "application/atom+xml", ATOM(origin))
    case "/kiln/":
      return send(200, "text/html", page(`<link rel="alternate" type="application/feed+json" href="/kiln/feed.json">`))
    case "/kiln/feed.json":
      return send(200, "application/feed+json", JSON_FEED(origin))
    // A page that names no feed, on a site whose feed is at /feed.xml (the common paths before it are 404).
    case "/about":
      return send(200, "text/html", page(""))
    case "/feed.xml":
      return send(200, "application/rss+xml", RSS(origin))
    case "/gone":
      return send(410, "text/plain", "gone")
    case "/broken":
      return send(500, "text/plain", "boom")
    case "/busy":
      return send(429, "text/plain", "slow down", { "retry-after": "120" })
    case "/private":
      return send(403, "text/plain", "no")
    case "/slow":
      setTimeout(() => send(200, "application/rss+xml", RSS(origin)), 6_000).unref()
      return
    case "/huge":
      return send(
        200,
        "application/rss+xml",
        `<rss version="2.0"><channel><title>${"x".repeat(300_000)}</title></channel></rss>`
      )
    default:
      return send(404, "text/plain", "not found")
  }
}

const feedServer = Effect.acquireRelease(
  Effect.async<FeedServer & { readonly close: () => void }>((resume) => {
    const paths: Array<string> = []
    let origin = ""
    const server = createServer((request, response) => {
      paths.push(request.url ?? "")
      handle(origin, request, response)
    })
    server.listen(0, "127.0.0.1", () => {
      origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
      resume(
        Effect.succeed({
          origin,
          paths,
          close: () => {
            server.closeAllConnections()
            server.close()
          }
        })
      )
    })
  }),
  (server) => Effect.sync(server.close)
)

/** A loopback port nothing listens on (a server opened on it, then closed). */
const closedPort = Effect.async<number>((resume) => {
  const server = createServer()
  server.listen(0, "127.0.0.1", () => {
    const port = (server.address() as AddressInfo).port
    server.close(() => resume(Effect.succeed(port)))
  })
})

const checkedFetch = makeCheckedFetch({ allowLoopback: true })
afterAll(() => checkedFetch.close())
const source = makeRssSource({ fetch: checkedFetch, deadline: "2 seconds", maxBytes: 200_000 })

const creators = (s: SocialSource) => {
  if (s.creators === undefined) throw new Error("the source has no creators part")
  return s.creators
}
const posts = (s: SocialSource) => {
  if (s.posts === undefined) throw new Error("the source has no posts part")
  return s.posts
}

const failureOf = <A>(exit: Exit.Exit<A, SourceFailure>): SourceFailure => {
  if (Exit.isSuccess(exit)) throw new Error("expected a failure")
  const failure = exit.cause._tag === "Fail" ? exit.cause.error : undefined
  if (failure === undefined) throw new Error(`expected a SourceFailure, got ${String(exit.cause)}`)
  return failure
}

describe("RSS source", () => {
  it("declares itself: platforms substack and blog, no setting, no search/follows/ads parts", () => {
    expect(source.name).toBe("rss")
    expect(source.platforms).toEqual(["substack", "blog"])
    expect(source.missingSetting).toBeNull()
    expect(source.follows).toBeUndefined()
    expect(source.ads).toBeUndefined()
    expect(source.search).toBeUndefined()
  })

  it("reads the publication a person names: a Substack name or profile, or an http(s) address", () => {
    expect(publicationUrlOf("harbour.substack.com")?.href).toBe("https://harbour.substack.com/feed")
    expect(publicationUrlOf("substack.com/@Harbour")?.href).toBe("https://harbour.substack.com/feed")
    expect(publicationUrlOf("https://substack.com/@harbour")?.href).toBe("https://harbour.substack.com/feed")
    expect(publicationUrlOf(" https://blog.example/feed ")?.href).toBe("https://blog.example/feed")
    expect(publicationUrlOf("alice.bsky.social")).toBeUndefined()
    expect(publicationUrlOf("@alice")).toBeUndefined()
    expect(publicationUrlOf("Mara Quay")).toBeUndefined()
  })

  it.scopedLive("resolves a page to the RSS feed its <link rel=alternate> names, as a Substack creator", () =>
    Effect.gen(function* () {
      const server = yield* feedServer
      const creator = yield* creators(source).resolve({ text: `${server.origin}/news` })
      expect(Option.getOrThrow(creator)).toMatchObject({
        platform: "substack",
        id: `${server.origin}/news/feed`,
        handle: "127.0.0.1",
        name: "Harbour Notes",
        bio: "Weekly letters from the harbour & the sea.",
        url: `${server.origin}/news`,
        avatarUrl: `${server.origin}/logo.png`,
        followers: null,
        following: null,
        posts: null,
        source: "rss"
      })
    })
  )

  it.scopedLive("resolves the feed URL itself, and a page's Atom feed given by a relative href", () =>
    Effect.gen(function* () {
      const server = yield* feedServer
      const direct = Option.getOrThrow(yield* creators(source).resolve({ text: `${server.origin}/news/feed` }))
      expect(direct.id).toBe(`${server.origin}/news/feed`)
      const atom = Option.getOrThrow(yield* creators(source).resolve({ text: `${server.origin}/blog/` }))
      expect(atom).toMatchObject({
        platform: "blog",
        id: `${server.origin}/blog/atom.xml`,
        name: "Field Log",
        bio: "Notes on birds",
        url: `${server.origin}/blog/`,
        avatarUrl: `${server.origin}/blog/icon.png`
      })
    })
  )

  it.scopedLive("falls back to the common feed paths when the page names no feed", () =>
    Effect.gen(function* () {
      const server = yield* feedServer
      const creator = Option.getOrThrow(yield* creators(source).resolve({ text: `${server.origin}/about` }))
      expect(creator.id).toBe(`${server.origin}/feed.xml`)
      // /feed, /rss and /rss.xml and /atom.xml answered 404 before /feed.xml.
      expect(server.paths).toEqual(["/about", "/feed", "/rss", "/rss.xml", "/atom.xml", "/feed.xml"])
    })
  )

  it.scopedLive("answers a creator's items newest first as articles, summaries as plain text, no metrics", () =>
    Effect.gen(function* () {
      const server = yield* feedServer
      const key = { platform: "substack" as const, id: `${server.origin}/news/feed`, handle: "127.0.0.1" }
      const items = yield* posts(source).ofCreator(key, 2)
      expect(items.map((p) => p.title)).toEqual(["Tides in November", "Nets and knots"])
      expect(items[0]).toMatchObject({
        platform: "substack",
        id: "post-1002",
        url: `${server.origin}/news/p/tides-in-november`,
        author: { handle: "127.0.0.1", name: "Mara Quay" },
        text: "The spring tides came early.\n\nRead on",
        format: "article",
        mediaCount: 1,
        createdAt: new Date("2026-11-24T08:00:00.000Z"),
        metrics: { likes: null, replies: null, reposts: null, quotes: null, views: null },
        source: "rss"
      })
      const atom = yield* posts(source).ofCreator(
        { platform: "blog", id: `${server.origin}/blog/atom.xml`, handle: "127.0.0.1" },
        10
      )
      // The Atom feed lists the older entry first; the answer is newest first.
      expect(atom.map((p) => [p.title, p.text, p.createdAt?.toISOString()])).toEqual([
        ["Starling murmuration", "Thousands at dusk.", "2026-11-22T17:00:00.000Z"],
        ["Curlews return", "Forty curlews on the mudflat.", "2026-11-20T10:00:00.000Z"]
      ])
      expect(atom[0]?.author.name).toBe("Ilse Wren")
    })
  )

  it.scopedLive("reads a JSON Feed", () =>
    Effect.gen(function* () {
      const server = yield* feedServer
      const creator = Option.getOrThrow(yield* creators(source).resolve({ text: `${server.origin}/kiln/` }))
      expect(creator).toMatchObject({
        id: `${server.origin}/kiln/feed.json`,
        name: "Kiln Diary",
        bio: "Pottery, weekly"
      })
      const items = yield* posts(source).ofCreator({ platform: "blog", id: creator.id, handle: creator.handle }, 5)
      expect(items).toHaveLength(1)
      expect(items[0]).toMatchObject({ id: "k-2", title: "Glaze tests", text: "Nine tiles, one good." })
    })
  )

  it.scopedLive("reads one article by its URL from its site's feed; an article not in the feed is none", () =>
    Effect.gen(function* () {
      const server = yield* feedServer
      const article = yield* posts(source).read({ text: `${server.origin}/news/p/tides-in-november` })
      expect(Option.getOrThrow(article)).toMatchObject({ id: "post-1002", title: "Tides in November" })
      // The person's address carries a query and a fragment the feed's does not.
      const curlews = yield* posts(source).read({ text: `${server.origin}/blog/curlews/?utm_source=x#top` })
      expect(Option.getOrThrow(curlews).title).toBe("Curlews return")
      const missing = yield* posts(source).read({ text: `${server.origin}/blog/curlews/old-post` })
      expect(Option.isNone(missing)).toBe(true)
      expect(Option.isNone(yield* posts(source).read({ text: "at://did:plc:abc/app.bsky.feed.post/1" }))).toBe(true)
    })
  )

  it.scopedLive("answers none for a missing page (404, 410) and for what is not its own", () =>
    Effect.gen(function* () {
      const server = yield* feedServer
      expect(Option.isNone(yield* creators(source).resolve({ text: `${server.origin}/nothing-here` }))).toBe(true)
      expect(Option.isNone(yield* creators(source).resolve({ text: `${server.origin}/gone` }))).toBe(true)
      expect(Option.isNone(yield* creators(source).resolve({ text: "alice.bsky.social" }))).toBe(true)
      expect(yield* posts(source).ofCreator({ platform: "blog", id: `${server.origin}/gone`, handle: "x" }, 5)).toEqual(
        []
      )
      expect(yield* creators(source).search("harbour", 10)).toEqual([])
    })
  )

  it.scopedLive("fails unavailable on 5xx, rate-limited with Retry-After on 429, refused on 403", () =>
    Effect.gen(function* () {
      const server = yield* feedServer
      const broken = failureOf(yield* Effect.exit(creators(source).resolve({ text: `${server.origin}/broken` })))
      expect(broken).toMatchObject({ kind: "unavailable" })
      expect(broken.message).toContain("answered 500")
      const busy = failureOf(yield* Effect.exit(creators(source).resolve({ text: `${server.origin}/busy` })))
      expect(busy).toMatchObject({ kind: "rate-limited", retryAfterMs: 120_000 })
      const denied = failureOf(yield* Effect.exit(creators(source).resolve({ text: `${server.origin}/private` })))
      expect(denied.kind).toBe("refused")
    })
  )

  it.scopedLive("gives up on a slow site at the deadline, and on an answer over the size cap", () =>
    Effect.gen(function* () {
      const server = yield* feedServer
      const started = Date.now()
      const slow = failureOf(yield* Effect.exit(creators(source).resolve({ text: `${server.origin}/slow` })))
      expect(slow.kind).toBe("unavailable")
      expect(slow.message).toContain("did not answer within 2s")
      expect(Date.now() - started).toBeLessThan(4_500)
      const huge = failureOf(yield* Effect.exit(creators(source).resolve({ text: `${server.origin}/huge` })))
      expect(huge).toMatchObject({ kind: "unavailable" })
      expect(huge.message).toContain("more than 195 KiB")
    })
  )

  it.scopedLive(
    "is unavailable when the site cannot be reached, or is inside the network and loopback is refused",
    () =>
      Effect.gen(function* () {
        const server = yield* feedServer
        const strictFetch = makeCheckedFetch({ allowLoopback: false })
        yield* Effect.addFinalizer(() => Effect.promise(() => strictFetch.close()))
        const strict = makeRssSource({ fetch: strictFetch })
        const inside = failureOf(yield* Effect.exit(creators(strict).resolve({ text: `${server.origin}/news` })))
        expect(inside.kind).toBe("unavailable")
        expect(inside.message).toContain("Refused to connect to 127.0.0.1")
        const port = yield* closedPort
        const closed = failureOf(
          yield* Effect.exit(creators(source).resolve({ text: `http://127.0.0.1:${port}/feed` }))
        )
        expect(closed.kind).toBe("unavailable")
        expect(closed.message).toContain("ECONNREFUSED")
      })
  )
})
