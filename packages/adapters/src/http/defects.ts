import { randomUUID } from "node:crypto"
import type { HttpServerResponse } from "@effect/platform/HttpServerResponse"
import { Cause, Effect } from "effect"

/**
 * Turns a defect (a bug, a lost database) into the face's own 500 answer carrying a request id, and logs
 * the cause under the same id, so an operator can find it while the caller never sees a stack.
 */
export const answerDefects =
  <A = HttpServerResponse>(render: (requestId: string) => A) =>
  <R>(handler: Effect.Effect<A, never, R>): Effect.Effect<A, never, R> =>
    Effect.catchAllCause(handler, (cause) => {
      // A client that went away interrupts the handler; there is nobody to answer and nothing to report.
      if (Cause.isInterruptedOnly(cause)) return Effect.failCause(cause)
      const requestId = randomUUID()
      return Effect.logError("request failed with a defect", cause).pipe(
        Effect.annotateLogs({ requestId }),
        Effect.as(render(requestId))
      )
    })

/** The message of a 500: what happened and the id to quote when reporting it. */
export const internalErrorMessage = (requestId: string): string =>
  `internal error (request id ${requestId}); try again, and quote the id if it keeps happening`
