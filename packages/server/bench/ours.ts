/**
 * Our server as a user runs it: `svc accounts create` and `svc keys create` (the CLI, `--json`), then
 * `svc serve` with the bench key exempt from the rate limit through `SVC_RATE_LIMIT_EXEMPT_KEYS` (the
 * documented switch; no API call lifts a limit), and one note to read.
 */
import { execFile } from "node:child_process"
import { resolve } from "node:path"
import { request as httpRequest } from "node:http"
import { gunzipSync } from "node:zlib"
import type { CannedAnswer, CannedAnswers } from "./ceiling.js"
import { caseRequest, requestHeaders } from "./cases.js"
import type { BenchDatabase } from "./database.js"
import { type BenchProcess, freePort, startProcess } from "./processes.js"
import { repoRoot } from "./settings.js"

const bin = resolve(repoRoot, "packages/server/bin/svc.mjs")

const svcJson = (args: ReadonlyArray<string>, env: Record<string, string>) =>
  new Promise<unknown>((done, fail) => {
    execFile(
      process.execPath,
      [bin, ...args, "--json"],
      { cwd: repoRoot, env: { ...process.env, DATABASE_URL: "", ...env }, timeout: 120_000 },
      (error, stdout, stderr) => {
        if (error !== null) fail(new Error(`svc ${args.join(" ")} failed: ${stderr || error.message}`))
        else done(JSON.parse(stdout))
      }
    )
  })

const field = (value: unknown, ...path: ReadonlyArray<string>): string => {
  let at = value
  for (const key of path) at = typeof at === "object" && at !== null && key in at ? Reflect.get(at, key) : undefined
  if (typeof at !== "string") throw new Error(`expected a string at ${path.join(".")} in ${JSON.stringify(value)}`)
  return at
}

/**
 * The V8 settings docs/performance.md recommends for `svc serve`. V8 sizes the old generation after the largest heap
 * it may use (about 4 GB on a 24 GB machine), and lets garbage grow to several times the live heap (~75 MB
 * here) before a full collection: RSS went past 500 MB under load with no leak (each full GC went back to the
 * live size). A 384 MB cap makes V8 collect sooner. 16 MB semi-spaces: a cached tool call allocates ~43 KB, and
 * with 8 MB the young collections took a few per cent more CPU (measured); RSS stays under ~200 MB. Allocation-site
 * pretenuring off: V8 otherwise begins making request-path objects in the old generation (~8 % of a call's CPU);
 * svc no longer sets it for itself, so the bench passes it on the command line as docs/performance.md advises.
 */
export const SERVE_NODE_FLAGS = [
  "--max-old-space-size=384",
  "--max-semi-space-size=16",
  "--no-allocation-site-pretenuring"
] as const

/** Our running server with its bench key and data, and what the other servers need to mirror it. */
export interface OursReady {
  readonly server: BenchProcess
  readonly token: string
  readonly keyId: string
  readonly workspaceId: string
  readonly noteId: string
  readonly note: { readonly title: string; readonly markdown: string }
  /** Our answer to each case, byte for byte, for the ceiling to send back. */
  readonly answers: CannedAnswers
  /** Our `tools/list` entries, for the reference to list the same tools. */
  readonly tools: ReadonlyArray<unknown>
}

/** A POST with the load's own headers, answered as it came over the wire (fetch would undo the gzip). */
const post = (baseUrl: string, path: string, token: string, body: string) =>
  new Promise<CannedAnswer>((done, fail) => {
    const request = httpRequest(`${baseUrl}${path}`, { method: "POST", headers: requestHeaders(token) }, (response) => {
      const chunks: Array<Buffer> = []
      response.on("data", (chunk: Buffer) => chunks.push(chunk))
      response.on("error", fail)
      response.on("end", () => {
        const bytes = Buffer.concat(chunks)
        const encoding = response.headers["content-encoding"]
        const status = response.statusCode ?? 0
        if (status < 200 || status > 299) {
          fail(new Error(`POST ${path} answered ${status}: ${bytes.toString("utf8")}`))
        } else done({ base64: bytes.toString("base64"), contentEncoding: encoding })
      })
    })
    request.on("error", fail)
    request.end(body)
  })

/** The text of an answer, gunzipped when it came gzipped (which also checks its CRC and length). */
export const answerText = (answer: CannedAnswer): string => {
  const bytes = Buffer.from(answer.base64, "base64")
  return (answer.contentEncoding === "gzip" ? gunzipSync(bytes) : bytes).toString("utf8")
}

/** Creates the bench account and key, starts `svc serve` on `database`, and writes the note to read. */
export const startOurs = async (
  database: BenchDatabase,
  options: { readonly profileDir?: string | undefined }
): Promise<OursReady> => {
  const email = "bench@bench.svc.local"
  const account = await svcJson(
    ["accounts", "create", "--email", email, "--password", "bench password, not secret", "--plan", "pro"],
    database.env
  )
  const key = await svcJson(["keys", "create", "--email", email, "--name", "bench", "--access", "full"], database.env)
  const keyId = field(key, "key", "id")
  const token = field(key, "token")
  const port = await freePort()
  const profileFlags = options.profileDir === undefined ? [] : ["--cpu-prof", `--cpu-prof-dir=${options.profileDir}`]
  const nodeFlags = [...SERVE_NODE_FLAGS, ...profileFlags]
  const server = await startProcess(
    "ours",
    [...nodeFlags, bin, "serve"],
    {
      DATABASE_URL: "",
      ...database.env,
      HOST: "127.0.0.1",
      PORT: String(port),
      SVC_BOOTSTRAP: "false",
      SVC_RATE_LIMIT_EXEMPT_KEYS: keyId
    },
    port
  )
  try {
    const note = { title: "Bench note", markdown: "# Bench note\n\nRead over and over by the benchmark." }
    const created = JSON.parse(
      answerText(await post(server.baseUrl, "/v1/tools/svc_create_note", token, JSON.stringify(note)))
    ) as unknown
    const noteId = field(created, "note", "id")
    const data = { noteId }
    const answer = (name: Parameters<typeof caseRequest>[0]) => {
      const request = caseRequest(name, data)
      return post(server.baseUrl, request.path, token, request.body)
    }
    const answers: CannedAnswers = {
      mcpCall: await answer("mcp-call"),
      mcpList: await answer("mcp-list"),
      restCall: await answer("rest-call"),
      mcpWrite: await answer("mcp-write")
    }
    const listed = JSON.parse(answerText(answers.mcpList)) as { result?: { tools?: ReadonlyArray<unknown> } }
    return {
      server,
      token,
      keyId,
      workspaceId: field(account, "workspace", "id"),
      noteId,
      note,
      answers,
      tools: listed.result?.tools ?? []
    }
  } catch (error) {
    await server.stop()
    throw error
  }
}
