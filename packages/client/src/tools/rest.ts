import type { CallOptions, Requester } from "../http/request.js"
import { toolAnswerOf, toolFailureOf, unexpectedAnswer } from "./answer.js"
import type { ToolTransport } from "./transport.js"

/** Tools over the REST face: `POST /v1/tools/{name}` with the arguments as the JSON body. */
export const restTransport =
  (send: Requester): ToolTransport =>
  async (tool: string, input: object | undefined, options?: CallOptions): Promise<object> => {
    const answer = await send(
      { method: "POST", path: `/v1/tools/${encodeURIComponent(tool)}`, body: input ?? {} },
      options
    )
    if (answer.status === 200) return toolAnswerOf(tool, answer.body, answer.status)
    throw toolFailureOf(tool, answer.body, answer.status) ?? unexpectedAnswer(tool, answer.status, answer.body)
  }
