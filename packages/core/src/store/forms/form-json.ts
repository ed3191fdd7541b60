import { Option } from "effect"
import type { Page, PageRequest } from "../../shared/paging.js"
import type { StoreTag } from "../email-list/ports.js"
import { creationKey, pageAnswer } from "../../shared/list-query.js"
import type { Decision, FormView } from "./form-view.js"
import type { FormResponse } from "./schema.js"

// The store API's wire form of the forms' values (snake_case, ISO times), which svc_manage_forms answers too.

const tagJson = (tag: StoreTag) => ({ id: tag.id, name: tag.name })

/** A form as `GET /quizzes` lists it (`QuizRow`). */
export const formJson = (view: FormView) => ({
  id: view.form.id,
  title: view.form.title,
  description: view.form.description,
  review: view.form.review,
  questions: view.form.questions.map((q) => ({ ...q, choices: [...q.choices] })),
  accept_tags: view.acceptTags.map(tagJson),
  decline_tags: view.declineTags.map(tagJson),
  accept_product_id: view.form.acceptProductId,
  decision_emails: view.form.decisionEmails,
  accept_note: view.form.acceptNote,
  decline_note: view.form.declineNote,
  responses: view.responses,
  pending: view.pending,
  created_at: view.form.createdAt.toISOString(),
  updated_at: view.form.updatedAt.toISOString()
})

/** A response as an application (`ApplicationRow`); one to a form without review reads as pending. */
export const applicationJson = (response: FormResponse) => ({
  id: response.id,
  form_id: response.formId,
  email: response.email,
  name: response.name,
  status: response.status ?? ("pending" as const),
  answers: response.answers.map((a) => ({ question_id: a.questionId, question: a.question, answer: a.answer })),
  decided_at: response.decidedAt === null ? null : response.decidedAt.toISOString(),
  created_at: response.createdAt.toISOString()
})

/** What a decision did, as the tool answers it (`DecisionAnswer` without `ok`). */
export const decisionJson = (decision: Decision) => ({
  changed: decision.changed,
  email: decision.email,
  application: applicationJson(decision.application),
  tags_added: decision.tagsAdded.map(tagJson),
  ...Option.match(decision.access, { onNone: () => ({}), onSome: (access) => ({ access }) })
})

/** The answer of `POST /forms/<id>/applications/accept` and `…/decline`. */
export const decisionApiAnswer = (decision: Decision) => ({ ok: true as const, ...decisionJson(decision) })

/** A page of forms, as `GET /quizzes` answers it. */
export const formPageJson = (page: Page<FormView>, request: PageRequest) =>
  pageAnswer(page, formJson, request, (view) => creationKey(view.form))

/** A page of applications, as `GET /forms/<id>/applications` answers it. */
export const applicationPageJson = (page: Page<FormResponse>, request: PageRequest) =>
  pageAnswer(page, applicationJson, request, creationKey)
