import type { StoreCaller } from "@svc/core/store"
import { CurrentStoreCaller } from "@svc/core/store-api"
import { Effect } from "effect"
import { withSpan } from "@svc/core/shared"

/**
 * Runs a store API handler for the authenticated caller, in a span named for its endpoint (`StoreApi.<group>.<name>`).
 * The platform's API builder makes no span per endpoint; the router's HTTP server span above it holds the route and
 * the status.
 */
export const withCaller = <A, E, R>(endpoint: string, use: (caller: StoreCaller) => Effect.Effect<A, E, R>) =>
  Effect.flatMap(CurrentStoreCaller, use).pipe(withSpan(`StoreApi.${endpoint}`))
