import { TOOL_CALLS_PER_MINUTE } from "@svc/core/limits"
import {
  ALL_TOOLSETS,
  type ListedTool,
  READONLY_QUERY,
  type ToolDescriptor,
  TOOLSETS_QUERY,
  toolFailureJsonSchema,
  toolsetNames
} from "@svc/core/tools"
import type { PublicUrlShape } from "../config.js"
import { mediaOpenApiPaths } from "../media/openapi.js"
import { listedToolJsonSchema } from "./listing.js"

const failure = (description: string) => ({
  description,
  content: { "application/json": { schema: { $ref: "#/components/schemas/ToolFailure" } } }
})

const errorBody = (code: string) => ({
  type: "object",
  required: ["ok", "error", "message"],
  properties: {
    ok: { type: "boolean", enum: [false] },
    error: { type: "string", enum: [code] },
    message: { type: "string" }
  }
})

// The failure codes of the REST form; the status-to-code table is core's `httpStatusOf`.
const failureResponses = {
  "400": { $ref: "#/components/responses/MalformedBody" },
  "401": { $ref: "#/components/responses/Unauthorized" },
  "403": failure("forbidden: the credential's access or the account's plan does not allow this tool."),
  "404": failure("not-found (no such tool or record) or missing-workspace (no default workspace)."),
  "409": failure("conflict: the change clashes with the current state."),
  "413": failure("invalid: the body is larger than the server accepts."),
  "415": failure("invalid: a body was sent without Content-Type: application/json."),
  "422": failure("invalid: the input breaks the tool's inputSchema; errors lists each bad field."),
  "429": { $ref: "#/components/responses/RateLimited" },
  "500": { $ref: "#/components/responses/InternalError" },
  "502": failure("unreachable: an outside system the tool needs did not answer.")
}

// The caller's narrowing of the list (also taken as the X-MCP-Toolsets and X-MCP-Readonly headers). The toolsets are
// one comma-separated value, as the server reads them, so they are declared as text rather than an array.
const toolSelectionParameters = [
  {
    name: TOOLSETS_QUERY,
    in: "query",
    required: false,
    description: `Only these toolsets, comma-separated: ${[...toolsetNames, ALL_TOOLSETS].join(", ")}.`,
    schema: { type: "string" }
  },
  {
    name: READONLY_QUERY,
    in: "query",
    required: false,
    description: "true lists only the tools that change nothing.",
    schema: { type: "boolean" }
  }
]

const toolOperation = (tool: ToolDescriptor) => ({
  operationId: tool.name,
  summary: tool.title,
  description: tool.description,
  tags: [tool.group],
  ...(tool.deprecated ? { deprecated: true } : {}),
  "x-svc-write": tool.write,
  ...(tool.aliasOf ? { "x-svc-alias-of": tool.aliasOf } : {}),
  requestBody: {
    description: "The tool's arguments. An empty body is the same as {}; workspaceId may be left out.",
    required: false,
    content: { "application/json": { schema: tool.inputSchema } }
  },
  responses: {
    "200": { description: "The tool's answer.", content: { "application/json": { schema: tool.outputSchema } } },
    ...failureResponses
  }
})

/**
 * The OpenAPI 3.1 document of the REST form: one `POST /v1/tools/<name>` per served tool, its request
 * body the tool's input schema and its 200 answer the output schema, so the file cannot drift from MCP.
 */
export const makeToolsOpenApi = (tools: ReadonlyArray<ListedTool>, url: PublicUrlShape) => {
  const groups = [...new Set(tools.map((listed) => listed.descriptor.group))]
  return {
    openapi: "3.1.0",
    info: {
      title: "svc tools",
      version: "1.0.0",
      description: `Every tool of the svc tool server as a plain REST call. A failure answers { ok: false, status, message, errors? } with the HTTP code of its status: invalid 422, auth-expired 401, forbidden 403, not-found 404, missing-workspace 404, conflict 409, unreachable 502. At most ${TOOL_CALLS_PER_MINUTE} tool calls a minute per credential, shared with /mcp.`
    },
    servers: [{ url: url.base }],
    security: [{ bearerAuth: [] }],
    tags: groups.map((name) => ({ name })),
    paths: {
      "/v1/tools": {
        get: {
          operationId: "listTools",
          summary: "List the tools this credential can use",
          parameters: toolSelectionParameters,
          responses: {
            "200": {
              description: "The tools, in catalog order.",
              content: {
                "application/json": {
                  schema: {
                    type: "object",
                    required: ["ok", "tools"],
                    properties: {
                      ok: { type: "boolean", enum: [true] },
                      tools: { type: "array", items: listedToolJsonSchema }
                    }
                  }
                }
              }
            },
            "401": { $ref: "#/components/responses/Unauthorized" }
          }
        }
      },
      ...Object.fromEntries(
        tools.map((listed) => [`/v1/tools/${listed.descriptor.name}`, { post: toolOperation(listed.descriptor) }])
      ),
      ...mediaOpenApiPaths(tools)
    },
    components: {
      securitySchemes: {
        bearerAuth: { type: "http", scheme: "bearer", description: "An API key (svc_pat_…) or an OAuth access token." }
      },
      schemas: {
        ToolFailure: toolFailureJsonSchema,
        RateLimitedError: {
          type: "object",
          required: ["ok", "status", "message"],
          properties: {
            ok: { type: "boolean", enum: [false] },
            // Not a tool failure status: the HTTP face's own refusal, sent only with this 429.
            status: { type: "string", enum: ["rate-limited"] },
            message: { type: "string" }
          }
        },
        InternalError: errorBody("internal")
      },
      responses: {
        MalformedBody: failure("invalid: the body is not a JSON object."),
        Unauthorized: {
          description: "auth-expired: the bearer token is missing, malformed, expired or revoked.",
          headers: {
            "WWW-Authenticate": {
              description: "Bearer challenge naming the protected-resource metadata.",
              schema: { type: "string" }
            }
          },
          content: { "application/json": { schema: { $ref: "#/components/schemas/ToolFailure" } } }
        },
        RateLimited: {
          description: `More than ${TOOL_CALLS_PER_MINUTE} tool calls in a minute for this credential (REST and MCP together).`,
          headers: {
            "Retry-After": { description: "Seconds to wait before the next call.", schema: { type: "integer" } }
          },
          content: { "application/json": { schema: { $ref: "#/components/schemas/RateLimitedError" } } }
        },
        InternalError: {
          description: "A failure on the server's side; the message carries a request id.",
          content: { "application/json": { schema: { $ref: "#/components/schemas/InternalError" } } }
        }
      }
    }
  }
}
