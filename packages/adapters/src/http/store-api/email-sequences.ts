import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import { readSequenceListQuery, sequencePageJson, StoreEmailSequences, pagedAnswer } from "@svc/core/store"
import { StoreApi } from "@svc/core/store-api"
import { Effect } from "effect"
import { withCaller } from "./caller.js"
import { answer } from "./errors.js"

/** The email sequence routes of the store API. */
export const EmailSequencesHandlersLive = HttpApiBuilder.group(StoreApi, "emailSequences", (handlers) =>
  Effect.gen(function* () {
    const sequences = yield* StoreEmailSequences
    return handlers.handle("list", ({ urlParams }) =>
      withCaller("emailSequences.list", (caller) =>
        answer(
          pagedAnswer(readSequenceListQuery(urlParams), (query) => sequences.listPage(caller, query), sequencePageJson)
        )
      )
    )
  })
)
