import { type Plan, planAtLeast, type Workspace } from "@svc/core/accounts"
import { allows, type Principal } from "@svc/core/auth"
import { Forbidden } from "@svc/core/shared"
import { type ToolGroup, ToolServer, toolGroups } from "@svc/core/tools"
import { Effect } from "effect"
import { insufficientScopeChallenge, makeToolGate, resourceMetadataUrl } from "../auth.js"
import { PublicUrl } from "../config.js"
import type { FaceRequest } from "../exchange.js"
import { domainRefusal, StepRefusal } from "../ai-steps/caller.js"

/** How a refusal names what a group's steps reach. */
const GROUP_NOUNS: Readonly<Record<ToolGroup, string>> = {
  Workspace: "the workspace",
  "Highlights & captures": "highlights",
  "Social intelligence": "social research",
  "Boards & documents": "boards and notes",
  Scheduling: "scheduling",
  Routines: "routines",
  Media: "media",
  "Custom AI": "Custom AIs",
  Skills: "skills",
  Store: "the store"
}

const planName = (plan: Plan): string => `${plan.charAt(0).toUpperCase()}${plan.slice(1)}`

/** What a workspace step needs of its caller: the tool group whose rules it follows, and whether it changes data. */
export interface StepNeeds {
  readonly group: ToolGroup
  readonly write: boolean
}

/**
 * Builds the workspace steps' caller check, the tools' rules for a step of `group`: the bearer token as the tools
 * take it (an API key or an OAuth token; 401 otherwise), the group's access part at the level the step needs (a write
 * needs edit access, an OAuth token the `write` scope; 403), the group's plan (403 below it), then one call from the
 * caller's per-minute tool-call limit (429).
 */
export const makeWorkspaceStepGate = Effect.gen(function* () {
  const gate = yield* makeToolGate
  const tools = yield* ToolServer
  const url = yield* PublicUrl

  const authenticated = (request: FaceRequest): Effect.Effect<Principal, StepRefusal> =>
    gate.authenticate(request).pipe(
      Effect.catchTags({
        AuthExpired: (error) => {
          const refusal = domainRefusal(error)
          return Effect.fail(
            new StepRefusal({
              status: refusal.status,
              error: refusal.error,
              message: refusal.message,
              headers: { "www-authenticate": gate.challengeFor(request) }
            })
          )
        },
        ScopeNotGranted: (refused) =>
          Effect.fail(
            new StepRefusal({
              status: 403,
              error: "forbidden",
              message: refused.message,
              headers: { "www-authenticate": gate.scopeRefusedChallenge(refused) }
            })
          )
      })
    )

  const accessRefusal = (principal: Principal, needs: StepNeeds) => {
    const noun = GROUP_NOUNS[needs.group]
    const mayRead = allows(principal.access, toolGroups[needs.group].part, "read")
    return new StepRefusal({
      status: 403,
      error: "forbidden",
      message:
        needs.write && mayRead
          ? `this step changes data and this credential may only read ${noun}; use a key with edit access (or an OAuth token with the write scope)`
          : `this credential has no access to ${noun}`,
      headers:
        needs.write && principal.credential.kind === "oauth"
          ? {
              "www-authenticate": insufficientScopeChallenge(
                "mcp",
                "read write",
                "this step needs the write scope",
                resourceMetadataUrl(url)
              )
            }
          : undefined
    })
  }

  /** The caller of a step, or why it is turned away: 401, 403 (access, then plan), then 429 past the limit. */
  const authorize = (request: FaceRequest, needs: StepNeeds): Effect.Effect<Principal, StepRefusal> =>
    Effect.gen(function* () {
      const principal = yield* authenticated(request)
      const { part, plan } = toolGroups[needs.group]
      if (!allows(principal.access, part, needs.write ? "edit" : "read")) {
        return yield* accessRefusal(principal, needs)
      }
      if (!planAtLeast(principal.plan, plan)) {
        return yield* domainRefusal(
          new Forbidden({ message: `${needs.group} steps need the ${planName(plan)} plan or above`, reason: "plan" })
        )
      }
      yield* Effect.mapError(tools.admit(principal), domainRefusal)
      return principal
    })

  /** A caller for steps that need no access part (`GET /me`): a valid token, and one call from the limit. */
  const identify = (request: FaceRequest): Effect.Effect<Principal, StepRefusal> =>
    Effect.tap(authenticated(request), (principal) => Effect.mapError(tools.admit(principal), domainRefusal))

  /** The workspace a step acts in: the one named when the credential reaches it, else its default (404 otherwise). */
  const workspaceOf = (principal: Principal, workspaceId: string | undefined): Effect.Effect<Workspace, StepRefusal> =>
    Effect.mapError(tools.workspaceOf(principal, workspaceId), domainRefusal)

  return { authorize, identify, workspaceOf } as const
})

/** The workspace steps' caller check (see {@link makeWorkspaceStepGate}). */
export type WorkspaceStepGate = Effect.Effect.Success<typeof makeWorkspaceStepGate>
