import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import {
  Authenticator,
  resolveStoreCaller,
  StoreAuth,
  StoreForbidden,
  StorePlanRequired,
  StoreUnauthorized,
  WorkspacesRepo
} from "@svc/core"
import { Effect, Layer, Redacted } from "effect"

/**
 * The store API's bearer check. A request without `Authorization` still arrives here with an empty
 * token (the platform decodes a missing header as ""), so the authenticator's empty-token refusal
 * is what turns it away with 401.
 */
export const StoreAuthLive = Layer.effect(
  StoreAuth,
  Effect.gen(function* () {
    const authenticator = yield* Authenticator
    const workspaces = yield* WorkspacesRepo
    return StoreAuth.of({
      bearer: (token) =>
        Effect.gen(function* () {
          const request = yield* HttpServerRequest.HttpServerRequest
          const principal = yield* authenticator
            .authenticate(Redacted.value(token), "store")
            .pipe(Effect.mapError((error) => new StoreUnauthorized({ message: error.message })))
          const isChange = request.method !== "GET" && request.method !== "HEAD"
          return yield* resolveStoreCaller(principal, isChange).pipe(
            Effect.provideService(WorkspacesRepo, workspaces),
            Effect.mapError((error) =>
              error._tag === "AuthExpired"
                ? new StoreUnauthorized({ message: error.message })
                : error.code === "plan"
                  ? new StorePlanRequired({ message: error.message })
                  : new StoreForbidden({ code: error.code, message: error.message })
            )
          )
        })
    })
  })
)
