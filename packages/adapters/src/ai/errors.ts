import type { AiError } from "@effect/ai/AiError"
import { ModelRefused, ModelUnreachable } from "@svc/core/custom-ai"
import { Option } from "effect"
import type { ChatModelProvider } from "./settings.js"

/** What we tell an agent and the operator when the provider answered with an error status. */
export const statusFailure = (
  provider: ChatModelProvider,
  status: number,
  headers: Readonly<Record<string, string>>,
  body: string | undefined
): ModelUnreachable | ModelRefused => {
  if (status === 401 || status === 403) {
    return new ModelRefused({
      message: `the AI provider refused the API key (${status}); check SVC_AI_API_KEY`
    })
  }
  const detail = Option.fromNullable(body).pipe(
    Option.flatMap(providerMessage),
    Option.map((text) => `: ${text}`),
    Option.getOrElse(() => "")
  )
  if (status === 429 || status >= 500) {
    return new ModelUnreachable({
      message: `the AI provider (${provider}) is busy or failing (${status})${detail}; try again later`,
      retryAfterSeconds: retryAfterSeconds(headers["retry-after"])
    })
  }
  return new ModelRefused({ message: `the AI provider (${provider}) refused the request (${status})${detail}` })
}

/** The `error.message` of an OpenAI- or Anthropic-shaped error body, cut short; never the request (it holds the key). */
const providerMessage = (body: string): Option.Option<string> => {
  const text = (() => {
    try {
      const parsed: unknown = JSON.parse(body)
      if (typeof parsed === "string") return parsed
      if (typeof parsed === "object" && parsed !== null && "error" in parsed) {
        const error = parsed.error
        if (typeof error === "string") return error
        if (typeof error === "object" && error !== null && "message" in error && typeof error.message === "string") {
          return error.message
        }
      }
      return body
    } catch {
      return body
    }
  })().trim()
  return text.length === 0 ? Option.none() : Option.some(text.length > 300 ? `${text.slice(0, 300)}…` : text)
}

/** `Retry-After` as seconds: a number of seconds, or an HTTP date (then the seconds from now, at least 1). */
const retryAfterSeconds = (header: string | undefined): number | undefined => {
  if (header === undefined) return undefined
  const seconds = Number(header)
  if (Number.isFinite(seconds) && seconds >= 0) return Math.ceil(seconds)
  const at = Date.parse(header)
  return Number.isNaN(at) ? undefined : Math.max(1, Math.ceil((at - Date.now()) / 1000))
}

const unreachable = (provider: ChatModelProvider, why: string) =>
  new ModelUnreachable({ message: `the AI provider (${provider}) could not be reached: ${why}; try again later` })

/** An `@effect/ai` failure (the OpenAI and Anthropic language models) as the port's errors. */
export const fromAiError = (provider: ChatModelProvider, error: AiError): ModelUnreachable | ModelRefused => {
  switch (error._tag) {
    case "HttpResponseError":
      return error.reason === "StatusCode"
        ? statusFailure(provider, error.response.status, error.response.headers, error.description ?? error.body)
        : unreachable(provider, `its answer could not be read (${error.response.status})`)
    case "HttpRequestError":
      return unreachable(provider, error.reason === "Transport" ? "the connection failed" : error.reason)
    case "MalformedOutput":
      return unreachable(provider, "its answer was not in the expected format")
    case "MalformedInput":
      return new ModelRefused({ message: `the AI provider (${provider}) could not be sent the request` })
    case "UnknownError":
      return unreachable(provider, error.description ?? "unknown error")
  }
}

/** Our own HTTP calls (chat completions, embeddings, the probe) when no answer came back at all. */
export const fromRequestError = (provider: ChatModelProvider): ModelUnreachable =>
  unreachable(provider, "the connection failed")

/** A success status whose body is not what the API documents. */
export const malformedAnswer = (provider: ChatModelProvider): ModelUnreachable =>
  unreachable(provider, "its answer was not in the expected format")

/** The call ran past `SVC_AI_TIMEOUT_MS`. */
export const timedOut = (provider: ChatModelProvider, timeoutMs: number) =>
  new ModelUnreachable({
    message: `the AI provider (${provider}) did not answer within ${timeoutMs} ms (SVC_AI_TIMEOUT_MS); try again later`
  })
