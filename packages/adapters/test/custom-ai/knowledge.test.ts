/**
 * A Custom AI's knowledge on the real database: text, note, url and file sources, their limits, notes kept in sync,
 * pages that cannot be fetched kept as failed, full-text search and the extractive answer built from it.
 */
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Trash } from "@svc/core/boards"
import { Notes } from "@svc/core/boards"
import { CustomAiKnowledge, CustomAis, extractiveAnswer, NO_MODEL_SENTENCE } from "@svc/core/custom-ai"
import { Effect, TestClock } from "effect"
import { signUp, testCoreLayer } from "../support/core.js"
import { engineName } from "../support/database.js"
import { makePageFetcher } from "../../src/http-sender/page-fetcher.js"
import { tinyPdf } from "./fixtures/pdf.js"

/** A fresh account with one Custom AI. */
const assistant = Effect.gen(function* () {
  const user = yield* signUp()
  const customAi = yield* (yield* CustomAis).create(user.workspace.id, { name: "Helper" })
  return { ws: user.workspace.id, id: customAi.id, user }
})

/** An HTTP server on 127.0.0.1 answering `routes` (path → status, type, body); closed with the test. */
const pageServer = (routes: Record<string, { status?: number; type: string; body: string }>) =>
  Effect.acquireRelease(
    Effect.async<{ server: Server; base: string }>((resume) => {
      const server = createServer((request, response) => {
        const route = routes[request.url ?? ""]
        if (route === undefined) {
          response.writeHead(404, { "content-type": "text/plain" }).end("missing")
          return
        }
        if (route.status === 302) {
          response.writeHead(302, { location: route.body }).end()
          return
        }
        response.writeHead(route.status ?? 200, { "content-type": route.type }).end(route.body)
      })
      server.listen(0, "127.0.0.1", () =>
        resume(Effect.succeed({ server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }))
      )
    }),
    ({ server }) => Effect.promise(() => new Promise<void>((done) => server.close(() => done())))
  )

/** A loopback port nothing listens on. */
const closedPort = Effect.promise(
  () =>
    new Promise<number>((done) => {
      const server = createServer()
      server.listen(0, "127.0.0.1", () => {
        const { port } = server.address() as AddressInfo
        server.close(() => done(port))
      })
    })
)

const base64 = (text: string | Uint8Array) => Buffer.from(text).toString("base64")

layer(testCoreLayer(), { timeout: "120 seconds" })(`Custom AI knowledge (${engineName})`, (it) => {
  it.effect("indexes text, ranks passages and answers extractively with sources", () =>
    Effect.gen(function* () {
      const knowledge = yield* CustomAiKnowledge
      const a = yield* assistant
      const refunds = yield* knowledge.add(a.ws, a.id, {
        kind: "text",
        title: "Refund policy",
        text: "Refunds are given within 30 days of purchase. After 30 days no refund is possible.\n\nAnnual plans are refunded pro rata."
      })
      yield* knowledge.add(a.ws, a.id, {
        kind: "text",
        text: "# Shipping\n\nWe ship worldwide. Parcels arrive within a week. Refunds for lost parcels go through support."
      })
      yield* knowledge.add(a.ws, a.id, { kind: "text", title: "Hours", text: "The office opens at nine." })
      expect(refunds).toMatchObject({ kind: "text", status: "ready", title: "Refund policy", position: 0 })

      const sources = yield* knowledge.list(a.ws, a.id)
      expect(sources.map((s) => [s.title, s.position])).toEqual([
        ["Refund policy", 0],
        ["Shipping", 1],
        ["Hours", 2]
      ])

      const passages = yield* knowledge.search(a.ws, a.id, "How do refunds work for annual plans?")
      expect(passages.length).toBe(2)
      expect(passages[0]?.sourceId).toBe(refunds.id)
      expect(passages[0]?.rank).toBeGreaterThan(passages[1]?.rank ?? 0)
      expect(passages[0]).toMatchObject({ sourceTitle: "Refund policy", sourceKind: "text", url: null })
      expect(yield* knowledge.search(a.ws, a.id, "submarine")).toEqual([])
      expect(yield* knowledge.search(a.ws, a.id, "what is it")).toEqual([])
      // Odd text never fails: operators, quotes, stray punctuation.
      for (const odd of ['"unclosed', "a & | ! ( ) :* <->", "-", "'; DROP TABLE x; --", "😀 refunds"]) {
        yield* knowledge.search(a.ws, a.id, odd)
      }
      expect((yield* knowledge.search(a.ws, a.id, '"no refund is possible"'))[0]?.sourceId).toBe(refunds.id)

      const answer = extractiveAnswer("How do refunds work for annual plans?", passages)
      expect(answer.text.startsWith(NO_MODEL_SENTENCE)).toBe(true)
      expect(answer.text).toContain("Annual plans are refunded pro rata.")
      expect(answer.text).toContain("— Refund policy")
      expect(answer.citations[0]).toEqual({ sourceId: refunds.id, sourceTitle: "Refund policy", url: null })
      const none = extractiveAnswer("submarine", [])
      expect(none.text).toContain("found nothing in my knowledge")
      expect(none.citations).toEqual([])
    })
  )

  it.effect("keeps a note source in sync with its note, and shows a trashed note as failed", () =>
    Effect.gen(function* () {
      const knowledge = yield* CustomAiKnowledge
      const notes = yield* Notes
      const a = yield* assistant
      const note = yield* notes.create(a.ws, { title: "Pricing", markdown: "The basic plan costs ten euros." })
      const source = yield* knowledge.add(a.ws, a.id, { kind: "note", noteId: note.id })
      expect(source).toMatchObject({ kind: "note", status: "ready", title: "Pricing", reference: note.id })
      expect((yield* knowledge.search(a.ws, a.id, "basic plan"))[0]?.text).toContain("ten euros")

      yield* TestClock.adjust("1 second")
      yield* notes.replace(a.ws, { noteId: note.id, markdown: "The premium plan costs forty euros." })
      const after = yield* knowledge.search(a.ws, a.id, "premium plan")
      expect(after[0]?.text).toBe("The premium plan costs forty euros.")
      expect(yield* knowledge.search(a.ws, a.id, "basic")).toEqual([])

      yield* TestClock.adjust("1 second")
      yield* (yield* Trash).setTrashed(a.ws, { itemId: note.id })
      const [trashed] = yield* knowledge.list(a.ws, a.id)
      expect(trashed).toMatchObject({ status: "failed", failure: "note deleted", characters: 0 })
      expect(yield* knowledge.search(a.ws, a.id, "premium plan")).toEqual([])

      yield* TestClock.adjust("1 second")
      yield* (yield* Trash).setTrashed(a.ws, { itemId: note.id, restore: true })
      expect((yield* knowledge.list(a.ws, a.id))[0]).toMatchObject({ status: "ready", failure: null })

      const missing = yield* Effect.flip(knowledge.add(a.ws, a.id, { kind: "note", noteId: "note_nope" }))
      expect(missing._tag).toBe("NotFound")
    })
  )

  it.scoped("fetches a page as readable text; an unreachable, refused or failing page is kept as failed", () =>
    Effect.gen(function* () {
      const knowledge = yield* CustomAiKnowledge
      const a = yield* assistant
      const { base } = yield* pageServer({
        "/guide": {
          type: "text/html; charset=utf-8",
          body: `<!doctype html><html><head><title>Setup &amp; guide</title><style>p{color:red}</style></head>
            <body><nav>Home | About</nav><script>var secret = "tracking";</script>
            <h1>Installing</h1><p>Run the installer &mdash; it takes two minutes.</p><ul><li>Step one</li></ul></body></html>`
        },
        "/moved": { status: 302, type: "", body: "/guide" },
        "/inside": { status: 302, type: "", body: "http://192.168.0.10/admin" },
        "/gone": { status: 410, type: "text/plain", body: "gone" },
        "/image": { type: "image/png", body: "PNG" }
      })
      const page = yield* knowledge.add(a.ws, a.id, { kind: "url", url: `${base}/guide` })
      expect(page).toMatchObject({ status: "ready", title: "Setup & guide", reference: `${base}/guide` })
      const text = (yield* knowledge.read(a.ws, a.id, page.id, { offset: 0, length: 1000 })).text
      expect(text).toContain("Run the installer — it takes two minutes.")
      expect(text).toContain("- Step one")
      expect(text).not.toContain("tracking")
      expect(text).not.toContain("color:red")
      expect(text).not.toContain("About")
      const [passage] = yield* knowledge.search(a.ws, a.id, "installer")
      expect(passage).toMatchObject({ sourceKind: "url", url: `${base}/guide`, sourceTitle: "Setup & guide" })

      expect(yield* knowledge.add(a.ws, a.id, { kind: "url", url: `${base}/moved` })).toMatchObject({
        status: "ready",
        title: "Setup & guide"
      })
      const gone = yield* knowledge.add(a.ws, a.id, { kind: "url", url: `${base}/gone`, title: "Old page" })
      expect(gone).toMatchObject({ status: "failed", failure: "the page answered HTTP 410", title: "Old page" })
      const image = yield* knowledge.add(a.ws, a.id, { kind: "url", url: `${base}/image` })
      expect(image.failure).toContain("image/png")

      const port = yield* closedPort
      const offline = yield* knowledge.add(a.ws, a.id, { kind: "url", url: `http://127.0.0.1:${port}/docs` })
      expect(offline).toMatchObject({ status: "failed", characters: 0, title: `http://127.0.0.1:${port}/docs` })
      expect(offline.failure).toMatch(/^could not fetch the page: /)
      const privateAddress = yield* knowledge.add(a.ws, a.id, { kind: "url", url: "http://10.1.2.3/intranet" })
      expect(privateAddress.status).toBe("failed")
      expect(privateAddress.failure).toContain("non-public address")
      // Each redirect hop is checked like the first address.
      const inside = yield* knowledge.add(a.ws, a.id, { kind: "url", url: `${base}/inside` })
      expect(inside.failure).toContain("non-public address")
      // Without the test switch, loopback is refused like any private address.
      const strict = makePageFetcher({
        allowLoopback: false,
        timeoutMs: 5_000,
        maxBytes: 1024,
        maxRedirects: 5,
        userAgent: "test"
      })
      expect(yield* Effect.flip(strict.fetch(`${base}/guide`))).toMatchObject({ reason: "blocked-address" })
      const small = makePageFetcher({
        allowLoopback: true,
        timeoutMs: 5_000,
        maxBytes: 64,
        maxRedirects: 0,
        userAgent: "t"
      })
      expect(yield* Effect.flip(small.fetch(`${base}/guide`))).toMatchObject({ reason: "too-large" })
      expect(yield* Effect.flip(small.fetch(`${base}/moved`))).toMatchObject({ reason: "protocol" })
      const local = yield* knowledge.add(a.ws, a.id, { kind: "url", url: "http://printer.local/" })
      expect(local.failure).toContain("local name")
      // Failed sources stay listed as failed and refresh tries again (still failing here).
      const refreshed = yield* knowledge.refresh(a.ws, a.id, offline.id)
      expect(refreshed[0]).toMatchObject({ id: offline.id, status: "failed" })
      expect((yield* knowledge.list(a.ws, a.id)).filter((s) => s.status === "failed").length).toBe(6)

      const badUrl = yield* Effect.flip(knowledge.add(a.ws, a.id, { kind: "url", url: "ftp://example.com/x" }))
      expect(badUrl).toMatchObject({ _tag: "InvalidInput" })
    })
  )

  it.effect("reads Markdown, plain text and PDF files, and refuses other or oversized files", () =>
    Effect.gen(function* () {
      const knowledge = yield* CustomAiKnowledge
      const a = yield* assistant
      const md = yield* knowledge.add(a.ws, a.id, {
        kind: "file",
        name: "faq.md",
        contentBase64: base64("# FAQ\n\nOur café accepts cards.")
      })
      expect(md).toMatchObject({ status: "ready", title: "faq.md", reference: "faq.md" })
      const pdf = yield* knowledge.add(a.ws, a.id, {
        kind: "file",
        name: "Brochure.PDF",
        contentBase64: base64(tinyPdf("Warranty lasts three years"))
      })
      expect(pdf.status).toBe("ready")
      expect((yield* knowledge.search(a.ws, a.id, "warranty"))[0]).toMatchObject({ sourceId: pdf.id })
      expect((yield* knowledge.search(a.ws, a.id, "café cards"))[0]?.sourceId).toBe(md.id)

      const refused = (name: string, contentBase64: string) =>
        Effect.flip(knowledge.add(a.ws, a.id, { kind: "file", name, contentBase64 }))
      expect((yield* refused("slides.pptx", base64("x"))).message).toContain(".pdf")
      expect((yield* refused("notes.txt", "@@@not base64@@@")).message).toContain("base64")
      const big = yield* refused("big.txt", Buffer.alloc(5 * 1024 * 1024 + 1, 97).toString("base64"))
      expect(big.message).toContain("5242880 bytes")
      expect((yield* refused("broken.pdf", base64("%PDF-1.4 nonsense"))).message).toContain("could not read the PDF")
      expect((yield* refused("binary.txt", base64(new Uint8Array([0, 255, 254, 0])))).message).toContain("UTF-8")
    })
  )

  it.effect("enforces the limits with the limit named", () =>
    Effect.gen(function* () {
      const knowledge = yield* CustomAiKnowledge
      const a = yield* assistant
      const tooLong = yield* Effect.flip(knowledge.add(a.ws, a.id, { kind: "text", text: "a ".repeat(100_001) }))
      expect(tooLong).toMatchObject({ _tag: "InvalidInput" })
      expect(tooLong.message).toContain("200000")
      const title = yield* Effect.flip(knowledge.add(a.ws, a.id, { kind: "text", title: "t".repeat(201), text: "x" }))
      expect(title.message).toContain("200")
      const empty = yield* Effect.flip(knowledge.add(a.ws, a.id, { kind: "text", text: "  \n " }))
      expect(empty.message).toContain("empty")
      yield* Effect.forEach(
        Array.from({ length: 200 }, (_, i) => i),
        (i) => knowledge.add(a.ws, a.id, { kind: "text", title: `Fact ${i}`, text: `Fact number ${i}.` }),
        { concurrency: 4, discard: true }
      )
      const full = yield* Effect.flip(knowledge.add(a.ws, a.id, { kind: "text", text: "one more" }))
      expect(full.message).toContain("at most 200 knowledge sources")
      const sources = yield* knowledge.list(a.ws, a.id)
      expect(sources.length).toBe(200)

      // 200 changes in one call: all but the last source reversed, every other one filed, the first also renamed.
      const ids = sources.map((s) => s.id)
      const first = ids[0] ?? ""
      const arranged = yield* knowledge.organize(a.ws, a.id, [
        ...ids.slice(0, 199).map((sourceId, i) => ({
          sourceId,
          position: 1_000 - i,
          ...(i % 2 === 0 ? { folder: "Even" } : {})
        })),
        { sourceId: first, title: "First fact" }
      ])
      expect(arranged.map((s) => s.id)).toEqual([ids[199], ...ids.slice(0, 199).reverse()])
      expect(arranged.at(-1)).toMatchObject({ id: first, title: "First fact", folder: "Even", position: 1_000 })
      expect(arranged.at(-2)).toMatchObject({ id: ids[1], title: sources[1]?.title, folder: null, position: 999 })
      // A source not found undoes the whole arrangement.
      const unknown = yield* Effect.flip(
        knowledge.organize(a.ws, a.id, [
          { sourceId: first, position: 0 },
          { sourceId: "ks_nope", position: 1 }
        ])
      )
      expect(unknown.message).toContain("ks_nope")
      expect((yield* knowledge.list(a.ws, a.id)).at(-1)).toMatchObject({ id: first, position: 1_000 })
    })
  )

  it.effect("chunks long sources and reads them back by character offset", () =>
    Effect.gen(function* () {
      const knowledge = yield* CustomAiKnowledge
      const a = yield* assistant
      const paragraphs = Array.from(
        { length: 60 },
        (_, i) => `Paragraph ${i} talks about topic${i} in some detail. It has a second sentence too.`
      )
      const text = paragraphs.join("\n\n")
      const source = yield* knowledge.add(a.ws, a.id, { kind: "text", title: "Long", text })
      expect(source.characters).toBe(text.length)
      const [hit] = yield* knowledge.search(a.ws, a.id, "topic42")
      expect(hit?.text).toContain("Paragraph 42 talks about topic42")
      expect(hit?.text.length).toBeLessThanOrEqual(1200)
      let read = ""
      let offset: number | undefined = 0
      while (offset !== undefined) {
        const slice: { text: string; nextOffset: number | undefined } = yield* knowledge.read(a.ws, a.id, source.id, {
          offset,
          length: 1000
        })
        read += slice.text
        offset = slice.nextOffset
      }
      expect(read).toBe(text)
    })
  )

  it.effect("deleting a Custom AI removes its sources and chunks; another workspace's is not found", () =>
    Effect.gen(function* () {
      const knowledge = yield* CustomAiKnowledge
      const a = yield* assistant
      const other = yield* assistant
      yield* knowledge.add(a.ws, a.id, { kind: "text", text: "Secret recipe: add salt." })
      const strangers = yield* Effect.flip(knowledge.search(other.ws, a.id, "salt"))
      expect(strangers._tag).toBe("NotFound")
      const strangersAdd = yield* Effect.flip(knowledge.add(other.ws, a.id, { kind: "text", text: "x" }))
      expect(strangersAdd._tag).toBe("NotFound")

      const sql = yield* SqlClient.SqlClient
      const counts = Effect.flatMap(
        sql<{ sources: number; chunks: number }>`SELECT
          (SELECT count(*)::int FROM custom_ai_sources WHERE custom_ai_id = ${a.id}) AS sources,
          (SELECT count(*)::int FROM custom_ai_chunks WHERE custom_ai_id = ${a.id}) AS chunks`,
        (rows) => Effect.succeed(rows[0])
      ).pipe(Effect.orDie)
      expect(yield* counts).toEqual({ sources: 1, chunks: 1 })
      yield* (yield* CustomAis).remove(a.ws, a.id)
      expect(yield* counts).toEqual({ sources: 0, chunks: 0 })
    })
  )
})
