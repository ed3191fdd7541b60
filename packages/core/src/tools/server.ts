import { Effect, Option } from "effect"
import { planAtLeast } from "../accounts/schema.js"
import type { Principal } from "../auth/schema.js"
import { RateLimiter } from "../limits/ports.js"
import { RateLimited, TOOL_CALLS_PER_MINUTE } from "../limits/schema.js"
import { type DomainError, Forbidden, MissingWorkspace, NotFound } from "../shared/errors.js"
import { spansExported, spanWhen } from "../shared/tracing.js"
import { WorkspacesRepo } from "../workspace/ports.js"
import type { Workspace } from "../workspace/schema.js"
import { toolGroups } from "./catalog.js"
import { type ToolFailure, toolFailure } from "./failure.js"
import { canUse, type ListedTool, ToolRegistry } from "./registry.js"

/** A finished tool call: `{ ok: true, ... }` or a tool failure. */
export type ToolAnswer = Readonly<Record<string, unknown>> | ToolFailure

/** Why a call names no tool at all (a protocol error, not a tool failure). */
export class UnknownTool {
  readonly _tag = "UnknownTool"
  constructor(readonly name: string) {}
  get message() {
    return `no tool named ${this.name}; call tools/list (or GET /v1/tools) for the names`
  }
}

// Every tool call acts in a workspace, and reading it on every call would double the queries of a cheap read.
// A found workspace is remembered per process for `WORKSPACE_REMEMBER_MS`. What the access check reads from it
// (its id and owner) never changes; a workspace deleted by another process may still be found here for that long
// (its items go with it, so reads answer not-found). A workspace that is not found is never remembered.
const WORKSPACE_REMEMBER_MS = 5_000
const WORKSPACE_REMEMBER_AT_MOST = 10_000

interface RememberedWorkspace {
  readonly found: Option.Some<Workspace>
  readonly until: number
}

/** Lists and runs tools for a caller: access, plan, workspace and rate-limit rules in one place for every face. */
export class ToolServer extends Effect.Service<ToolServer>()("svc/tools/ToolServer", {
  effect: Effect.gen(function* () {
    const registry = yield* ToolRegistry
    const workspaces = yield* WorkspacesRepo
    const limiter = yield* RateLimiter
    const span = spanWhen(yield* spansExported)

    const remembered = new Map<string, RememberedWorkspace>()

    // `clockWith` reads the clock within the same step (`Clock.currentTimeMillis` takes two more).
    const findWorkspace = (id: string): Effect.Effect<Option.Option<Workspace>> =>
      Effect.clockWith((clock) => {
        const now = clock.unsafeCurrentTimeMillis()
        const hit = remembered.get(id)
        if (hit !== undefined && hit.until > now) return Effect.succeed(hit.found)
        return Effect.map(workspaces.findById(id), (found) => {
          if (Option.isSome(found)) {
            remembered.delete(id)
            // Map keeps insertion order: past the cap the oldest entry goes.
            if (remembered.size >= WORKSPACE_REMEMBER_AT_MOST) {
              const oldest = remembered.keys().next()
              if (oldest.done !== true) remembered.delete(oldest.value)
            }
            remembered.set(id, { found, until: now + WORKSPACE_REMEMBER_MS })
          }
          return found
        })
      })

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

    const run = (principal: Principal, listed: ListedTool, args: unknown): Effect.Effect<ToolAnswer> => {
      const { entry } = listed
      const { part, plan } = toolGroups[entry.group]
      if (!canUse(principal.access, entry)) {
        return Effect.succeed(
          toolFailure(
            new Forbidden({
              message:
                entry.write && canUse(principal.access, { ...entry, write: false })
                  ? `${entry.name} changes data and this credential may only read ${part}; use a key with edit access`
                  : `this credential has no access to ${part} tools`,
              reason: "access"
            })
          )
        )
      }
      if (!planAtLeast(principal.plan, plan)) {
        return Effect.succeed(
          toolFailure(new Forbidden({ message: `${entry.group} tools need the Starter plan or above`, reason: "plan" }))
        )
      }
      return listed.tool.execute(args, principal, resolveWorkspace(principal)).pipe(
        Effect.catchAll((error): Effect.Effect<ToolFailure> => Effect.succeed(toolFailure(error))),
        span("ToolServer.call", { attributes: { tool: entry.name } })
      )
    }

    return {
      /** The tools this caller may use, in catalog order. */
      list: (principal: Principal): ReadonlyArray<ListedTool> => registry.visibleTo(principal.access),
      /** Runs a tool; fails only when the name is not a served tool. */
      call: (principal: Principal, name: string, args: unknown): Effect.Effect<ToolAnswer, UnknownTool> => {
        const listed = registry.find(name)
        return listed ? run(principal, listed, args) : Effect.fail(new UnknownTool(name))
      },
      /** Counts one tool call against the caller's per-minute limit. */
      admit: (principal: Principal): Effect.Effect<void, RateLimited> =>
        principal.rateLimitExempt
          ? Effect.void
          : limiter
              .take(`tools:${principal.credential.kind}:${principal.credential.id}`, TOOL_CALLS_PER_MINUTE, 60_000)
              .pipe(
                Effect.flatMap((decision) =>
                  decision.allowed
                    ? Effect.void
                    : Effect.fail(
                        new RateLimited({
                          message: `more than ${TOOL_CALLS_PER_MINUTE} tool calls in a minute; retry after the Retry-After seconds`,
                          retryAfterSeconds: Math.max(1, Math.ceil(decision.retryAfterMs / 1000))
                        })
                      )
                )
              ),
      registry
    } as const
  })
}) {}
