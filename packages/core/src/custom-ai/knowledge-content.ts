/** Reading a source's content from where it comes from (typed text, a note, a web page, a file), checked. */
import { Effect, Either, Encoding, Option } from "effect"
import { ItemsRepo } from "../items/ports.js"
import { type InvalidInput, invalid, NotFound } from "../shared/errors.js"
import { chunkText } from "./chunking.js"
import { DocumentText, PageFetcher } from "./knowledge-ports.js"
import {
  type IndexedContent,
  SOURCE_FILE_BYTES_MAX,
  SOURCE_FILE_NAME_MAX,
  SOURCE_TEXT_MAX,
  SOURCE_TITLE_MAX,
  SOURCE_URL_MAX
} from "./knowledge-schema.js"
import { cleanText } from "./page-text.js"

/** A new source, by kind. */
export type SourceInput =
  | { readonly kind: "text"; readonly title?: string | undefined; readonly text: string }
  | { readonly kind: "note"; readonly title?: string | undefined; readonly noteId: string }
  | { readonly kind: "url"; readonly title?: string | undefined; readonly url: string }
  | {
      readonly kind: "file"
      readonly title?: string | undefined
      readonly name: string
      readonly contentBase64: string
      readonly mimeType?: string | undefined
    }

/** Content that is indexed: its text and chunks. */
export const ready = (text: string, foundTitle: string | null, contentVersion: Date | null = null): IndexedContent => ({
  status: "ready",
  failure: null,
  text,
  chunks: chunkText(text),
  contentVersion,
  foundTitle
})

/** Content that could not be read: kept with the reason, no text. */
export const failed = (failure: string, foundTitle: string | null = null): IndexedContent => ({
  status: "failed",
  failure,
  text: "",
  chunks: [],
  contentVersion: null,
  foundTitle
})

const tooLongText = (length: number) =>
  `the text is ${length} characters; a knowledge source holds at most ${SOURCE_TEXT_MAX}`

/** A title trimmed to one line, 1 to SOURCE_TITLE_MAX characters. */
export const checkedTitle = (raw: string | undefined): Effect.Effect<string | undefined, InvalidInput> => {
  if (raw === undefined) return Effect.succeed(undefined)
  const title = raw.replace(/\s+/g, " ").trim()
  return title.length === 0 || title.length > SOURCE_TITLE_MAX
    ? Effect.fail(invalid("title", `title must be 1 to ${SOURCE_TITLE_MAX} characters`))
    : Effect.succeed(title)
}

/** Text cleaned for storage, not empty and within SOURCE_TEXT_MAX. */
export const checkedText = (raw: string): Effect.Effect<string, InvalidInput> => {
  const text = cleanText(raw)
  if (text.length === 0) return Effect.fail(invalid("text", "text is empty"))
  return text.length > SOURCE_TEXT_MAX ? Effect.fail(invalid("text", tooLongText(text.length))) : Effect.succeed(text)
}

/** An http or https address within SOURCE_URL_MAX, normalised. */
export const checkedUrl = (raw: string): Effect.Effect<string, InvalidInput> => {
  const text = raw.trim()
  const parsed = URL.canParse(text) ? new URL(text) : undefined
  return parsed === undefined ||
    (parsed.protocol !== "http:" && parsed.protocol !== "https:") ||
    text.length > SOURCE_URL_MAX
    ? Effect.fail(invalid("url", `url must be an http or https address of at most ${SOURCE_URL_MAX} characters`))
    : Effect.succeed(parsed.href)
}

// Title-like text from a first line, for text sources given none.
const firstLine = (text: string) => {
  const line = (text.split("\n").find((l) => l.trim().length > 0) ?? "").replace(/^#+\s*/, "").trim()
  return line.length === 0 ? "Untitled text" : line.length > 80 ? `${line.slice(0, 79)}…` : line
}

const fileKind = (name: string, mimeType: string | undefined): "pdf" | "text" | undefined => {
  const lower = name.toLowerCase()
  const mime = mimeType?.toLowerCase().split(";")[0]?.trim()
  if (lower.endsWith(".pdf") || mime === "application/pdf") return "pdf"
  if (/\.(md|markdown|txt|text)$/.test(lower) || mime === "text/plain" || mime === "text/markdown") return "text"
  return undefined
}

/** The readers of source content, over the ports they need. */
export const makeContentReaders = Effect.gen(function* () {
  const items = yield* ItemsRepo
  const pages = yield* PageFetcher
  const documents = yield* DocumentText

  /** A note's (or any item's) text as it is now; none when it was deleted or trashed. */
  const noteContent = (workspaceId: string, noteId: string) =>
    Effect.gen(function* () {
      const item = yield* items.findItem(workspaceId, noteId)
      if (Option.isNone(item) || item.value.trashedAt !== null) return Option.none<IndexedContent>()
      const stored = item.value
      const body =
        stored.type === "note"
          ? Option.match(yield* items.findNote(workspaceId, noteId), { onNone: () => "", onSome: (n) => n.markdown })
          : [stored.url, stored.note, stored.data.text, stored.data.description]
              .filter((part): part is string => typeof part === "string" && part.length > 0)
              .join("\n\n")
      const text = cleanText(body)
      return Option.some(
        text.length > SOURCE_TEXT_MAX
          ? { ...failed(tooLongText(text.length), stored.title), contentVersion: stored.updatedAt }
          : text.length === 0
            ? { ...failed("the note is empty", stored.title), contentVersion: stored.updatedAt }
            : ready(text, stored.title, stored.updatedAt)
      )
    })

  /** A page's readable text; every way it can fail becomes a failed source with the reason, never an error. */
  const pageContent = (url: string) =>
    pages.fetch(url).pipe(
      Effect.flatMap((page) => {
        if (page.status < 200 || page.status >= 300) {
          return Effect.succeed(failed(`the page answered HTTP ${page.status}`))
        }
        const html = page.contentType === "text/html" || page.contentType === "application/xhtml+xml"
        const plain = page.contentType === "" || page.contentType.startsWith("text/")
        if (!html && !plain) {
          return Effect.succeed(
            failed(`the page is ${page.contentType}, not text or HTML; upload the file as a file source instead`)
          )
        }
        const readable = html
          ? documents.pageText(page.text, page.finalUrl)
          : Effect.succeed({ title: null, text: page.text })
        return Effect.map(readable, ({ title: found, text: raw }) => {
          // A title is at most SOURCE_TITLE_MAX characters wherever it comes from; a page's own may be longer.
          const title =
            found !== null && found.length > SOURCE_TITLE_MAX ? `${found.slice(0, SOURCE_TITLE_MAX - 1)}…` : found
          const text = cleanText(raw)
          if (text.length === 0) return failed("the page has no readable text", title)
          if (text.length > SOURCE_TEXT_MAX) return failed(tooLongText(text.length), title)
          return ready(text, title)
        })
      }),
      Effect.catchTags({
        PageFetchFailed: (e) => Effect.succeed(failed(`could not fetch the page: ${e.message}`)),
        DocumentUnreadable: (e) => Effect.succeed(failed(`could not read the page: ${e.message}`))
      })
    )

  const fileContent = (file: {
    readonly name: string
    readonly contentBase64: string
    readonly mimeType?: string | undefined
  }) =>
    Effect.gen(function* () {
      const name = file.name.trim()
      if (name.length === 0 || name.length > SOURCE_FILE_NAME_MAX) {
        return yield* invalid("name", `name must be 1 to ${SOURCE_FILE_NAME_MAX} characters`)
      }
      const kind = fileKind(name, file.mimeType)
      if (kind === undefined) {
        return yield* invalid("name", "files must be Markdown (.md), plain text (.txt) or PDF (.pdf)")
      }
      const bytes = Encoding.decodeBase64(file.contentBase64.replace(/\s+/g, ""))
      if (Either.isLeft(bytes)) return yield* invalid("contentBase64", "contentBase64 is not valid base64")
      if (bytes.right.length > SOURCE_FILE_BYTES_MAX) {
        return yield* invalid(
          "contentBase64",
          `the file is ${bytes.right.length} bytes; a file source is at most ${SOURCE_FILE_BYTES_MAX} bytes (5 MB)`
        )
      }
      if (bytes.right.length === 0) return yield* invalid("contentBase64", "the file is empty")
      const raw =
        kind === "pdf"
          ? yield* documents
              .pdfText(bytes.right)
              .pipe(Effect.mapError((e) => invalid("contentBase64", `could not read the PDF: ${e.message}`)))
          : Either.getOrElse(Encoding.decodeBase64String(file.contentBase64.replace(/\s+/g, "")), () => "")
      // A text file that decodes to replacement characters is binary, not UTF-8 text.
      if (kind === "text" && (raw.includes("\u0000") || (raw.match(/\uFFFD/g)?.length ?? 0) > raw.length / 100)) {
        return yield* invalid("contentBase64", "the file is not UTF-8 text")
      }
      const text = cleanText(raw)
      if (text.length === 0) {
        return yield* invalid(
          "contentBase64",
          kind === "pdf" ? "the PDF holds no text (scanned pages are images and are not read)" : "the file is empty"
        )
      }
      if (text.length > SOURCE_TEXT_MAX) return yield* invalid("contentBase64", tooLongText(text.length))
      return { name, content: ready(text, name) }
    })

  /** The content of a new source, with what it points at and the title it gets unless one is given. */
  const contentOf = (workspaceId: string, input: SourceInput) =>
    Effect.gen(function* () {
      switch (input.kind) {
        case "text": {
          const text = yield* checkedText(input.text)
          return { reference: null, content: ready(text, firstLine(text)) }
        }
        case "note": {
          const found = yield* noteContent(workspaceId, input.noteId)
          if (Option.isNone(found)) {
            return yield* new NotFound({
              message: `no note or item ${input.noteId} in this workspace; svc_list_workspace_items lists them`
            })
          }
          return { reference: input.noteId, content: found.value }
        }
        case "url": {
          const url = yield* checkedUrl(input.url)
          return { reference: url, content: yield* pageContent(url) }
        }
        case "file": {
          const file = yield* fileContent(input)
          return { reference: file.name, content: file.content }
        }
      }
    })

  return { noteContent, pageContent, fileContent, contentOf } as const
})
