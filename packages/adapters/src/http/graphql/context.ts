import { WorkspacesRepo } from "@svc/core/accounts"
import { type Audience, Authenticator, type Principal, type ScopeNotGranted } from "@svc/core/auth"
import type { DomainFailure } from "@svc/core/shared"
import { resolveStoreCaller, type StoreCaller } from "@svc/core/store"
import { type InsufficientScope, type ToolAnswer, ToolServer, type UnknownTool } from "@svc/core/tools"
import { Cause, Effect, Exit, Option, Runtime } from "effect"
import { GraphQLError } from "graphql"
import { bearerTokenOf, makeToolGate } from "../auth.js"
import type { PublicUrl } from "../config.js"
import { failureError, graphqlError } from "./errors.js"
import type { GraphqlServices } from "./services.js"

export type { GraphqlServices }

/**
 * A failure any resolver's effect may end with: a domain failure (answered through the face's failure table), or a
 * refusal of the credential's scopes or of a tool name, which the tool faces answer at the protocol level.
 */
export type GraphqlRefusal = DomainFailure | ScopeNotGranted | InsufficientScope | UnknownTool

/**
 * What a resolver knows of its request: the caller (authenticated lazily, once per audience), the rate limit, a
 * runner for core effects that turns their failures into GraphQL errors, and request-scoped memos (DataLoaders).
 */
export interface GraphqlContext {
  /** The caller as the tools see it (`AuthExpired` → 401, a `store`-only OAuth token → `FORBIDDEN`). */
  readonly toolsCaller: () => Promise<Principal>
  /** The caller on whichever face its token reaches: the tools', or the store API's for a `store`-only OAuth token. */
  readonly caller: () => Promise<Principal>
  /** The caller of the store API, for a read or a change (plan, store access and binding as on `/store-app/v1`). */
  readonly storeCaller: (change: boolean) => Promise<StoreCaller>
  /** Takes one call from the caller's per-minute limit (every root field does, once). */
  readonly admit: () => Promise<void>
  /** Runs a tool for the caller without taking from the limit (its root field did); refusals become failures. */
  readonly callTool: (name: string, args: Readonly<Record<string, unknown>>) => Promise<ToolAnswer>
  /** Runs a core effect; its declared failures become GraphQL errors (`extensions.code` and `status`). */
  readonly run: <A, E extends GraphqlRefusal>(effect: Effect.Effect<A, E, GraphqlServices>) => Promise<A>
  /** A value made once per request under `key` (a DataLoader, say). */
  readonly memo: <A>(key: string, make: () => A) => A
  /** Aborted when the client goes away. */
  readonly signal: AbortSignal
  /** The web request (for its headers: `Last-Event-ID`). */
  readonly request: Request
}

/** A refusal as a thrown GraphQL error. */
export const toGraphqlError = (failure: GraphqlRefusal, challenge: string): GraphQLError => {
  switch (failure._tag) {
    case "ScopeNotGranted":
    case "InsufficientScope":
      return failureError({ status: "forbidden", message: failure.message })
    case "UnknownTool":
      return failureError({ status: "invalid", message: failure.message })
    default:
      return graphqlError(failure, challenge)
  }
}

/** Makes the context of each GraphQL request from the services of the face. */
export const makeContextFactory = Effect.gen(function* () {
  const runtime = yield* Effect.runtime<GraphqlServices | PublicUrl>()
  const authenticator = yield* Authenticator
  const tools = yield* ToolServer
  const workspaces = yield* WorkspacesRepo
  const gate = yield* makeToolGate

  return (request: Request): GraphqlContext => {
    const headers = { header: (name: string) => request.headers.get(name) ?? undefined }
    const token = bearerTokenOf(headers)
    const challenge = gate.challengeFor(headers)
    const signal = request.signal

    const run = <A, E extends GraphqlRefusal>(effect: Effect.Effect<A, E, GraphqlServices>): Promise<A> =>
      Runtime.runPromiseExit(runtime)(effect, { signal }).then((exit) => {
        if (Exit.isSuccess(exit)) return exit.value
        const failure = Cause.failureOption(exit.cause)
        if (Option.isSome(failure)) throw toGraphqlError(failure.value, challenge)
        // A defect: yoga masks it as "Unexpected error." and logs it.
        throw Cause.squash(exit.cause)
      })

    const principals = new Map<Audience, Promise<Principal>>()
    const principal = (audience: Audience): Promise<Principal> => {
      let found = principals.get(audience)
      if (found === undefined) {
        found = run(authenticator.authenticate(token, audience))
        principals.set(audience, found)
      }
      return found
    }

    const memos = new Map<string, unknown>()
    const memo = <A>(key: string, make: () => A): A => {
      if (!memos.has(key)) memos.set(key, make())
      return memos.get(key) as A
    }

    // The limit is per credential, whichever face it reaches; a `store`-only OAuth token is the store API's caller.
    const caller = () =>
      principal("tools").catch((error: unknown) =>
        error instanceof GraphQLError && error.extensions.status === "forbidden"
          ? principal("store")
          : Promise.reject(error)
      )

    return {
      toolsCaller: () => principal("tools"),
      caller,
      storeCaller: async (change) => {
        const store = await principal("store")
        return run(Effect.provideService(resolveStoreCaller(store, change), WorkspacesRepo, workspaces))
      },
      admit: async () => {
        await run(tools.admit(await caller()))
      },
      callTool: async (name, args) => {
        const caller = await principal("tools")
        return run(
          tools.callAdmitted(caller, name, args).pipe(
            Effect.catchTag("InsufficientScope", (refused) =>
              Effect.succeed<ToolAnswer>({
                ok: false,
                status: "forbidden",
                message: `${refused.tool} changes data and this connection has only the read scope; authorize again with scope "read write"`
              })
            )
          )
        )
      },
      run,
      memo,
      signal,
      request
    }
  }
})
