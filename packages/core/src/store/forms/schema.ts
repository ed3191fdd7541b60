import { Schema } from "effect"
import { TagRef } from "../email-list/email-contact.js"

/** Forms one store keeps. */
export const FORMS_PER_WORKSPACE_MAX = 100
/** Questions on one form. */
export const QUESTIONS_PER_FORM_MAX = 30
/** Choices of one choice question. */
export const CHOICES_PER_QUESTION_MAX = 20
export const FORM_TITLE_MAX = 200
export const FORM_DESCRIPTION_MAX = 2_000
export const QUESTION_LABEL_MAX = 300
export const CHOICE_MAX = 200
/** The longest answer of a `text` question, and of a `paragraph` one. */
export const TEXT_ANSWER_MAX = 500
export const PARAGRAPH_ANSWER_MAX = 5_000
/** The seller's own words added to a decision email. */
export const DECISION_NOTE_MAX = 2_000
/** Tags a form puts on an accepted or declined person. */
export const FORM_TAGS_MAX = 10

/** What a question asks for: a line, a paragraph, an email address, or one of its choices. */
export const QuestionKind = Schema.Literal("text", "paragraph", "email", "choice").annotations({
  description: `text (a line, up to ${TEXT_ANSWER_MAX} characters), paragraph (up to ${PARAGRAPH_ANSWER_MAX}), email, or choice (one of choices).`
})
export type QuestionKind = typeof QuestionKind.Type

/** One question of a form, as stored. */
export interface Question {
  /** Stable within the form (`q1`, `q2`, …): answers are keyed by it. */
  readonly id: string
  readonly label: string
  readonly kind: QuestionKind
  readonly required: boolean
  /** The choices of a `choice` question; empty otherwise. */
  readonly choices: ReadonlyArray<string>
}

/** A form (the store API calls forms quizzes): questions, and whether each response is an application to review. */
export interface Form {
  readonly id: string
  readonly workspaceId: string
  readonly title: string
  readonly description: string
  readonly questions: ReadonlyArray<Question>
  /** Each response is an application: `pending` until accepted or declined. */
  readonly review: boolean
  /** Tags put on a person whose application is accepted; and on one declined. */
  readonly acceptTagIds: ReadonlyArray<string>
  readonly declineTagIds: ReadonlyArray<string>
  /** A live product an accepted applicant is given free access to. */
  readonly acceptProductId: string | null
  /** false: no decision email is sent (`email: "off"`). */
  readonly decisionEmails: boolean
  /** The seller's words added to the accept email, and to the decline email. */
  readonly acceptNote: string | null
  readonly declineNote: string | null
  readonly createdAt: Date
  readonly updatedAt: Date
}

export const ApplicationStatus = Schema.Literal("pending", "accepted", "declined")
export type ApplicationStatus = typeof ApplicationStatus.Type

/** One answer, with the question as it was asked (a later edit of the form does not rewrite it). */
export interface Answer {
  readonly questionId: string
  readonly question: string
  readonly answer: string
}

/** A filled-in form; on a review form also an application. */
export interface FormResponse {
  readonly id: string
  readonly workspaceId: string
  readonly formId: string
  readonly email: string
  readonly name: string | null
  readonly answers: ReadonlyArray<Answer>
  /** null on a form without review. */
  readonly status: ApplicationStatus | null
  readonly decidedAt: Date | null
  readonly createdAt: Date
}

const iso = Schema.String.annotations({ description: "ISO 8601 timestamp, UTC." })

const QuestionRow = Schema.Struct({
  id: Schema.String.annotations({ description: "Question id within the form (q1, q2, …); answers name it." }),
  label: Schema.String,
  kind: QuestionKind,
  required: Schema.Boolean,
  choices: Schema.Array(Schema.String).annotations({ description: "A choice question's choices; else empty." })
})

/** A form as `GET /quizzes` lists it. */
export const QuizRow = Schema.Struct({
  id: Schema.String.annotations({ description: "Form id (frm_…)." }),
  title: Schema.String,
  description: Schema.String,
  review: Schema.Boolean.annotations({
    description: "true: each response is an application, pending until accepted or declined."
  }),
  questions: Schema.Array(QuestionRow),
  accept_tags: Schema.Array(TagRef).annotations({ description: "Tags an accepted applicant gets." }),
  decline_tags: Schema.Array(TagRef).annotations({ description: "Tags a declined applicant gets." }),
  accept_product_id: Schema.NullOr(Schema.String).annotations({
    description: "A product an accepted applicant is given free access to; null: none."
  }),
  decision_emails: Schema.Boolean.annotations({ description: "false: no decision email is sent." }),
  accept_note: Schema.NullOr(Schema.String).annotations({ description: "Added to the accept email." }),
  decline_note: Schema.NullOr(Schema.String).annotations({ description: "Added to the decline email." }),
  responses: Schema.Int.annotations({ description: "Responses so far." }),
  pending: Schema.Int.annotations({ description: "Applications waiting for a decision (review forms)." }),
  created_at: iso,
  updated_at: iso
}).annotations({ identifier: "QuizRow", description: "One form of the store (the store API calls forms quizzes)." })

const AnswerRow = Schema.Struct({
  question_id: Schema.String,
  question: Schema.String.annotations({ description: "The question as it was asked." }),
  answer: Schema.String
})

/** One response to a review form (`GET /forms/<id>/applications`). */
export const ApplicationRow = Schema.Struct({
  id: Schema.String.annotations({ description: "Response id (resp_…): the response_id to accept or decline." }),
  form_id: Schema.String,
  email: Schema.String,
  name: Schema.NullOr(Schema.String),
  status: ApplicationStatus,
  answers: Schema.Array(AnswerRow),
  decided_at: Schema.NullOr(iso),
  created_at: iso
}).annotations({ identifier: "ApplicationRow", description: "One application: a response to a review form." })

/** Where a decision email stands (spec: Application decision answer). */
export const DecisionEmailStatus = Schema.Literal("queued", "off", "not_set_up", "no_email", "skipped").annotations({
  description:
    "queued (the email is on its way), off (the form sends no decision emails), not_set_up (no decision email can be made; this server always has one, from its templates), no_email (the address bounced or marked the store's email as spam), skipped (send_email false, or the decision did not change)."
})
export type DecisionEmailStatus = typeof DecisionEmailStatus.Type

/** The answer of accept and decline. */
export const DecisionAnswer = Schema.Struct({
  ok: Schema.Literal(true),
  changed: Schema.Boolean.annotations({ description: "false when the application was already decided this way." }),
  email: DecisionEmailStatus,
  application: ApplicationRow,
  tags_added: Schema.Array(TagRef).annotations({ description: "Tags the person did not have before." }),
  access: Schema.optional(Schema.Literal("added", "already_has_access", "rejected")).annotations({
    description: "With the form's accept_product_id, on an accept that changed: the free access given."
  })
})
