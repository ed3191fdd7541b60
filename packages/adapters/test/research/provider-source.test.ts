/**
 * The research provider source against a local peer of our own contract (docs/research-provider.md): a node:http
 * server on loopback that implements the six endpoints over a small set of accounts, checks the bearer key, and can
 * be told to misbehave (a bad answer, 429, 5xx, a stall).
 */
import { createServer, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { describe, expect, it } from "@effect/vitest"
import type { SocialSource, SourceFailure } from "@svc/core/research"
import { Effect, Exit, Option } from "effect"
import { makeProviderSource, platformOfUrl } from "../../src/research/provider-source.js"

const KEY = "prov_test_4f1c2a"

const ACCOUNTS = [
  {
    platform: "x",
    id: "1456",
    handle: "harbourlog",
    display_name: "Harbour Log",
    bio: "Tides, boats, weather.",
    url: "https://x.com/harbourlog",
    avatar_url: "https://pbs.example/harbourlog.jpg",
    followers_count: 5120,
    following_count: 311,
    posts_count: 2044
  },
  {
    platform: "instagram",
    id: "87001",
    handle: "kiln.diary",
    url: "https://www.instagram.com/kiln.diary/",
    followers_count: 880
  },
  { platform: "x", id: "2001", handle: "quaymara", display_name: "Mara Quay", url: "https://x.com/quaymara" }
]

const POSTS = [
  {
    platform: "x",
    id: "1860000000000000001",
    url: "https://x.com/harbourlog/status/1860000000000000001",
    author: { handle: "harbourlog", name: "Harbour Log" },
    text: "Spring tide tonight, 6.1 m at 21:40.",
    format: "text",
    created_at: "2026-11-20T18:00:00Z",
    metrics: { likes: 120, replies: 14, reposts: 9, quotes: 2, views: 20400 }
  },
  {
    platform: "x",
    id: "1860000000000000002",
    url: "https://x.com/harbourlog/status/1860000000000000002",
    author: { handle: "harbourlog", name: "Harbour Log" },
    text: "Four photos of the storm.",
    format: "carousel",
    media_count: 4,
    created_at: "2026-11-24T07:30:00Z",
    metrics: { likes: 410, replies: 33, reposts: 51, quotes: null, views: null }
  }
]

interface Peer {
  origin: string
  readonly requests: Array<{ readonly path: string; readonly authorization: string | undefined }>
  /** What the next request is answered with instead of the contract's answer. */
  misbehave: "bad-field" | "not-json" | "throttled" | "down" | "stall" | undefined
}

const json = (response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) =>
  response.writeHead(status, { "content-type": "application/json", ...headers }).end(JSON.stringify(body))

const peer = Effect.acquireRelease(
  Effect.async<Peer & { readonly close: () => void }>((resume) => {
    const state: Peer = { origin: "", requests: [], misbehave: undefined }
    const server = createServer((request, response) => {
      const url = new URL(request.url ?? "/", "http://peer")
      state.requests.push({ path: `${url.pathname}${url.search}`, authorization: request.headers.authorization })
      if (request.headers.authorization !== `Bearer ${KEY}`) return json(response, 401, { error: "bad key" })
      const misbehave = state.misbehave
      state.misbehave = undefined
      if (misbehave === "throttled") return json(response, 429, { error: "slow down" }, { "retry-after": "30" })
      if (misbehave === "down") return json(response, 503, { error: "maintenance" })
      if (misbehave === "stall") return
      if (misbehave === "not-json") return response.writeHead(200, { "content-type": "text/html" }).end("<html>")
      if (misbehave === "bad-field")
        return json(response, 200, { creators: [{ ...ACCOUNTS[0], followers_count: "many" }] })
      const q = (url.searchParams.get("q") ?? "").toLowerCase()
      const platform = url.searchParams.get("platform")
      const limit = Number(url.searchParams.get("limit") ?? "25")
      const byPath = /^\/creators\/([^/]+)\/([^/]+)\/(posts|follows)$/.exec(url.pathname)
      if (url.pathname === "/creators/resolve") {
        const found = ACCOUNTS.find(
          (a) =>
            (platform === null || a.platform === platform) &&
            (a.handle === q.replace(/^@/, "") || a.url.toLowerCase() === q || `${a.url}/`.toLowerCase() === q)
        )
        return found === undefined
          ? json(response, 404, { error: "not found" })
          : json(response, 200, { creator: found })
      }
      if (url.pathname === "/creators/search") {
        const found = ACCOUNTS.filter(
          (a) =>
            a.handle.includes(q) ||
            (a.display_name ?? "").toLowerCase().includes(q) ||
            (a.bio ?? "").toLowerCase().includes(q)
        )
        return json(response, 200, { creators: found.slice(0, limit) })
      }
      if (byPath !== null) {
        const [, p, id, part] = byPath
        const account = ACCOUNTS.find((a) => a.platform === p && a.id === id)
        if (account === undefined) return json(response, 404, { error: "no such creator" })
        if (part === "follows")
          return json(response, 200, { creators: ACCOUNTS.filter((a) => a !== account).slice(0, limit) })
        return json(response, 200, {
          posts: POSTS.filter((post) => post.author.handle === account.handle).slice(0, limit)
        })
      }
      if (url.pathname === "/posts/resolve") {
        const found = POSTS.find((post) => post.url === url.searchParams.get("q") || post.id === q)
        return found === undefined ? json(response, 404, { error: "not found" }) : json(response, 200, { post: found })
      }
      if (url.pathname === "/posts/search") {
        return json(response, 200, {
          posts: POSTS.filter((post) => post.text.toLowerCase().includes(q)).slice(0, limit)
        })
      }
      return json(response, 404, { error: "no such endpoint" })
    })
    server.listen(0, "127.0.0.1", () => {
      state.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
      resume(
        Effect.succeed(
          Object.assign(state, {
            close: () => {
              server.closeAllConnections()
              server.close()
            }
          })
        )
      )
    })
  }),
  (server) => Effect.sync(server.close)
)

const sourceFor = (origin: string, key = KEY) =>
  makeProviderSource({ baseUrl: `${origin}/`, key, fetch: globalThis.fetch, deadline: "2 seconds" })

const parts = (source: SocialSource) => {
  const { creators, posts, search, follows } = source
  if (creators === undefined || posts === undefined || search === undefined || follows === undefined)
    throw new Error("the provider source answers creators, posts, search and follows")
  return { creators, posts, search, follows }
}

const failureOf = <A>(exit: Exit.Exit<A, SourceFailure>): SourceFailure => {
  if (Exit.isSuccess(exit) || exit.cause._tag !== "Fail")
    throw new Error(`expected a SourceFailure, got ${String(exit)}`)
  return exit.cause.error
}

describe("research provider source", () => {
  it("is not set up without a base URL, and says which setting turns it on", () => {
    const source = makeProviderSource({ baseUrl: undefined, key: undefined, fetch: globalThis.fetch })
    expect(source).toMatchObject({ name: "provider", missingSetting: "SVC_RESEARCH_PROVIDER_URL" })
    expect(source.platforms).toEqual(["x", "linkedin", "instagram", "tiktok"])
    expect(source.creators).toBeUndefined()
  })

  it("tells the network of a profile or post address", () => {
    expect(platformOfUrl("https://x.com/harbourlog")).toBe("x")
    expect(platformOfUrl("twitter.com/harbourlog/status/1")).toBe("x")
    expect(platformOfUrl("https://www.linkedin.com/in/mara-quay/")).toBe("linkedin")
    expect(platformOfUrl("https://www.instagram.com/kiln.diary/")).toBe("instagram")
    expect(platformOfUrl("https://www.tiktok.com/@kiln")).toBe("tiktok")
    expect(platformOfUrl("@harbourlog")).toBeUndefined()
    expect(platformOfUrl("Mara Quay")).toBeUndefined()
  })

  it.scopedLive("resolves a profile address with its platform, and a handle on whichever network has it", () =>
    Effect.gen(function* () {
      const server = yield* peer
      const { creators } = parts(sourceFor(server.origin))
      const byUrl = yield* creators.resolve({ text: "https://x.com/harbourlog" })
      expect(Option.getOrThrow(byUrl)).toMatchObject({
        platform: "x",
        id: "1456",
        handle: "harbourlog",
        name: "Harbour Log",
        bio: "Tides, boats, weather.",
        url: "https://x.com/harbourlog",
        avatarUrl: "https://pbs.example/harbourlog.jpg",
        followers: 5120,
        following: 311,
        posts: 2044,
        source: "provider"
      })
      const byHandle = Option.getOrThrow(yield* creators.resolve({ text: "@kiln.diary" }))
      // Absent fields are null, and the name falls back to the handle.
      expect(byHandle).toMatchObject({
        platform: "instagram",
        name: "kiln.diary",
        bio: null,
        following: null,
        posts: null
      })
      expect(server.requests.map((r) => r.path)).toEqual([
        "/creators/resolve?platform=x&q=https%3A%2F%2Fx.com%2Fharbourlog",
        "/creators/resolve?q=%40kiln.diary"
      ])
      expect(server.requests.every((r) => r.authorization === `Bearer ${KEY}`)).toBe(true)
      // Unknown: the provider's 404. Another network's address is never sent.
      expect(Option.isNone(yield* creators.resolve({ text: "@nobody" }))).toBe(true)
      expect(Option.isNone(yield* creators.resolve({ text: "https://bsky.app/profile/alice.bsky.social" }))).toBe(true)
      expect(server.requests).toHaveLength(3)
    })
  )

  it.scopedLive("answers only the networks it is set up for", () =>
    Effect.gen(function* () {
      const server = yield* peer
      const onlyX = makeProviderSource({ baseUrl: server.origin, key: KEY, platforms: ["x"], fetch: globalThis.fetch })
      expect(onlyX.platforms).toEqual(["x"])
      const { creators } = parts(onlyX)
      expect(Option.isNone(yield* creators.resolve({ text: "https://www.instagram.com/kiln.diary/" }))).toBe(true)
      expect(Option.isNone(yield* creators.resolve({ text: "kiln.diary" }))).toBe(true)
      expect((yield* creators.search("a", 10)).map((c) => c.platform)).toEqual(["x", "x"])
    })
  )

  it.scopedLive("searches creators, reads posts newest first with metrics, follows, one post and post search", () =>
    Effect.gen(function* () {
      const server = yield* peer
      const { creators, posts, search, follows } = parts(sourceFor(server.origin))
      expect((yield* creators.search("mara", 5)).map((c) => c.handle)).toEqual(["quaymara"])
      const key = { platform: "x" as const, id: "1456", handle: "harbourlog" }
      const latest = yield* posts.ofCreator(key, 10)
      expect(latest.map((p) => p.id)).toEqual(["1860000000000000002", "1860000000000000001"])
      expect(latest[0]).toMatchObject({
        platform: "x",
        url: "https://x.com/harbourlog/status/1860000000000000002",
        author: { handle: "harbourlog", name: "Harbour Log" },
        title: null,
        format: "carousel",
        mediaCount: 4,
        createdAt: new Date("2026-11-24T07:30:00.000Z"),
        metrics: { likes: 410, replies: 33, reposts: 51, quotes: null, views: null },
        source: "provider"
      })
      expect((yield* follows.of(key, 1)).map((c) => c.handle)).toEqual(["kiln.diary"])
      const one = yield* posts.read({ text: "https://x.com/harbourlog/status/1860000000000000001" })
      expect(Option.getOrThrow(one).metrics.views).toBe(20400)
      expect((yield* search.posts("storm", 10)).map((p) => p.id)).toEqual(["1860000000000000002"])
      expect(yield* posts.ofCreator({ platform: "x", id: "999", handle: "ghost" }, 5)).toEqual([])
      expect(server.requests.map((r) => r.path)).toContain("/creators/x/1456/posts?limit=10")
      expect(server.requests.map((r) => r.path)).toContain("/creators/x/1456/follows?limit=1")
      expect(server.requests.map((r) => r.path)).toContain("/posts/search?q=storm&limit=10")
    })
  )

  it.scopedLive("fails unavailable, naming the field, when an answer does not match the contract", () =>
    Effect.gen(function* () {
      const server = yield* peer
      const { creators } = parts(sourceFor(server.origin))
      server.misbehave = "bad-field"
      const bad = failureOf(yield* Effect.exit(creators.search("harbour", 5)))
      expect(bad.kind).toBe("unavailable")
      expect(bad.message).toContain("creators.0.followers_count")
      server.misbehave = "not-json"
      const html = failureOf(yield* Effect.exit(creators.search("harbour", 5)))
      expect(html.message).toContain("not JSON")
    })
  )

  it.scopedLive("maps a wrong key to refused, 429 to rate-limited with the wait, 5xx and a stall to unavailable", () =>
    Effect.gen(function* () {
      const server = yield* peer
      const wrongKey = failureOf(yield* Effect.exit(parts(sourceFor(server.origin, "nope")).creators.search("a", 5)))
      expect(wrongKey.kind).toBe("refused")
      const { creators } = parts(sourceFor(server.origin))
      server.misbehave = "throttled"
      expect(failureOf(yield* Effect.exit(creators.search("a", 5)))).toMatchObject({
        kind: "rate-limited",
        retryAfterMs: 30_000
      })
      server.misbehave = "down"
      const down = failureOf(yield* Effect.exit(creators.search("a", 5)))
      expect(down.kind).toBe("unavailable")
      expect(down.message).toContain("503")
      server.misbehave = "stall"
      const stalled = failureOf(yield* Effect.exit(creators.search("a", 5)))
      expect(stalled.kind).toBe("unavailable")
      expect(stalled.message).toContain("did not answer within 2s")
    })
  )
})
