import { httpStatusOf } from "@svc/core"

/** JSON Schema (2020-12) of a tool failure `{ ok: false, status, message, errors? }`, shared by MCP and OpenAPI. */
export const toolFailureJsonSchema = {
  type: "object",
  description: "A tool call that could not be fulfilled. Fix the input on invalid; never retry it unchanged.",
  required: ["ok", "status", "message"],
  properties: {
    ok: { type: "boolean", enum: [false], description: "Always false on failure." },
    status: {
      type: "string",
      enum: Object.keys(httpStatusOf),
      description:
        "invalid: fix the input. auth-expired: reconnect. conflict, forbidden, not-found, unreachable, missing-workspace: tell the user."
    },
    message: { type: "string", description: "What went wrong and what to do next." },
    errors: {
      type: "array",
      description: "With invalid: one entry per bad field.",
      items: {
        type: "object",
        required: ["path", "message"],
        properties: {
          path: { type: "string", description: "Dotted path of the field (media.0.url); empty for the whole input." },
          message: { type: "string", description: "What is wrong with the field." }
        },
        additionalProperties: false
      }
    }
  },
  additionalProperties: false
} as const
