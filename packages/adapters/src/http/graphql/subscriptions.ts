import type { WorkspacesRepo } from "@svc/core/accounts"
import { type EventLog, eventFeed, LoggedEvent } from "@svc/core/events"
import { ToolServer } from "@svc/core/tools"
import { resumePoint, visibleEvents } from "@svc/core/webhooks"
import { Cause, Effect, Exit, Option, Runtime, Schema, Stream } from "effect"
import { GraphQLList, GraphQLNonNull, GraphQLString } from "graphql"
import { type GraphqlContext, type GraphqlRefusal, toGraphqlError } from "./context.js"
import type { GraphqlKit, GraphqlPart } from "./parts.js"
import { DEFAULT_GRAPHQL_SETTINGS, GraphqlSettings } from "./settings.js"

interface EventsArgs {
  readonly types?: ReadonlyArray<string> | null
  readonly workspaceId?: string | null
  readonly after?: string | null
}

/** The `Last-Event-ID` header of an SSE reconnection (yoga puts the web request in the context). */
const lastEventIdOf = (context: GraphqlContext): string | undefined =>
  context.request.headers.get("last-event-id") ?? undefined

/** Ends the stream when the client goes away, besides yoga's `return()` on the iterator. */
const untilAborted = (signal: AbortSignal) =>
  Effect.async<void>((resume) => {
    if (signal.aborted) return resume(Effect.void)
    const onAbort = () => resume(Effect.void)
    signal.addEventListener("abort", onAbort, { once: true })
    return Effect.sync(() => signal.removeEventListener("abort", onAbort))
  })

/**
 * `Subscription.events`: a workspace's events as they are written, read from the event log (so an event written
 * through any server instance reaches subscribers on every other), resumable after an event id, and only of the
 * types the credential may see.
 */
export const subscriptionsPart = (kit: GraphqlKit) =>
  Effect.gen(function* () {
    const runtime = yield* Effect.runtime<EventLog | WorkspacesRepo>()
    const tools = yield* ToolServer
    const settings = Option.getOrElse(yield* Effect.serviceOption(GraphqlSettings), () => DEFAULT_GRAPHQL_SETTINGS)
    const encode = Schema.encodeSync(LoggedEvent)

    /** Runs a core effect on the app's runtime; its declared failures become GraphQL errors. */
    const run = <A, E extends GraphqlRefusal>(
      effect: Effect.Effect<A, E, EventLog | WorkspacesRepo>,
      signal: AbortSignal
    ): Promise<A> =>
      Runtime.runPromiseExit(runtime)(effect, { signal }).then((exit) => {
        if (Exit.isSuccess(exit)) return exit.value
        const failure = Cause.failureOption(exit.cause)
        if (Option.isSome(failure)) throw toGraphqlError(failure.value, "Bearer")
        throw Cause.squash(exit.cause)
      })

    const part: GraphqlPart = {
      subscription: {
        events: {
          type: kit.types.output(LoggedEvent, "WorkspaceEvent"),
          description:
            "The workspace's events as they are written (from the event log, polled), oldest first. Store events " +
            "(the webhook event types) need store access on the Starter plan; the others need workspace access.",
          args: {
            types: {
              type: new GraphQLList(new GraphQLNonNull(GraphQLString)),
              description:
                "Only these event types (e.g. purchase.created); every type the credential may see when absent."
            },
            workspaceId: {
              type: GraphQLString,
              description: "The workspace to follow; the credential's own when absent."
            },
            after: {
              type: GraphQLString,
              description:
                "Resume after this event id (evt_…); else the Last-Event-ID header; else only events from now on."
            }
          },
          subscribe: async (_source, args: EventsArgs, context) => {
            const principal = await context.caller()
            const after = args.after ?? lastEventIdOf(context)
            const { signal } = context
            const feed = await run(
              Effect.gen(function* () {
                const workspaceId = (yield* tools.workspaceOf(principal, args.workspaceId ?? undefined)).id
                const filter = yield* visibleEvents(principal, args.types ?? undefined)
                const start = after === undefined ? undefined : yield* resumePoint(workspaceId, after)
                return eventFeed({
                  workspaceId,
                  filter,
                  ...(start === undefined ? {} : { after: start }),
                  pollInterval: settings.pollIntervalMs
                })
              }),
              signal
            )
            return Stream.toAsyncIterableRuntime(
              feed.pipe(
                Stream.map((event) => ({ events: encode(event) })),
                Stream.interruptWhen(untilAborted(signal))
              ),
              runtime
            )
          }
        }
      }
    }
    return part
  })
