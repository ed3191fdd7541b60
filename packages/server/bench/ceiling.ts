/**
 * The ceiling: bare `node:http` answering the bytes our server answered for each case, with no work
 * (no auth, no JSON parsing, no database). Run as its own process by the bench:
 * `PORT=… CEILING_ANSWERS=<json file> node --import tsx ceiling.ts`.
 */
import { readFileSync } from "node:fs"
import { createServer } from "node:http"

/** The canned answers, by case (captured from our server before the run). */
export interface CannedAnswers {
  readonly mcpCall: string
  readonly mcpList: string
  readonly restCall: string
  readonly mcpWrite: string
}

const answers = JSON.parse(readFileSync(process.env.CEILING_ANSWERS ?? "", "utf8")) as CannedAnswers
const bytes = {
  mcpCall: Buffer.from(answers.mcpCall),
  mcpList: Buffer.from(answers.mcpList),
  restCall: Buffer.from(answers.restCall),
  mcpWrite: Buffer.from(answers.mcpWrite)
}
const health = Buffer.from('{"ok":true}')

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
    response.writeHead(200, { "content-type": "application/json", "content-length": answer.byteLength })
    response.end(answer)
  })
})

server.listen(Number(process.env.PORT), "127.0.0.1")
process.on("SIGTERM", () => {
  server.closeAllConnections()
  server.close(() => process.exit(0))
})
