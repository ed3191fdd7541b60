import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import { Schema } from "effect"
import { Email } from "../../accounts/schema.js"
import { listQueryFields, PageOf, queryChoice, strict } from "../../shared/list-wire.js"
import { ApplicationRow, DecisionAnswer, QuizRow } from "./schema.js"

const iso = Schema.String.annotations({ description: "ISO 8601 timestamp, UTC." })
const formPath = Schema.Struct({ id: Schema.String.annotations({ description: "Form id (frm_…) from GET /quizzes." }) })

const decision = Schema.Struct({
  response_id: Schema.optional(
    Schema.String.pipe(Schema.maxLength(100)).annotations({
      description: "The application's id (resp_…), from the list or the Form Completed feed."
    })
  ),
  email: Schema.optional(Email).annotations({ description: "Or: the newest application from this email." }),
  send_email: Schema.optional(Schema.Boolean).annotations({ description: "false: no decision email." })
}).annotations(strict)

/** One response in the Form Completed feed (`GET /quiz-responses/recent`). */
export const FormCompletedRow = Schema.Struct({
  id: Schema.String.annotations({ description: "The event's id (evt_…), stable across polls." }),
  response_id: Schema.String.annotations({ description: "The response (resp_…): the response_id to decide on." }),
  quiz_id: Schema.String,
  quiz_title: Schema.String,
  email: Schema.String,
  name: Schema.NullOr(Schema.String),
  answers: Schema.Array(Schema.Struct({ question: Schema.String, answer: Schema.String })),
  created_at: iso
}).annotations({ identifier: "FormCompletedRow", description: "A form filled in." })

/** The store's forms (quizzes) and their applications on the store API, and the Form Completed feed. */
export const FormsApiGroup = HttpApiGroup.make("forms")
  .add(
    HttpApiEndpoint.get("list", "/quizzes")
      .setUrlParams(Schema.Struct(listQueryFields).annotations(strict))
      .addSuccess(PageOf(QuizRow))
  )
  .add(
    HttpApiEndpoint.get("applications", "/forms/:id/applications")
      .setPath(formPath)
      .setUrlParams(
        Schema.Struct({
          ...listQueryFields,
          status: Schema.optional(
            queryChoice(["pending", "accepted", "declined", "all"], "status must be pending, accepted, declined or all")
          ).annotations({
            description: "pending (default), accepted, declined or all."
          })
        }).annotations(strict)
      )
      .addSuccess(PageOf(ApplicationRow))
  )
  .add(
    HttpApiEndpoint.post("accept", "/forms/:id/applications/accept")
      .setPath(formPath)
      .setPayload(decision)
      .addSuccess(DecisionAnswer)
  )
  .add(
    HttpApiEndpoint.post("decline", "/forms/:id/applications/decline")
      .setPath(formPath)
      .setPayload(decision)
      .addSuccess(DecisionAnswer)
  )
  .add(
    HttpApiEndpoint.get("completed", "/quiz-responses/recent")
      .setUrlParams(
        Schema.Struct({
          quiz: Schema.optional(Schema.String).annotations({ description: "Only this form's responses (frm_…)." })
        }).annotations(strict)
      )
      .addSuccess(Schema.Struct({ ok: Schema.Literal(true), responses: Schema.Array(FormCompletedRow) }))
  )
