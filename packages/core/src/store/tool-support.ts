import { Effect, Either, Option, Schema } from "effect"
import { WorkspacesRepo } from "../accounts/ports.js"
import { Email } from "../accounts/schema.js"
import { levelOf } from "../auth/access.js"
import { Conflict, type DomainError, InvalidInput, invalid, NotFound, renamePaths } from "../shared/errors.js"
import type { NextStep } from "../shared/next-step.js"
import type { ToolContext } from "../tools/tool.js"
import type { StoreCaller } from "../auth/store-caller.js"
import type { ChecklistItemRow } from "./api-rows.js"
import { agentStepsOn } from "./catalog/agent-steps.js"
import { type ChecklistMessages, checklistMessages } from "./catalog/product-rules.js"
import { StorePages } from "./catalog/store-pages.js"

/** The `storeHandle` field every store tool takes. */
export const StoreHandleField = Schema.optional(
  Schema.String.pipe(Schema.minLength(1), Schema.maxLength(60)).annotations({
    description: "Store handle; default: yours."
  })
)

/**
 * The store a store tool acts on, as the store services' caller: the one `storeHandle` names, else the store of
 * the call's workspace. A handle the credential cannot reach is `not-found`, as an unknown one is, so handles of
 * other accounts' stores do not leak. The tool server has already applied the Store group's plan gate and the
 * key's `store` part (read for reads, edit for changes) before the handler runs.
 */
export const makeStoreOfCall = Effect.gen(function* () {
  const workspaces = yield* WorkspacesRepo

  const unknownHandle = (handle: string) =>
    new NotFound({ message: `no store ${handle} that this credential can reach; svc_list_stores lists them` })

  const callerOf = (context: ToolContext, store: StoreCaller["store"]): StoreCaller => ({
    principal: context.principal,
    store,
    workspaceId: store.workspaceId,
    canWrite: levelOf(context.principal.access, "store") === "edit",
    // The store API keeps product changes from automation-tool connections; a tool call is the seller's agent,
    // and what an OAuth token may call is already decided by its scopes at the tool server.
    automation: false
  })

  return (context: ToolContext, storeHandle: string | undefined): Effect.Effect<StoreCaller, DomainError> =>
    storeHandle === undefined
      ? Effect.gen(function* () {
          const workspace = yield* context.workspace
          const store = yield* workspaces.findStore(workspace.id)
          if (Option.isNone(store)) {
            return yield* new NotFound({
              message: `workspace ${workspace.id} has no store; svc_list_stores lists the stores this credential reaches`
            })
          }
          return callerOf(context, store.value)
        })
      : Effect.gen(function* () {
          const store = yield* workspaces.findStoreByHandle(storeHandle.trim().toLowerCase())
          if (Option.isNone(store)) return yield* unknownHandle(storeHandle)
          yield* Effect.mapError(context.reach(store.value.workspaceId), () => unknownHandle(storeHandle))
          return callerOf(context, store.value)
        })
})

/**
 * A store answer that turned the request away (`ok: false` with a `reason`, as `POST /sales` and
 * `POST /customers` answer) as a tool failure: unknown products and orders are `not-found`, the rest `conflict`.
 */
export const rejectionFailure = (reason: string, message: string, next?: NextStep): DomainError =>
  reason === "product_not_found" || reason === "order_not_found"
    ? next === undefined
      ? new NotFound({ message })
      : new NotFound({ message, next })
    : new Conflict({ message: `${message} (${reason})` })

/**
 * The store services name fields as the store API does (`starts_on`, `order_id`); a tool's `invalid` must name the
 * tool's own input fields (`startsOn`, `orderId`), since an agent fixes the fields an answer names.
 */
export const inToolNames =
  (names: Readonly<Record<string, string>>) =>
  <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    Effect.mapError(effect, (error) =>
      error instanceof InvalidInput
        ? (renamePaths(error, (path) => {
            const [head = "", ...rest] = path.split(".")
            const renamed = names[head]
            return renamed === undefined ? path : [renamed, ...rest].join(".")
          }) as E)
        : error
    )

/**
 * An email given to a store tool, checked and normalised as the store keeps emails (trimmed, lower case). Tool
 * inputs carry only a length cap, since every byte of an input schema is in `tools/list`.
 */
export const emailOf = (text: string) =>
  Either.match(Schema.decodeUnknownEither(Email)(text), {
    onLeft: () => Effect.fail(invalid("email", "must be an email address like name@example.com")),
    onRight: (email) => Effect.succeed(email)
  })

/** A product rule's refusal with its paths put under `fields`, where the store tools take product fields. */
export const underFields = <E>(error: E): E | InvalidInput =>
  error instanceof InvalidInput ? renamePaths(error, (path) => (path === "" ? "fields" : `fields.${path}`)) : error

/** One item of a product's publish checklist, as the store services answer it. */
type ChecklistEntry = typeof ChecklistItemRow.Type

/**
 * The publish checklist as the store tools say it (each item says what to do, and who can do it), for the settings
 * page the server names (`StorePages`).
 */
export const makeAgentChecklist = Effect.map(StorePages, ({ settingsPage }) => {
  const apiMessages = checklistMessages(settingsPage)
  const steps = agentStepsOn(settingsPage)

  const checklistForAgents = (items: ReadonlyArray<ChecklistEntry>): Array<ChecklistEntry> =>
    items.map((entry) => ({
      item: entry.item,
      message: (entry.message === apiMessages.payment_svc ? steps.payment_svc : steps[entry.item])(entry.message)
    }))

  return {
    checklistForAgents,
    /**
     * A refusal to publish (`the product cannot go live yet: …`, as the catalog words it with the store API's
     * checklist messages) with each item said as the tools say it.
     */
    agentPublishRefusal: <E>(error: E): E | Conflict => {
      if (!(error instanceof Conflict)) return error
      let message = error.message
      for (const [item, text] of Object.entries(apiMessages)) {
        // Inside the refusal the steps are joined with "; ", so each loses its closing full stop.
        message = message.replace(text, steps[item as keyof ChecklistMessages](text).replace(/\.$/, ""))
      }
      return message === error.message ? error : new Conflict({ message })
    },
    /** The answer of a product or bundle with its checklist for agents. */
    withAgentChecklist: <A extends { readonly publish_checklist: ReadonlyArray<ChecklistEntry> }>(answer: A): A => ({
      ...answer,
      publish_checklist: checklistForAgents(answer.publish_checklist)
    })
  }
})
