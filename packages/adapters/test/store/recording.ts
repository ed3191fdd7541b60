/**
 * Recording store API exchanges as text, and holding a recording to the one kept beside a test: method, path, the
 * request body as sent, status, Content-Type and the exact body text of each answer. `SVC_RECORD=1` rewrites the
 * kept recording instead of comparing.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { dirname } from "node:path"
import { fileURLToPath } from "node:url"
import { expect } from "@effect/vitest"
import { Effect } from "effect"

/** Whether this run rewrites the recordings (`SVC_RECORD=1`) rather than comparing with them. */
export const recording = process.env.SVC_RECORD === "1"

/** A request body: a value sent as JSON, or text sent as it is with how the recording shows it. */
export type RequestBody = unknown | { readonly raw: string; readonly shown: string }

const isRaw = (body: RequestBody): body is { readonly raw: string; readonly shown: string } =>
  typeof body === "object" && body !== null && "raw" in body && "shown" in body

/** One answer: its status and its body parsed (undefined when it is not JSON). */
export interface Answer {
  readonly status: number
  readonly json: unknown
}

/**
 * Sends requests to `/store-app/v1` of `baseUrl` as named credentials and keeps each exchange as text, its body
 * passed through `normalise` (which should only put placeholders like `<latency>` where a run cannot be predictable).
 */
export const makeRecorder = (
  baseUrl: string,
  tokens: Readonly<Record<string, string | undefined>>,
  beforeEach: () => void,
  normalise: (body: string) => string = (body) => body
) => {
  const blocks: Array<string> = []
  const send = (who: string, method: string, path: string, body?: RequestBody): Effect.Effect<Answer> =>
    Effect.promise(async () => {
      beforeEach()
      const headers: Record<string, string> = {}
      const token = tokens[who]
      if (token !== undefined) headers.authorization = `Bearer ${token}`
      const sent = body === undefined ? undefined : isRaw(body) ? body.raw : JSON.stringify(body)
      if (sent !== undefined) headers["content-type"] = "application/json"
      const response = await fetch(`${baseUrl}/store-app/v1${path}`, { method, headers, body: sent ?? null })
      const text = await response.text()
      const shown = body === undefined ? undefined : isRaw(body) ? body.shown : sent
      blocks.push(
        [
          `### ${blocks.length + 1} ${method} ${path} as ${who}`,
          ...(shown === undefined ? [] : [`> ${shown}`]),
          `< ${response.status} ${response.headers.get("content-type") ?? "(no content-type)"}`,
          normalise(text)
        ].join("\n")
      )
      let json: unknown
      try {
        json = JSON.parse(text)
      } catch {
        json = undefined
      }
      return { status: response.status, json }
    })
  return { send, text: () => `${blocks.join("\n\n")}\n` }
}

const prettyBody = (line: string) => {
  try {
    // A bare placeholder (`"latency_ms":<latency>`) is read as a string, for the display only.
    return JSON.stringify(JSON.parse(line.replace(/:<([\w-]+)>/g, ':"<$1>"')), null, 2)
  } catch {
    return line
  }
}

// One exchange with its body spread over lines, so a failure's diff points at the field rather than a long line.
const readable = (block: string) => block.split("\n").map(prettyBody).join("\n")

const blocksOf = (text: string) => text.replace(/\n$/, "").split(/\n\n(?=### )/)

/**
 * Holds `actual` to the recording at `file` (a URL beside the test), or writes it there under `SVC_RECORD=1`.
 * The first exchange that differs fails first, with its JSON bodies spread over lines; then the whole text must be
 * the same byte for byte (key order, spacing, the exchanges after it).
 */
export const matchRecording = (
  file: URL,
  actual: string,
  options: {
    /** Whether `actual` is exchanges (compared one by one first) rather than one document. */
    readonly exchanges: boolean
    /** Whether `actual` holds only the first exchanges of a run that stopped: compares those, never writes. */
    readonly partial?: boolean
  }
) => {
  const path = fileURLToPath(file)
  if (recording && options.partial === true) return
  if (recording) {
    mkdirSync(dirname(path), { recursive: true })
    writeFileSync(path, actual)
    return
  }
  let expected: string
  try {
    expected = readFileSync(path, "utf8")
  } catch {
    throw new Error(`no recording at ${path}; make it with SVC_RECORD=1`)
  }
  if (options.exchanges) {
    const got = blocksOf(actual)
    const want = blocksOf(expected)
    const first = got.findIndex((block, i) => block !== want[i])
    if (first >= 0) {
      const title = (want[first] ?? got[first] ?? "").split("\n")[0]
      expect(readable(got[first] ?? "(no such exchange)"), `first exchange that differs: ${title}`).toBe(
        readable(want[first] ?? "(no such exchange)")
      )
    }
    if (options.partial === true) return
  } else {
    expect(readable(actual), "the document, spread over lines").toBe(readable(expected))
  }
  expect(actual, "byte for byte").toBe(expected)
}
