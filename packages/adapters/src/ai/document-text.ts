import { DocumentText, DocumentUnreadable } from "@svc/core/custom-ai"
import { Duration, Effect, Layer } from "effect"
import { extractText, getDocumentProxy } from "unpdf"
import { htmlPageText } from "./page-text.js"

// A PDF built to make the parser spin is cut off rather than holding a request.
const PDF_DEADLINE = Duration.seconds(20)

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error))

/**
 * Document text: PDFs through `unpdf` (PDF.js built for servers), each page's text with pages separated by a blank
 * line; HTML pages through `html-to-text` (see `page-text.ts`).
 */
export const DocumentTextLive = Layer.succeed(DocumentText, {
  pageText: (html, pageUrl) => htmlPageText(html, pageUrl),
  pdfText: (bytes) =>
    Effect.tryPromise({
      try: async () => {
        // PDF.js takes ownership of the buffer it is given, so it gets a copy.
        const document = await getDocumentProxy(new Uint8Array(bytes))
        try {
          const { text } = await extractText(document, { mergePages: false })
          return text
            .map((page) => page.trim())
            .filter((page) => page.length > 0)
            .join("\n\n")
        } finally {
          await document.cleanup()
        }
      },
      catch: (error) => new DocumentUnreadable({ message: messageOf(error) })
    }).pipe(
      Effect.timeoutFail({
        duration: PDF_DEADLINE,
        onTimeout: () => new DocumentUnreadable({ message: "reading the PDF took too long" })
      })
    )
})
