import { Effect, Schema } from "effect"
import { Cursor } from "../../shared/paging.js"
import { defineTool } from "../../tools/tool.js"
import { describeActions, need, onlyFieldsOf } from "../action-tools.js"
import { nextCursorOf, readToolPaging } from "../../shared/list-query.js"
import { inToolNames, makeStoreOfCall, StoreHandleField } from "../tool-support.js"
import {
  ApplicationRow,
  CHOICES_PER_QUESTION_MAX,
  DecisionAnswer,
  FORM_TAGS_MAX,
  FORM_TITLE_MAX,
  FORMS_PER_WORKSPACE_MAX,
  QuestionKind,
  QUESTIONS_PER_FORM_MAX,
  QuizRow
} from "./schema.js"
import { applicationPageJson, decisionJson, formJson } from "./form-json.js"
import { StoreForms } from "./service.js"

const Action = Schema.Literal("list", "get", "create", "update", "delete", "applications", "accept", "decline")
type Action = typeof Action.Type

const formFields = [
  "title",
  "description",
  "review",
  "questions",
  "acceptTags",
  "declineTags",
  "acceptProduct",
  "decisionEmails",
  "acceptNote",
  "declineNote"
]

/** The fields each action reads besides `storeHandle` and `action`; any other field given is refused. */
const fieldsOf: Record<Action, ReadonlyArray<string>> = {
  list: [],
  get: ["formId"],
  create: formFields,
  update: ["formId", ...formFields],
  delete: ["formId"],
  applications: ["formId", "status", "cursor"],
  accept: ["formId", "application", "sendEmail"],
  decline: ["formId", "application", "sendEmail"]
}

// Lengths are the service's to check (with field errors): bounds here would only repeat them in every tools/list.
const text = (description: string) => Schema.optional(Schema.String.annotations({ description }))
const flag = (description: string) => Schema.optional(Schema.Boolean.annotations({ description }))

const tagList = (description: string) =>
  Schema.optional(Schema.Array(Schema.String).pipe(Schema.maxItems(FORM_TAGS_MAX)).annotations({ description }))

const Question = Schema.Struct({
  id: text("Keep that: q1…"),
  label: Schema.String.annotations({ description: "The question." }),
  kind: Schema.optional(QuestionKind.annotations({ description: "Default text." })),
  required: flag("Must be answered."),
  choices: Schema.optional(
    Schema.Array(Schema.String)
      .pipe(Schema.maxItems(CHOICES_PER_QUESTION_MAX))
      .annotations({ description: "For choice, 2+." })
  )
})

/** Applications per page of the `applications` action. */
const APPLICATIONS_PAGE = 50

const FORM_ROW = "As GET /quizzes lists it."

// The service names fields as the store API does; this tool's failures name its own.
const toolFieldNames = inToolNames({ response_id: "application", email: "application" })

/** The Store group's svc_manage_forms: forms, their questions, and applications with accept and decline. */
export const formTools = Effect.gen(function* () {
  const forms = yield* StoreForms
  const storeOf = yield* makeStoreOfCall

  return [
    defineTool({
      name: "svc_manage_forms",
      title: "Manage forms",
      group: "Store",
      write: true,
      annotations: { destructiveHint: true, idempotentHint: false, openWorldHint: false },
      description:
        "Forms (quizzes); with review on, responses are applications: accept or decline adds the form's tags, a product, an email.",
      input: {
        storeHandle: StoreHandleField,
        action: Action.annotations({ description: describeActions(fieldsOf) }),
        formId: text("Form id (frm_…)."),
        title: text(`Title, 1-${FORM_TITLE_MAX}.`),
        description: text('Intro; "" clears.'),
        review: flag("Responses are applications."),
        questions: Schema.optional(
          Schema.Array(Question)
            .pipe(Schema.maxItems(QUESTIONS_PER_FORM_MAX))
            .annotations({ description: "All, in order (email is always asked)." })
        ),
        acceptTags: tagList("Accepted get these tags."),
        declineTags: tagList("Declined get these tags."),
        acceptProduct: text('Accepted get this product (prod_…) free; "" clears.'),
        decisionEmails: flag("false: no decision emails."),
        acceptNote: text('In the accept email; "" clears.'),
        declineNote: text('In the decline email; "" clears.'),
        status: Schema.optional(
          Schema.Literal("pending", "accepted", "declined", "all").annotations({ description: "Default pending." })
        ),
        application: text("Its id (resp_…), or an email (their newest)."),
        sendEmail: flag("false: no decision email."),
        cursor: Schema.optional(Cursor)
      },
      output: {
        forms: Schema.optional(Schema.Array(QuizRow).annotations({ description: "The forms, newest first." })),
        form: Schema.optional(QuizRow.annotations({ description: FORM_ROW })),
        deleted: Schema.optional(Schema.String.annotations({ description: "delete: the form id." })),
        applications: Schema.optional(Schema.Array(ApplicationRow).annotations({ description: "Newest first." })),
        decision: Schema.optional(
          DecisionAnswer.pipe(Schema.omit("ok")).annotations({ description: "accept/decline: what the decision did." })
        ),
        nextCursor: Schema.optional(
          Schema.String.annotations({ description: "Pass as cursor for the next page; absent on the last." })
        )
      },
      handler: (input, context) =>
        Effect.gen(function* () {
          yield* onlyFieldsOf(fieldsOf, input.action, input)
          const fields = { ...input, acceptProduct: input.acceptProduct === "" ? null : input.acceptProduct }
          const caller = yield* storeOf(context, input.storeHandle)
          const formId = () => need(input.formId, "formId", input.action)
          switch (input.action) {
            case "list":
              // A store keeps at most FORMS_PER_WORKSPACE_MAX forms: one page holds them all.
              return {
                forms: (yield* forms.listPage(caller, {
                  page: { limit: FORMS_PER_WORKSPACE_MAX, after: undefined },
                  created: {}
                })).rows.map(formJson)
              }
            case "get":
              return { form: formJson(yield* forms.get(caller, yield* formId())) }
            case "create":
              return {
                form: formJson(
                  yield* forms.create(caller, { ...fields, title: yield* need(input.title, "title", "create") })
                )
              }
            case "update":
              return { form: formJson(yield* forms.update(caller, yield* formId(), fields)) }
            case "delete": {
              const id = yield* formId()
              yield* forms.remove(caller, id)
              return { deleted: id }
            }
            case "applications": {
              const id = yield* formId()
              const { page } = yield* readToolPaging({ limit: APPLICATIONS_PAGE, cursor: input.cursor })
              const found = yield* forms.applications(caller, id, {
                status: input.status ?? "pending",
                page,
                created: {}
              })
              return { applications: applicationPageJson(found, page).data, ...nextCursorOf(found) }
            }
            case "accept":
            case "decline": {
              const application = yield* need(input.application, "application", input.action)
              const target = application.includes("@")
                ? { email: application, sendEmail: input.sendEmail }
                : { responseId: application, sendEmail: input.sendEmail }
              const decided = yield* toolFieldNames(
                forms.decide(caller, yield* formId(), target, input.action === "accept" ? "accepted" : "declined")
              )
              return { decision: decisionJson(decided) }
            }
          }
        })
    })
  ]
})
