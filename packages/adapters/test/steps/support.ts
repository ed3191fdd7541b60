/** Calls of the automation steps over the test service's real Node server, answered as status, headers and JSON. */
import { Effect } from "effect"
import type { TestAppShape } from "../support/app.js"

/** A step's answer. */
export interface StepAnswer {
  readonly status: number
  readonly headers: Headers
  readonly body: Record<string, unknown>
}

/** One call of a step at `path` (with its query), as the automation tool makes it. */
export const callStep = (
  app: TestAppShape,
  method: "GET" | "POST",
  path: string,
  options: { readonly token?: string; readonly body?: unknown; readonly rawBody?: string } = {}
): Effect.Effect<StepAnswer> =>
  Effect.promise(async () => {
    const headers: Record<string, string> = {}
    if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`
    const payload = options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body))
    if (payload !== undefined) headers["content-type"] = "application/json"
    const response = await app.viaNode(
      new Request(`${app.url}${path}`, { method, headers, ...(payload === undefined ? {} : { body: payload }) })
    )
    const body = (await response.json()) as Record<string, unknown>
    return { status: response.status, headers: response.headers, body }
  })

/** A tool's answer over the REST face, to set up state or compare with. */
export const callTool = (app: TestAppShape, token: string, name: string, args: Record<string, unknown>) =>
  Effect.promise(async () => {
    const response = await fetch(`${app.url}/v1/tools/${name}`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify(args)
    })
    const body = (await response.json()) as Record<string, unknown>
    if (body.ok !== true) throw new Error(`${name} failed: ${JSON.stringify(body)}`)
    return body
  })

/** The rows of a list step's answer. */
export const rowsOf = (answer: StepAnswer) => answer.body.data as ReadonlyArray<Record<string, unknown>>
