import type * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import type { ModelRefused, ModelUnreachable } from "@svc/core/custom-ai"
import { Effect, Option, Redacted, Schema } from "effect"
import { fromRequestError, malformedAnswer, statusFailure, timedOut } from "./errors.js"
import type { ChatModelSettings } from "./settings.js"

/**
 * One call to an OpenAI-shaped API (`{base}/chat/completions`, `/embeddings`, `/models`) with the bearer key when one
 * is set, decoded leniently: local servers (Ollama, llama.cpp, vLLM, LM Studio) leave out fields OpenAI always sends.
 */
export const callOpenAiShaped = <A, I>(
  http: HttpClient.HttpClient,
  settings: ChatModelSettings,
  request: HttpClientRequest.HttpClientRequest,
  answer: Schema.Schema<A, I>
): Effect.Effect<A, ModelUnreachable | ModelRefused> => {
  const authorized = request.pipe(
    HttpClientRequest.prependUrl(settings.baseUrl),
    HttpClientRequest.acceptJson,
    (withUrl) =>
      Option.match(settings.apiKey, {
        onNone: () => withUrl,
        onSome: (key) => HttpClientRequest.bearerToken(withUrl, Redacted.value(key))
      })
  )
  return http.execute(authorized).pipe(
    Effect.mapError(() => fromRequestError(settings.provider)),
    Effect.flatMap((response) =>
      response.text.pipe(
        Effect.mapError(() => fromRequestError(settings.provider)),
        Effect.flatMap((body) =>
          response.status >= 200 && response.status < 300
            ? Schema.decodeUnknown(Schema.parseJson(answer))(body).pipe(
                Effect.mapError(() => malformedAnswer(settings.provider))
              )
            : Effect.fail(statusFailure(settings.provider, response.status, response.headers, body))
        )
      )
    ),
    withDeadline(settings)
  )
}

/** `SVC_AI_TIMEOUT_MS` over a whole provider call: past it the call is abandoned and reported unreachable. */
export const withDeadline =
  (settings: ChatModelSettings) =>
  <A, E, R>(call: Effect.Effect<A, E, R>): Effect.Effect<A, E | ModelUnreachable, R> =>
    Effect.timeoutFail(call, {
      duration: settings.timeoutMs,
      onTimeout: () => timedOut(settings.provider, settings.timeoutMs)
    })
