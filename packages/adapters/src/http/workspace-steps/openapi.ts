import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter"
import { TOOL_CALLS_PER_MINUTE } from "@svc/core/limits"
import { Effect, JSONSchema, type Layer, type Schema } from "effect"
import { PublicUrl, type PublicUrlShape } from "../config.js"
import { jsonText } from "../body.js"
import { aiStepOperations } from "./ai-step-operations.js"
import type { StepOperation } from "./operation.js"
import { API_PREFIX } from "./wire.js"

/** Where the OpenAPI document of every automation step is served: `{api_url}/openapi.json`. */
export const STEPS_OPENAPI_PATH = `${API_PREFIX}/openapi.json` as const

type JsonSchema = ReturnType<typeof JSONSchema.make>

const errorResponse = (description: string) => ({
  description,
  content: { "application/json": { schema: { $ref: "#/components/schemas/StepError" } } }
})

// The store API's error codes, as the steps answer them (docs/automation-steps.md has the table).
const refusals = (write: boolean, planned: boolean, withBody: boolean) => ({
  ...(withBody ? { "400": errorResponse("bad_request: the body is not a JSON object.") } : {}),
  "401": {
    ...errorResponse("unauthorized: the token is missing, unknown, expired or revoked."),
    headers: { "WWW-Authenticate": { schema: { type: "string" }, description: "Bearer challenge." } }
  },
  "403": errorResponse(
    `forbidden: the credential has no ${write ? "edit" : "read"} access to this step's part${planned ? ", or the plan is below Starter" : ""}.`
  ),
  "404": errorResponse("not_found: no such workspace, item or board for this credential."),
  ...(write ? { "409": errorResponse("conflict: the change clashes with the current state.") } : {}),
  ...(withBody ? { "413": errorResponse("payload_too_large: the body is over 1 MiB.") } : {}),
  "422": errorResponse("invalid_field: errors names each field (or query parameter) that breaks a rule."),
  "429": {
    ...errorResponse(
      `rate_limited: over ${TOOL_CALLS_PER_MINUTE} calls a minute for this credential, shared with the tools.`
    ),
    headers: { "Retry-After": { schema: { type: "integer" }, description: "Seconds to wait." } }
  },
  "500": errorResponse("internal: a server fault; the message carries a request id.")
})

/**
 * A schema without the `title`s Effect makes from its checks (`maxLength(100)`): the descriptions say more. The keys
 * of `properties` are field names, not keywords, so a field called `title` stays.
 */
const withoutTitles = (node: unknown, fieldNames = false): unknown => {
  if (Array.isArray(node)) return node.map((item) => withoutTitles(item))
  if (typeof node !== "object" || node === null) return node
  return Object.fromEntries(
    Object.entries(node)
      .filter(([key]) => fieldNames || key !== "title")
      .map(([key, value]) => [key, withoutTitles(value, !fieldNames && key === "properties")])
  )
}

/** The document's entries, their schemas' shared definitions gathered in `definitions`. */
const operationEntry = (operation: StepOperation, definitions: Record<string, JsonSchema>) => {
  const schemaOf = (schema: Schema.Schema.AnyNoContext) =>
    withoutTitles(
      JSONSchema.fromAST(schema.ast, {
        definitions,
        definitionPath: "#/components/schemas/",
        target: "openApi3.1",
        additionalPropertiesStrategy: "allow"
      })
    ) as Record<string, unknown>
  const query = operation.query === undefined ? undefined : schemaOf(operation.query)
  const properties = (query?.properties ?? {}) as Record<string, Record<string, unknown>>
  const required = new Set((query?.required ?? []) as ReadonlyArray<string>)
  const planned = operation.group === "Scheduling"
  return {
    operationId: operation.operationId,
    summary: operation.summary,
    description: operation.description,
    tags: [operation.group ?? "Account"],
    "x-svc-write": operation.write,
    parameters: [
      ...(operation.pathParameters ?? []).map((parameter) => ({
        name: parameter.name,
        in: "path",
        required: true,
        description: parameter.description,
        schema: { type: "string" }
      })),
      ...Object.entries(properties).map(([name, schema]) => ({
        name,
        in: "query",
        required: required.has(name),
        ...(typeof schema.description === "string" ? { description: schema.description } : {}),
        schema
      }))
    ],
    ...(operation.body === undefined
      ? {}
      : {
          requestBody: {
            required: true,
            content: { "application/json": { schema: schemaOf(operation.body) } }
          }
        }),
    responses: {
      "200": { description: "Done.", content: { "application/json": { schema: schemaOf(operation.answer) } } },
      ...refusals(operation.write, planned, operation.body !== undefined)
    }
  }
}

/**
 * The OpenAPI 3.1 document of the automation steps: `{api_url}` (`/api`), `{scheduling_url}` (`/scheduling`) and
 * `{ai_url}` (`/ai`), each request and answer from the schemas the steps decode and encode with.
 */
export const makeStepsOpenApi = (operations: ReadonlyArray<StepOperation>, url: PublicUrlShape) => {
  const definitions: Record<string, JsonSchema> = {}
  const paths: Record<string, Record<string, unknown>> = {}
  for (const operation of [...operations, ...aiStepOperations]) {
    paths[operation.path] = { ...paths[operation.path], [operation.method]: operationEntry(operation, definitions) }
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "svc automation steps",
      version: "1.0.0",
      description: `The workspace steps an automation tool (Zapier) calls: {api_url} is ${url.base}${API_PREFIX}, {scheduling_url} ${url.base}/scheduling and {ai_url} ${url.base}/ai. Each takes the tools' bearer token and follows the rules of its tool group (access part, write scope, plan); a refusal answers { ok: false, error, message, errors? }. At most ${TOOL_CALLS_PER_MINUTE} calls a minute per credential, shared with the tools.`
    },
    servers: [{ url: url.base }],
    security: [{ bearerAuth: [] }],
    paths,
    components: {
      securitySchemes: {
        bearerAuth: { type: "http", scheme: "bearer", description: "An API key (svc_pat_…) or an OAuth access token." }
      },
      schemas: {
        ...(withoutTitles(definitions, true) as Record<string, unknown>),
        StepError: {
          type: "object",
          required: ["ok", "error", "message"],
          properties: {
            ok: { type: "boolean", enum: [false] },
            error: { type: "string", description: "bad_request, unauthorized, forbidden, not_found, conflict, …" },
            message: { type: "string" },
            errors: {
              type: "array",
              items: {
                type: "object",
                required: ["path", "message"],
                properties: { path: { type: "string" }, message: { type: "string" } }
              }
            },
            retry_after_seconds: { type: "integer" }
          }
        }
      }
    }
  }
}

/** `GET {api_url}/openapi.json`: the steps' OpenAPI document, public like the other faces' documents. */
export const stepsOpenApiRoute = (
  operations: ReadonlyArray<StepOperation>
): Layer.Layer<never, never, HttpLayerRouter.HttpRouter | PublicUrl> =>
  HttpLayerRouter.use((router) =>
    Effect.gen(function* () {
      const url = yield* PublicUrl
      // Made once: the document depends on nothing but the public URL. Public and the same for everyone, like the
      // REST document, so browser tools (Swagger UI, editors) may fetch it from anywhere.
      const document = JSON.stringify(makeStepsOpenApi(operations, url))
      yield* router.add("GET", STEPS_OPENAPI_PATH, () =>
        Effect.succeed(jsonText(200, document, { "access-control-allow-origin": "*" }))
      )
    })
  )
