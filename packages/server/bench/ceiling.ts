/**
 * The ceiling: bare `node:http` answering the bytes our server answered for each case (gzipped where ours
 * gzipped them, with the same `Content-Encoding`), with no work
 * (no auth, no JSON parsing, no database). Run as its own process by the bench:
 * `PORT=… CEILING_ANSWERS=<json file> node --import tsx ceiling.ts`.
 */
import { readFileSync } from "node:fs"
import { createServer } from "node:http"

/** One answer of ours as it went over the wire: its body bytes (base64) and their `Content-Encoding`, if any. */
export interface CannedAnswer {
  readonly base64: string
  readonly contentEncoding: string | undefined
}

/** The canned answers, by case (captured from our server before the run). */
export interface CannedAnswers {
  readonly mcpCall: CannedAnswer
  readonly mcpList: CannedAnswer
  readonly restCall: CannedAnswer
  readonly mcpWrite: CannedAnswer
}

interface Canned {
  readonly body: Buffer
  readonly headers: Readonly<Record<string, string | number>>
}

const canned = (answer: CannedAnswer): Canned => {
  const body = Buffer.from(answer.base64, "base64")
  const headers = { "content-type": "application/json", "content-length": body.byteLength }
  return {
    body,
    headers: answer.contentEncoding ? { ...headers, "content-encoding": answer.contentEncoding } : headers
  }
}

const answers = JSON.parse(readFileSync(process.env.CEILING_ANSWERS ?? "", "utf8")) as CannedAnswers
const bytes = {
  mcpCall: canned(answers.mcpCall),
  mcpList: canned(answers.mcpList),
  restCall: canned(answers.restCall),
  mcpWrite: canned(answers.mcpWrite)
}
const health = canned({ base64: Buffer.from('{"ok":true}').toString("base64"), contentEncoding: undefined })

const server = createServer((request, response) => {
  const chunks: Array<Buffer> = []
  request.on("data", (chunk: Buffer) => chunks.push(chunk))
  request.on("end", () => {
    // Picking the canned answer is a substring test on the body: the least that tells the cases apart.
    const body = Buffer.concat(chunks).toString("latin1")
    const answer =
      request.url === "/health"
        ? health
        : request.url?.startsWith("/v1/tools/")
          ? bytes.restCall
          : body.includes('"tools/list"')
            ? bytes.mcpList
            : body.includes("svc_create_note")
              ? bytes.mcpWrite
              : bytes.mcpCall
    response.writeHead(200, answer.headers)
    response.end(answer.body)
  })
})

server.listen(Number(process.env.PORT), "127.0.0.1")
process.on("SIGTERM", () => {
  server.closeAllConnections()
  server.close(() => process.exit(0))
})
