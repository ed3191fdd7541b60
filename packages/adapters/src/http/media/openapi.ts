import type { ListedTool } from "@svc/core/tools"

const UPLOAD_TOOL = "svc_upload_scheduling_media"

const refusal = (description: string) => ({
  description,
  content: { "application/json": { schema: { $ref: "#/components/schemas/ToolFailure" } } }
})

/**
 * `POST /v1/media` in the REST document, when the media tools are served: a multipart body with one file part, and
 * the same answer as `svc_upload_scheduling_media` (its output schema), so the two cannot drift.
 */
export const mediaOpenApiPaths = (tools: ReadonlyArray<ListedTool>) => {
  const upload = tools.find((listed) => listed.descriptor.name === UPLOAD_TOOL)
  if (upload === undefined) return {}
  return {
    "/v1/media": {
      post: {
        operationId: "uploadMedia",
        summary: "Upload a media file",
        description:
          "Stores one file for posts (up to 100 MB; JPG, PNG, WebP, GIF, PDF, MP4, MOV or WebM, read from the bytes, not the name or declared type), refused while it streams when over the limit. The answer's media.id goes in svc_schedule_post's media. Needs what Scheduling's write tools need (edit access, the Starter plan).",
        tags: [upload.descriptor.group],
        "x-svc-write": true,
        requestBody: {
          required: true,
          content: {
            "multipart/form-data": {
              schema: {
                type: "object",
                required: ["file"],
                properties: {
                  workspace_id: {
                    type: "string",
                    description: "Workspace (ws_…), sent before the file part; default: yours."
                  },
                  file: { type: "string", format: "binary", description: "The file (the first file part is taken)." }
                }
              },
              encoding: { file: { contentType: "application/octet-stream" } }
            }
          }
        },
        responses: {
          "200": {
            description: "The stored file, as svc_upload_scheduling_media answers it.",
            content: { "application/json": { schema: upload.descriptor.outputSchema } }
          },
          "400": refusal("invalid: the body is not multipart/form-data with a file part."),
          "401": { $ref: "#/components/responses/Unauthorized" },
          "403": refusal("forbidden: the credential's access or the account's plan does not allow Scheduling writes."),
          "404": refusal("not-found (no such workspace) or missing-workspace."),
          "413": refusal("invalid: the file is over 100 MB (refused as it streams, or from Content-Length)."),
          "415": refusal("invalid: the file's bytes are not an allowed type."),
          "429": { $ref: "#/components/responses/RateLimited" },
          "500": { $ref: "#/components/responses/InternalError" }
        }
      }
    }
  }
}
