import { Effect, Schema } from "effect"
import { Email } from "../../accounts/schema.js"
import { FieldProblem, InvalidInput, invalid } from "../../shared/errors.js"
import {
  type Answer,
  CHOICE_MAX,
  CHOICES_PER_QUESTION_MAX,
  PARAGRAPH_ANSWER_MAX,
  type Question,
  QUESTION_LABEL_MAX,
  type QuestionKind,
  QUESTIONS_PER_FORM_MAX,
  TEXT_ANSWER_MAX
} from "./schema.js"

/** A question as a seller writes it: an id to keep (an edit), or none for a new one. */
export interface QuestionInput {
  readonly id?: string | undefined
  readonly label: string
  readonly kind?: QuestionKind | undefined
  readonly required?: boolean | undefined
  readonly choices?: ReadonlyArray<string> | undefined
}

const QUESTION_ID = /^q[1-9][0-9]{0,3}$/

/**
 * The form's questions from the seller's list: labels and choices trimmed and bounded, ids kept where given (so
 * answers already stored still name their question) and `q<n>` for new ones, past every id in use.
 */
export const readQuestions = (field: string, inputs: ReadonlyArray<QuestionInput>) =>
  Effect.gen(function* () {
    if (inputs.length > QUESTIONS_PER_FORM_MAX) {
      return yield* invalid(field, `a form has at most ${QUESTIONS_PER_FORM_MAX} questions`)
    }
    const given = inputs.flatMap((q) => (q.id === undefined ? [] : [q.id]))
    let next = Math.max(0, ...given.filter((id) => QUESTION_ID.test(id)).map((id) => Number(id.slice(1)))) + 1
    const seen = new Set<string>()
    const questions: Array<Question> = []
    for (const [index, input] of inputs.entries()) {
      const at = `${field}.${index}`
      if (input.id !== undefined && (!QUESTION_ID.test(input.id) || seen.has(input.id))) {
        return yield* invalid(`${at}.id`, `${input.id} is not a question id of this form (q1, q2, …) or is given twice`)
      }
      const label = input.label.trim()
      if (label.length === 0 || label.length > QUESTION_LABEL_MAX) {
        return yield* invalid(`${at}.label`, `a question is 1 to ${QUESTION_LABEL_MAX} characters`)
      }
      const kind = input.kind ?? "text"
      const choices = [...new Set((input.choices ?? []).map((c) => c.trim()).filter((c) => c.length > 0))]
      if (kind === "choice" && (choices.length < 2 || choices.length > CHOICES_PER_QUESTION_MAX)) {
        return yield* invalid(`${at}.choices`, `a choice question has 2 to ${CHOICES_PER_QUESTION_MAX} choices`)
      }
      if (kind !== "choice" && choices.length > 0) {
        return yield* invalid(`${at}.choices`, "only a choice question has choices")
      }
      const long = choices.find((c) => c.length > CHOICE_MAX)
      if (long !== undefined) return yield* invalid(`${at}.choices`, `a choice is at most ${CHOICE_MAX} characters`)
      const id = input.id ?? `q${next++}`
      seen.add(id)
      questions.push({ id, label, kind, required: input.required ?? false, choices })
    }
    return questions
  })

const isEmail = Schema.is(Email)

/** Why one answer is refused, or undefined when it fits its question. */
const answerProblem = (question: Question, answer: string): string | undefined => {
  if (answer.length === 0) return question.required ? "this question needs an answer" : undefined
  switch (question.kind) {
    case "text":
      return answer.length > TEXT_ANSWER_MAX ? `at most ${TEXT_ANSWER_MAX} characters` : undefined
    case "paragraph":
      return answer.length > PARAGRAPH_ANSWER_MAX ? `at most ${PARAGRAPH_ANSWER_MAX} characters` : undefined
    case "email":
      return isEmail(answer) ? undefined : "an email address like name@example.com"
    case "choice":
      return question.choices.includes(answer) ? undefined : `one of: ${question.choices.join(", ")}`
  }
}

/**
 * The answers to store, in the form's order, keeping the question as it was asked. Every refused answer is named
 * by its field (`answers.<question id>`), so a page can mark each; answers to questions the form does not have are
 * refused too, as a stale page would send them.
 */
export const readAnswers = (questions: ReadonlyArray<Question>, given: Readonly<Record<string, string>>) =>
  Effect.gen(function* () {
    const problems: Array<FieldProblem> = []
    const answers: Array<Answer> = []
    for (const question of questions) {
      const answer = (given[question.id] ?? "").trim()
      const problem = answerProblem(question, answer)
      if (problem !== undefined) problems.push(new FieldProblem({ path: `answers.${question.id}`, message: problem }))
      else if (answer.length > 0) answers.push({ questionId: question.id, question: question.label, answer })
    }
    for (const id of Object.keys(given)) {
      if (!questions.some((q) => q.id === id)) {
        problems.push(new FieldProblem({ path: `answers.${id}`, message: "this form has no such question" }))
      }
    }
    if (problems.length > 0) {
      return yield* new InvalidInput({
        message: problems.map((p) => `${p.path}: ${p.message}`).join("; "),
        errors: problems
      })
    }
    return answers
  })
