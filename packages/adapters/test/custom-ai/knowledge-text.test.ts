/** The pure parts of knowledge: chunking, readable text from HTML, and extractive quotes. */
import { describe, expect, it } from "@effect/vitest"
import { chunkText, extractiveAnswer, htmlToText, NO_MODEL_SENTENCE } from "@svc/core/custom-ai"

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

describe("htmlToText", () => {
  it("keeps the words a reader sees and drops scripts, styles, comments and navigation", () => {
    const html = `<html><head><title>T</title></head><body><!-- hidden --><nav>Menu</nav>
      <script>alert("x")</script><SCRIPT type="x">y</SCRIPT><p>Caf&eacute; &amp; bar &#8212; open&nbsp;late &#x2014;</p>
      <p>a < b and c > d</p><table><tr><td>Cell 1</td><td>Cell 2</td></tr></table></body></html>`
    const text = htmlToText(html)
    expect(text).toContain("Caf&eacute; & bar — open late —")
    expect(text).toContain("a < b and c > d")
    expect(text).toContain("Cell 1 Cell 2")
    for (const gone of ["hidden", "Menu", "alert", "type="]) expect(text).not.toContain(gone)
  })

  it("stays fast on a hostile page of unclosed tags", () => {
    const started = performance.now()
    htmlToText("<script".repeat(50_000))
    htmlToText("<a ".repeat(200_000))
    htmlToText("<!--".repeat(100_000))
    expect(performance.now() - started).toBeLessThan(2000)
  })
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
