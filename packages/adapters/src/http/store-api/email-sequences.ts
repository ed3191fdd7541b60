import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import { readSequenceListQuery, sequencePageJson, StoreEmailSequences } from "@svc/core/store"
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
          Effect.flatMap(readSequenceListQuery(urlParams), (query) =>
            Effect.map(sequences.listPage(caller, query), (page) => sequencePageJson(page, query.page))
          )
        )
      )
    )
  })
)
