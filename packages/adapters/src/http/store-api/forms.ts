import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import { formCompletedFeedJson, StoreFeeds, StoreForms } from "@svc/core/store"
import { StoreApi } from "@svc/core/store-api"
import { Effect } from "effect"
import { withCaller } from "./caller.js"
import { answer } from "./errors.js"

/** The forms routes of the store API: the forms (quizzes), their applications, and the Form Completed feed. */
export const FormsHandlersLive = HttpApiBuilder.group(StoreApi, "forms", (handlers) =>
  Effect.gen(function* () {
    const forms = yield* StoreForms
    const feeds = yield* StoreFeeds
    return handlers
      .handle("list", ({ urlParams }) =>
        withCaller("forms.list", (caller) => answer(forms.listPage(caller, urlParams)))
      )
      .handle("applications", ({ path, urlParams }) =>
        withCaller("forms.applications", (caller) => answer(forms.applications(caller, path.id, urlParams)))
      )
      .handle("accept", ({ path, payload }) =>
        withCaller("forms.accept", (caller) => answer(forms.decide(caller, path.id, payload, "accepted")))
      )
      .handle("decline", ({ path, payload }) =>
        withCaller("forms.decline", (caller) => answer(forms.decide(caller, path.id, payload, "declined")))
      )
      .handle("completed", ({ urlParams }) =>
        withCaller("forms.completed", (caller) =>
          Effect.map(feeds.formCompleted(caller, urlParams.quiz), formCompletedFeedJson)
        )
      )
  })
)
