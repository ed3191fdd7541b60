import type * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import { Effect, Option, Redacted } from "effect"
import type { ChatModelSettings } from "./settings.js"

/** The provider's cheapest authenticated call: listing its models. */
const modelsRequest = (settings: ChatModelSettings): HttpClientRequest.HttpClientRequest => {
  const key = Option.map(settings.apiKey, Redacted.value)
  if (settings.provider === "anthropic") {
    return HttpClientRequest.get(`${settings.baseUrl}/v1/models`).pipe(
      HttpClientRequest.setHeader("anthropic-version", "2023-06-01"),
      (request) =>
        Option.match(key, {
          onNone: () => request,
          onSome: (k) => HttpClientRequest.setHeader(request, "x-api-key", k)
        })
    )
  }
  const request = HttpClientRequest.get(`${settings.baseUrl}/models`)
  return Option.match(key, { onNone: () => request, onSome: (k) => HttpClientRequest.bearerToken(request, k) })
}

/**
 * Checks the key once at start-up and says what it found in the log. It never stops the server: the provider may be
 * down or the machine offline at start, and the calls report their own failures.
 */
export const probeProvider = (http: HttpClient.HttpClient, settings: ChatModelSettings): Effect.Effect<void> =>
  http.execute(modelsRequest(settings)).pipe(
    Effect.flatMap((response) =>
      response.status === 401 || response.status === 403
        ? Effect.logWarning(
            `the AI provider (${settings.provider}) refused the API key (${response.status}); check SVC_AI_API_KEY`
          )
        : response.status >= 200 && response.status < 300
          ? Effect.logInfo(`the AI provider (${settings.provider}) accepted the API key; model ${settings.model}`)
          : Effect.logWarning(
              `the AI provider (${settings.provider}) answered the start-up check with ${response.status} (${settings.baseUrl})`
            )
    ),
    Effect.timeout(settings.timeoutMs),
    Effect.catchAll(() =>
      Effect.logWarning(
        `the AI provider (${settings.provider}) could not be reached at ${settings.baseUrl} at start-up; answers will report it`
      )
    )
  )
