/** The pure parts of knowledge: chunking, readable text from HTML, and extractive quotes. */
import { describe, expect, it } from "@effect/vitest"
import { chunkText, extractiveAnswer, NO_MODEL_SENTENCE } from "@svc/core/custom-ai"
import { Effect } from "effect"
import { htmlPageText } from "../../src/ai/page-text.js"

describe("chunkText", () => {
  it("keeps short text whole and cuts long text on paragraph and sentence boundaries", () => {
    expect(chunkText("One short paragraph.")).toEqual(["One short paragraph."])
    const paragraph = (i: number) => `Paragraph ${i} says something useful about item ${i}. It ends here.`
    const text = Array.from({ length: 40 }, (_, i) => paragraph(i)).join("\n\n")
    const chunks = chunkText(text)
    expect(chunks.length).toBeGreaterThan(2)
    for (const chunk of chunks) expect(chunk.length).toBeLessThanOrEqual(1200)
    // Every paragraph is in some chunk whole, and each chunk after the first starts with the sentence that ended
    // the one before (the overlap).
    for (let i = 0; i < 40; i++) expect(chunks.some((c) => c.includes(paragraph(i)))).toBe(true)
    expect(chunks[1]?.startsWith("It ends here.")).toBe(true)
  })

  it("cuts a paragraph with no breaks at spaces, and a word longer than a chunk hard", () => {
    const words = Array.from({ length: 600 }, (_, i) => `word${i}`).join(" ")
    const chunks = chunkText(words)
    for (const chunk of chunks) expect(chunk.length).toBeLessThanOrEqual(1200)
    expect(
      chunks
        .join(" ")
        .split(/\s+/)
        .filter((w) => w === "word599").length
    ).toBeGreaterThan(0)
    const blob = "x".repeat(5000)
    expect(chunkText(blob).join("")).toBe(blob)
  })
})

describe("htmlPageText", () => {
  const pageUrl = "https://shop.example/help/page"

  it.live("keeps the title and the words a reader sees, links resolved, and drops scripts, styles and navigation", () =>
    Effect.gen(function* () {
      const html = `<html><head><title> Help &amp;
        FAQ </title><style>p{color:red}</style></head><body><!-- hidden --><nav>Menu</nav>
        <script>alert("x")</script><SCRIPT type="x">y</SCRIPT><h2>Opening hours</h2>
        <p>Caf&eacute; &amp; bar &#8212; open&nbsp;late &#x2014;</p><p>a < b and c > d</p>
        <table><tr><td>Cell 1</td><td>Cell 2</td></tr></table>
        <ul><li>See <a href="../returns">returns</a></li><li><a href="https://example.com/">https://example.com/</a>
        <a href="javascript:void(0)">menu</a></li></ul><img src="logo.png" alt="logo"><footer>Imprint</footer></body></html>`
      const page = yield* htmlPageText(html, pageUrl)
      expect(page.title).toBe("Help & FAQ")
      expect(page.text).toContain("Opening hours\n\nCafé & bar — open late —\n\na < b and c > d")
      expect(page.text).toContain("Cell 1 Cell 2")
      expect(page.text).toContain("- See returns [https://shop.example/returns]\n- https://example.com/ menu")
      for (const gone of ["hidden", "Menu", "alert", "type=", "color", "logo", "Imprint", "javascript"]) {
        expect(page.text).not.toContain(gone)
      }
      expect(yield* htmlPageText("<p>No <b>title</b> here</p>", pageUrl)).toEqual({
        title: null,
        text: "No title here"
      })
    })
  )

  it.live("reads hostile pages in a worker and gives up at the deadline without holding this thread", () =>
    Effect.gen(function* () {
      for (const html of ["<script".repeat(50_000), "<a ".repeat(200_000), "<!--".repeat(100_000)]) {
        expect((yield* htmlPageText(html, pageUrl)).text).toBe("")
      }
      // Unclosed tags nested this deep take the parser minutes (its time grows with the square of the depth).
      let ticks = 0
      const timer = setInterval(() => {
        ticks += 1
      }, 10)
      const started = performance.now()
      const failed = yield* Effect.flip(htmlPageText("<div>".repeat(300_000), pageUrl, "500 millis"))
      clearInterval(timer)
      expect(failed).toMatchObject({ _tag: "DocumentUnreadable", message: "reading the page took longer than 500ms" })
      expect(performance.now() - started).toBeLessThan(5_000)
      expect(ticks).toBeGreaterThan(20)
    })
  )
})

describe("extractiveAnswer", () => {
  const passage = (text: string, sourceTitle: string, url: string | null = null) => ({
    sourceId: `ks_${sourceTitle}`,
    sourceTitle,
    sourceKind: url === null ? ("text" as const) : ("url" as const),
    url,
    text,
    rank: 1
  })

  it("quotes only the matching sentences of the best passages, each with its source", () => {
    const answer = extractiveAnswer("When are parcels delivered?", [
      passage("We ship worldwide. Parcels are delivered within a week. Returns are free.", "Shipping"),
      passage("Delivered parcels can be tracked online.", "Tracking", "https://example.com/track")
    ])
    expect(answer.text.split("\n\n")).toEqual([
      NO_MODEL_SENTENCE,
      "> Parcels are delivered within a week.\n— Shipping",
      "> Delivered parcels can be tracked online.\n— Tracking (https://example.com/track)"
    ])
    expect(answer.citations.map((c) => c.sourceTitle)).toEqual(["Shipping", "Tracking"])
  })

  it("bounds each quote and never adds words of its own", () => {
    const long = `${"Refund rules apply to every order placed online and by phone. ".repeat(30)}`
    const answer = extractiveAnswer("refund", [passage(long, "Rules")])
    const quote = answer.text.split("\n\n")[1] ?? ""
    expect(quote.length).toBeLessThan(600)
    const words = new Set(`${NO_MODEL_SENTENCE} ${long} Rules`.split(/[\s…—>]+/))
    for (const word of quote.split(/[\s…—>]+/)) if (word !== "") expect(words.has(word)).toBe(true)
  })
})
