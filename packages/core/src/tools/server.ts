import { Cache, Duration, Effect, Exit, Option } from "effect"
import { WorkspacesRepo } from "../accounts/ports.js"
import type { Workspace } from "../accounts/workspace.js"
import type { Principal } from "../auth/schema.js"
import { RateLimiter } from "../limits/ports.js"
import { RateLimited, TOOL_CALLS_PER_MINUTE } from "../limits/schema.js"
import { type DomainError, MissingWorkspace, NotFound } from "../shared/errors.js"
import { type ToolFailure, toolFailure } from "./failure.js"
import { countToolFailure } from "./metrics.js"
import { InsufficientScope, UnknownTool } from "./refusals.js"
import { groupRefusal } from "./group-access.js"
import { canUse, type ListedTool, ToolRegistry } from "./registry.js"
import { selects, type ToolSelection } from "./toolsets.js"
import { getUninterrupted } from "../shared/cache-get.js"
import { withSpan } from "../shared/spans.js"

/** A finished tool call: `{ ok: true, ... }` or a tool failure. */
export type ToolAnswer = Readonly<Record<string, unknown>> | ToolFailure

/** Why a call ran no tool: each face answers these at the protocol level, not as a tool failure. */
export type ToolRefusal = UnknownTool | InsufficientScope | RateLimited

// Every tool call acts in a workspace, and reading it on every call would double the queries of a cheap read.
// A found workspace is remembered per process for 5 seconds. What the access check reads from it (its id and
// owner) never changes; a workspace deleted by another process may still be found here for that long (its items go
// with it, so reads answer not-found). A workspace that is not found is not remembered (a time to live of zero).
// `Cache` serves an entry through the last millisecond of its time to live: one less keeps "for 5 seconds".
const WORKSPACE_REMEMBER_TTL = Duration.millis(5_000 - 1)
const WORKSPACE_REMEMBER_AT_MOST = 10_000

/** A served name as the tool server keeps it: its registry entry and the options of its span. */
interface ServedTool {
  readonly listed: ListedTool
  readonly span: { readonly captureStackTrace: false; readonly attributes: { readonly tool: string } }
}

/** Lists and runs tools for a caller: scope, rate-limit, access, plan and workspace rules in one place for every face. */
export class ToolServer extends Effect.Service<ToolServer>()("svc/tools/ToolServer", {
  effect: Effect.gen(function* () {
    const registry = yield* ToolRegistry
    const workspaces = yield* WorkspacesRepo
    const limiter = yield* RateLimiter

    const remembered = yield* Cache.makeWith({
      capacity: WORKSPACE_REMEMBER_AT_MOST,
      lookup: (id: string) => workspaces.findById(id),
      timeToLive: (exit) => (Exit.isSuccess(exit) && Option.isSome(exit.value) ? WORKSPACE_REMEMBER_TTL : Duration.zero)
    })
    const findWorkspace = (id: string): Effect.Effect<Option.Option<Workspace>> => getUninterrupted(remembered, id)

    const missingWorkspace = () =>
      new MissingWorkspace({
        message:
          "you have no default workspace; pass workspaceId (see svc_list_workspaces) or ask the account owner to create one"
      })

    const resolveWorkspace =
      (principal: Principal) =>
      (workspaceId: string | undefined): Effect.Effect<Workspace, DomainError> => {
        if (workspaceId === undefined) {
          if (principal.workspaceId === null) return Effect.fail(missingWorkspace())
          return Effect.flatMap(findWorkspace(principal.workspaceId), (found) =>
            Option.isSome(found) ? Effect.succeed(found.value) : Effect.fail(missingWorkspace())
          )
        }
        const unreachable = () =>
          new NotFound({
            message: `no workspace ${workspaceId} that this credential can reach; svc_list_workspaces lists the ones it can`
          })
        // A bound credential reaches its own workspace only: any other id is refused without a lookup.
        if (principal.reach === "bound" && workspaceId !== principal.workspaceId) return Effect.fail(unreachable())
        return Effect.flatMap(findWorkspace(workspaceId), (found) =>
          Option.isSome(found) &&
          (principal.reach === "bound"
            ? found.value.id === principal.workspaceId
            : found.value.ownerId === principal.accountId)
            ? Effect.succeed(found.value)
            : Effect.fail(unreachable())
        )
      }

    // Each served name with its span options, made once: a call looks its name up here and nowhere else.
    const served = new Map<string, ServedTool>(
      registry.tools.map((listed) => [
        listed.entry.name,
        { listed, span: { captureStackTrace: false, attributes: { tool: listed.entry.name } } }
      ])
    )

    // Only failures are counted here (a success costs nothing more); the faces count every call.
    const counted = (tool: string, failure: ToolFailure): Effect.Effect<ToolFailure> =>
      Effect.as(countToolFailure(tool, failure.status), failure)

    /** Access and plan, then the tool itself; every outcome is an answer. */
    const run = (principal: Principal, tool: ServedTool, args: unknown): Effect.Effect<ToolAnswer> => {
      const { listed, span } = tool
      const { entry } = listed
      const refusal = groupRefusal(principal, entry)
      if (refusal !== undefined) return counted(entry.name, toolFailure(refusal))
      return listed.tool.execute(args, principal, resolveWorkspace(principal)).pipe(
        Effect.catchAll((error): Effect.Effect<ToolFailure> => counted(entry.name, toolFailure(error))),
        withSpan("ToolServer.call", span)
      )
    }

    const rateLimited = (retryAfterMs: number) =>
      new RateLimited({
        message: `more than ${TOOL_CALLS_PER_MINUTE} tool calls in a minute; retry after the Retry-After seconds`,
        retryAfterSeconds: Math.max(1, Math.ceil(retryAfterMs / 1000))
      })

    /** Takes one call from the caller's per-minute limit (shared by every face), unless the credential is exempt. */
    const admit = (principal: Principal): Effect.Effect<void, RateLimited> =>
      principal.rateLimitExempt
        ? Effect.void
        : Effect.flatMap(
            limiter.take(
              `tools:${principal.credential.kind}:${principal.credential.id}`,
              TOOL_CALLS_PER_MINUTE,
              60_000
            ),
            (decision) => (decision.allowed ? Effect.void : Effect.fail(rateLimited(decision.retryAfterMs)))
          )

    /** The lookup and the OAuth write-scope check every call starts with. */
    const lookup = (
      principal: Principal,
      name: string,
      selection: ToolSelection | undefined
    ): ServedTool | UnknownTool | InsufficientScope => {
      const tool = served.get(name)
      if (tool === undefined || (selection !== undefined && !selects(selection, tool.listed.entry))) {
        return new UnknownTool({ tool: name })
      }
      const { entry } = tool.listed
      if (principal.credential.kind === "oauth" && entry.write && !canUse(principal.access, entry)) {
        return new InsufficientScope({ tool: name })
      }
      return tool
    }

    return {
      /** The tools this caller is served (all it may use, or those `selection` keeps), in the service description's order. */
      list: (principal: Principal, selection?: ToolSelection): ReadonlyArray<ListedTool> =>
        registry.servedTo(principal.access, selection),
      /**
       * Runs one tool call, looking the name up once: an unknown name, or one outside the request's toolset
       * selection, is refused before anything else (a typo never uses up the minute), then an OAuth token without
       * the write scope for a write tool, then the caller's per-minute limit (shared by every face); past those,
       * access, plan and the tool answer.
       */
      call: (
        principal: Principal,
        name: string,
        args: unknown,
        selection?: ToolSelection
      ): Effect.Effect<ToolAnswer, ToolRefusal> => {
        const tool = lookup(principal, name, selection)
        if (!("listed" in tool)) return Effect.fail(tool)
        if (principal.rateLimitExempt) return run(principal, tool, args)
        return Effect.flatMap(admit(principal), () => run(principal, tool, args))
      },
      /**
       * `admit` on its own: a face that answers several tool calls for one request it counts as fewer (GraphQL
       * counts one per root field) takes the limit here and runs the calls with `callAdmitted`.
       */
      admit,
      /**
       * The workspace a call of `principal` acts in: `workspaceId`, when the credential reaches it, else its default
       * (`NotFound`, `MissingWorkspace` otherwise). The rule every tool's workspace follows, for faces that read a
       * workspace without calling a tool first.
       */
      workspaceOf: (principal: Principal, workspaceId: string | undefined): Effect.Effect<Workspace, DomainError> =>
        resolveWorkspace(principal)(workspaceId),
      /** `call` without taking from the rate limit: for calls already counted through `admit`. */
      callAdmitted: (
        principal: Principal,
        name: string,
        args: unknown
      ): Effect.Effect<ToolAnswer, UnknownTool | InsufficientScope> => {
        const tool = lookup(principal, name, undefined)
        return "listed" in tool ? run(principal, tool, args) : Effect.fail(tool)
      },
      registry
    } as const
  })
}) {}
