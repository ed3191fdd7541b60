import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import {
  applicationPageJson,
  decisionApiAnswer,
  formCompletedFeedJson,
  formPageJson,
  readApplicationsQuery,
  readFormListQuery,
  StoreFeeds,
  type StoreCaller,
  StoreForms,
  pagedAnswer
} from "@svc/core/store"
import { StoreApi } from "@svc/core/store-api"
import { Effect } from "effect"
import { withCaller } from "./caller.js"
import { answer } from "./errors.js"

/** The body of accept and decline. */
interface DecisionBody {
  readonly response_id?: string | undefined
  readonly email?: string | undefined
  readonly send_email?: boolean | undefined
}

/** The forms routes of the store API: the forms (quizzes), their applications, and the Form Completed feed. */
export const FormsHandlersLive = HttpApiBuilder.group(StoreApi, "forms", (handlers) =>
  Effect.gen(function* () {
    const forms = yield* StoreForms
    const feeds = yield* StoreFeeds
    const decide = (caller: StoreCaller, formId: string, body: DecisionBody, decision: "accepted" | "declined") =>
      Effect.map(
        forms.decide(
          caller,
          formId,
          { responseId: body.response_id, email: body.email, sendEmail: body.send_email },
          decision
        ),
        decisionApiAnswer
      )
    return handlers
      .handle("list", ({ urlParams }) =>
        withCaller("forms.list", (caller) =>
          answer(pagedAnswer(readFormListQuery(urlParams), (query) => forms.listPage(caller, query), formPageJson))
        )
      )
      .handle("applications", ({ path, urlParams }) =>
        withCaller("forms.applications", (caller) =>
          answer(
            pagedAnswer(
              readApplicationsQuery(urlParams),
              (query) => forms.applications(caller, path.id, query),
              applicationPageJson
            )
          )
        )
      )
      .handle("accept", ({ path, payload }) =>
        withCaller("forms.accept", (caller) => answer(decide(caller, path.id, payload, "accepted")))
      )
      .handle("decline", ({ path, payload }) =>
        withCaller("forms.decline", (caller) => answer(decide(caller, path.id, payload, "declined")))
      )
      .handle("completed", ({ urlParams }) =>
        withCaller("forms.completed", (caller) =>
          Effect.map(feeds.formCompleted(caller, urlParams.quiz), formCompletedFeedJson)
        )
      )
  })
)
