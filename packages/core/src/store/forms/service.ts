import { Clock, Effect, Option } from "effect"
import { makeEventRecorder } from "../../events/service.js"
import { applicationAcceptedEmail, applicationDeclinedEmail } from "../../mail/templates.js"
import { Mailer } from "../../mail/ports.js"
import { Conflict, invalid, NotFound } from "../../shared/errors.js"
import { Ids, Transactor } from "../../shared/ports.js"
import type { StoreCaller } from "../../auth/store-caller.js"
import { makeContactTagger, makeTagResolver, readTagRefs } from "../email-list/contact-tagging.js"
import { StoreCustomers } from "../customers/customers.js"
import { readEmailAddress } from "../email-list/email-address.js"
import { CONTACT_NAME_MAX } from "../email-list/email-contacts.js"
import type { CreatedRange, Page, PageRequest } from "../../shared/paging.js"
import { EmailContactsRepo, StoreTagsRepo } from "../email-list/ports.js"
import { ProductsRepo } from "../catalog/ports.js"
import { StoreSetup } from "../catalog/settings.js"
import type { Decision, DecisionTarget, FormView } from "./form-view.js"
import { FormsRepo } from "./ports.js"
import { type QuestionInput, readAnswers, readQuestions } from "./questions.js"
import {
  type ApplicationStatus,
  type DecisionEmailStatus,
  DECISION_NOTE_MAX,
  type Form,
  FORM_DESCRIPTION_MAX,
  FORM_TAGS_MAX,
  FORM_TITLE_MAX,
  type FormResponse,
  FORMS_PER_WORKSPACE_MAX
} from "./schema.js"

/** What a seller sets on a form; on an update every field is optional and the rest stay. */
export interface FormFields {
  readonly title?: string | undefined
  readonly description?: string | null | undefined
  readonly review?: boolean | undefined
  /** The whole list: questions left out are removed (their stored answers keep the question as asked). */
  readonly questions?: ReadonlyArray<QuestionInput> | undefined
  /** Tag ids or names; unknown names become tags. */
  readonly acceptTags?: ReadonlyArray<string> | undefined
  readonly declineTags?: ReadonlyArray<string> | undefined
  /** A product id of the store; null clears it. */
  readonly acceptProduct?: string | null | undefined
  readonly decisionEmails?: boolean | undefined
  readonly acceptNote?: string | null | undefined
  readonly declineNote?: string | null | undefined
}

/** A filled-in form, as a page (or a test) sends it: answers keyed by question id. */
export interface FormSubmission {
  readonly email: string
  readonly name?: string | undefined
  readonly answers: Readonly<Record<string, string>>
}

/** The applications of a form to list: one status or `all`, newest first. */
export interface ApplicationsQuery {
  readonly status: ApplicationStatus | "all"
  readonly page: PageRequest
  readonly created: CreatedRange
}

const iso = (at: Date) => at.toISOString()

/** Trims an optional text; `""` is none; past `max` it is refused naming `field`. */
const readText = (field: string, text: string | null | undefined, max: number) => {
  if (text === undefined) return Effect.succeed(undefined)
  const trimmed = text?.trim() ?? ""
  if (trimmed.length > max) return Effect.fail(invalid(field, `${field} is at most ${max} characters`))
  return Effect.succeed(trimmed === "" ? null : trimmed)
}

/**
 * The store's forms (the store API's quizzes): their questions, the responses people send, and on a review form
 * each response as an application the seller accepts or declines (spec: Application), with the form's tags, an
 * optional product and a decision email.
 */
export class StoreForms extends Effect.Service<StoreForms>()("svc/store/StoreForms", {
  dependencies: [StoreCustomers.Default, StoreSetup.Default],
  effect: Effect.gen(function* () {
    const repo = yield* FormsRepo
    const tags = yield* StoreTagsRepo
    const products = yield* ProductsRepo
    const contacts = yield* EmailContactsRepo
    const customers = yield* StoreCustomers
    const setup = yield* StoreSetup
    const mailer = yield* Mailer
    const ids = yield* Ids
    const transactor = yield* Transactor
    const resolveTags = yield* makeTagResolver
    const tagContact = yield* makeContactTagger
    const recordEvent = yield* makeEventRecorder

    const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

    const formOf = (workspaceId: string, formId: string) =>
      Effect.flatMap(repo.find(workspaceId, formId), (found) =>
        Option.match(found, {
          onNone: () =>
            Effect.fail(new NotFound({ message: `no form ${formId} in this store`, next: { _tag: "ListForms" } })),
          onSome: Effect.succeed
        })
      )

    /** The form with the tags it names, in its order (one read for both lists), and its counts. */
    const viewOf = (form: Form, counts: { readonly responses: number; readonly pending: number }) =>
      Effect.map(tags.resolve(form.workspaceId, [...form.acceptTagIds, ...form.declineTagIds]), (found): FormView => {
        const byId = new Map(found.map((t) => [t.id, t]))
        const inOrder = (list: ReadonlyArray<string>) => list.flatMap((id) => byId.get(id) ?? [])
        return {
          form,
          acceptTags: inOrder(form.acceptTagIds),
          declineTags: inOrder(form.declineTagIds),
          responses: counts.responses,
          pending: counts.pending
        }
      })

    /** The fields given, checked, applied over `base`; tags by name become tags. */
    const applyFields = (workspaceId: string, base: Form, fields: FormFields, at: Date) =>
      Effect.gen(function* () {
        const title = fields.title === undefined ? base.title : fields.title.trim()
        if (title.length === 0 || title.length > FORM_TITLE_MAX) {
          return yield* invalid("title", `the title is 1 to ${FORM_TITLE_MAX} characters`)
        }
        const description = yield* readText("description", fields.description, FORM_DESCRIPTION_MAX)
        const acceptNote = yield* readText("acceptNote", fields.acceptNote, DECISION_NOTE_MAX)
        const declineNote = yield* readText("declineNote", fields.declineNote, DECISION_NOTE_MAX)
        const questions =
          fields.questions === undefined ? base.questions : yield* readQuestions("questions", fields.questions)
        const tagIds = (field: string, refs: ReadonlyArray<string> | undefined, current: ReadonlyArray<string>) =>
          refs === undefined
            ? Effect.succeed(current)
            : Effect.gen(function* () {
                const read = yield* readTagRefs(field, refs)
                if (read.length > FORM_TAGS_MAX) return yield* invalid(field, `at most ${FORM_TAGS_MAX} tags`)
                return (yield* resolveTags(workspaceId, field, read, true, at)).map((t) => t.id)
              })
        const acceptTagIds = yield* tagIds("acceptTags", fields.acceptTags, base.acceptTagIds)
        const declineTagIds = yield* tagIds("declineTags", fields.declineTags, base.declineTagIds)
        let acceptProductId = base.acceptProductId
        if (fields.acceptProduct !== undefined) {
          acceptProductId = fields.acceptProduct
          if (acceptProductId !== null && Option.isNone(yield* products.find(workspaceId, acceptProductId))) {
            return yield* invalid("acceptProduct", `no product ${acceptProductId} in this store`)
          }
        }
        return {
          ...base,
          title,
          description: description === undefined ? base.description : (description ?? ""),
          review: fields.review ?? base.review,
          questions,
          acceptTagIds,
          declineTagIds,
          acceptProductId,
          decisionEmails: fields.decisionEmails ?? base.decisionEmails,
          acceptNote: acceptNote === undefined ? base.acceptNote : acceptNote,
          declineNote: declineNote === undefined ? base.declineNote : declineNote,
          updatedAt: at
        } satisfies Form
      })

    /** Creates a form; at most `FORMS_PER_WORKSPACE_MAX` per store. */
    const create = (caller: StoreCaller, fields: FormFields & { readonly title: string }) =>
      transactor.withTransaction(
        Effect.gen(function* () {
          if ((yield* repo.count(caller.workspaceId)) >= FORMS_PER_WORKSPACE_MAX) {
            return yield* new Conflict({
              message: `this store has ${FORMS_PER_WORKSPACE_MAX} forms, the most it may keep; delete one first`
            })
          }
          const at = yield* now
          const blank: Form = {
            id: yield* ids.make("frm_"),
            workspaceId: caller.workspaceId,
            title: fields.title,
            description: "",
            questions: [],
            review: false,
            acceptTagIds: [],
            declineTagIds: [],
            acceptProductId: null,
            decisionEmails: true,
            acceptNote: null,
            declineNote: null,
            createdAt: at,
            updatedAt: at
          }
          const form = yield* applyFields(caller.workspaceId, blank, fields, at)
          yield* repo.insert(form)
          return yield* viewOf(form, { responses: 0, pending: 0 })
        })
      )

    /** Changes the fields given. Turning review off leaves decided and pending applications as they are. */
    const update = (caller: StoreCaller, formId: string, fields: FormFields) =>
      transactor.withTransaction(
        Effect.gen(function* () {
          const form = yield* formOf(caller.workspaceId, formId)
          const changed = yield* applyFields(caller.workspaceId, form, fields, yield* now)
          yield* repo.update(changed)
          return yield* get(caller, formId)
        })
      )

    /** Deletes a form and its responses. */
    const remove = (caller: StoreCaller, formId: string): Effect.Effect<void, NotFound> =>
      Effect.flatMap(repo.remove(caller.workspaceId, formId), (deleted) =>
        deleted ? Effect.void : Effect.fail(new NotFound({ message: `no form ${formId} in this store` }))
      )

    /** One form with its counts. */
    const get = (caller: StoreCaller, formId: string) =>
      Effect.gen(function* () {
        const form = yield* formOf(caller.workspaceId, formId)
        return yield* viewOf(form, yield* repo.counts(form.id))
      })

    /** The store's forms, newest first. */
    const listPage = (
      caller: StoreCaller,
      query: { readonly page: PageRequest; readonly created: CreatedRange }
    ): Effect.Effect<Page<FormView>> =>
      Effect.gen(function* () {
        const found = yield* repo.listPage(caller.workspaceId, query.created, query.page)
        const rows = yield* Effect.forEach(found.rows, (form) => viewOf(form, form))
        return { rows, next: found.next }
      })

    /**
     * Stores a filled-in form: the email (required: the response is that person's), a name, and the answers checked
     * against the questions, each refusal naming its field. Records `form.completed` (the Form Completed feed and
     * webhooks); on a review form the response is a pending application.
     */
    const submit = (workspaceId: string, formId: string, input: FormSubmission) =>
      Effect.gen(function* () {
        const form = yield* formOf(workspaceId, formId)
        const email = yield* readEmailAddress("email", input.email)
        const name = (yield* readText("name", input.name, CONTACT_NAME_MAX)) ?? null
        const answers = yield* readAnswers(form.questions, input.answers)
        const at = yield* now
        const response: FormResponse = {
          id: yield* ids.make("resp_"),
          workspaceId,
          formId: form.id,
          email,
          name,
          answers,
          status: form.review ? "pending" : null,
          decidedAt: null,
          createdAt: at
        }
        yield* transactor.withTransaction(
          Effect.gen(function* () {
            yield* repo.insertResponse(response)
            yield* recordEvent(workspaceId, "form.completed", {
              response_id: response.id,
              quiz_id: form.id,
              quiz_title: form.title,
              email,
              name,
              answers: answers.map((a) => ({ question: a.question, answer: a.answer })),
              created_at: iso(at)
            })
          })
        )
        return response
      })

    /** A form's applications of one status (or all), newest first. */
    const applications = (
      caller: StoreCaller,
      formId: string,
      query: ApplicationsQuery
    ): Effect.Effect<Page<FormResponse>, NotFound> =>
      Effect.gen(function* () {
        const form = yield* formOf(caller.workspaceId, formId)
        const status = query.status === "all" ? undefined : query.status
        return yield* repo.applications(form.id, status, query.created, query.page)
      })

    /** Whether and how the decision email goes: see `DecisionEmailStatus`. */
    const decisionEmail = (
      caller: StoreCaller,
      form: Form,
      response: FormResponse,
      decision: "accepted" | "declined",
      send: boolean
    ): Effect.Effect<DecisionEmailStatus> =>
      Effect.gen(function* () {
        if (!send) return "skipped"
        if (!form.decisionEmails) return "off"
        const email = response.email
        const contact = yield* contacts.find(caller.workspaceId, email)
        if (Option.isSome(contact) && (contact.value.status === "bounced" || contact.value.status === "complained")) {
          return "no_email"
        }
        // Every decision has an email (the templates'): a store without a support email sends it without the line
        // naming where to reply, so `not_set_up` never comes from this server.
        const { supportEmail } = yield* setup.get(caller.workspaceId)
        const own = decision === "accepted" ? form.acceptNote : form.declineNote
        const reply = supportEmail === null ? null : `Questions? Write to ${supportEmail}.`
        const note = [own, reply].filter((line) => line !== null).join("\n\n")
        const content = (decision === "accepted" ? applicationAcceptedEmail : applicationDeclinedEmail)({
          storeName: caller.store.name,
          formTitle: form.title,
          note
        })
        yield* mailer.send({ workspaceId: caller.workspaceId, to: email, ...content })
        return "queued"
      })

    /**
     * Accepts or declines an application (by `responseId`, or the newest one from `email`). A change adds the
     * decision's tags and, on an accept, gives the form's product for free; the decision email follows unless
     * `sendEmail` is false. The same decision again changes nothing and sends nothing (`changed: false`). Refusals
     * name the store API's fields (`response_id`), as its accept and decline take them.
     */
    const decide = (caller: StoreCaller, formId: string, target: DecisionTarget, decision: "accepted" | "declined") =>
      Effect.gen(function* () {
        if ((target.responseId === undefined) === (target.email === undefined)) {
          return yield* invalid("response_id", "give response_id or email (one of them)")
        }
        const email = target.email === undefined ? undefined : yield* readEmailAddress("email", target.email)
        return yield* transactor.withTransaction(
          Effect.gen(function* () {
            const form = yield* formOf(caller.workspaceId, formId)
            if (!form.review) {
              return yield* new Conflict({
                message: `form ${form.id} does not review its responses; set review on it to accept or decline`
              })
            }
            const found =
              email === undefined
                ? yield* repo.lockResponse(form.id, target.responseId ?? "")
                : yield* repo.lockNewestByEmail(form.id, email)
            if (Option.isNone(found)) {
              return yield* new NotFound({
                message:
                  email === undefined
                    ? `no application ${target.responseId} on form ${form.id}`
                    : `no application from ${email} on form ${form.id}`
              })
            }
            const response = found.value
            if (response.status === decision) {
              return {
                changed: false,
                email: "skipped",
                application: response,
                tagsAdded: [],
                access: Option.none()
              } satisfies Decision
            }
            const at = yield* now
            yield* repo.decide(response.id, decision, at)
            const decided: FormResponse = { ...response, status: decision, decidedAt: at }
            const tagIds = decision === "accepted" ? form.acceptTagIds : form.declineTagIds
            const wanted = tagIds.length === 0 ? [] : yield* tags.resolve(caller.workspaceId, tagIds)
            const added = yield* tagContact(caller.workspaceId, response.email, wanted, at)
            const access =
              decision === "accepted" && form.acceptProductId !== null
                ? (yield* customers.add(caller, {
                    productId: form.acceptProductId,
                    email: response.email,
                    name: response.name ?? undefined,
                    sendEmail: target.sendEmail !== false
                  })).status
                : undefined
            const emailed = yield* decisionEmail(caller, form, decided, decision, target.sendEmail !== false)
            return {
              changed: true,
              email: emailed,
              application: decided,
              tagsAdded: added,
              access: Option.fromNullable(access)
            } satisfies Decision
          })
        )
      })

    return { create, update, remove, get, listPage, submit, applications, decide } as const
  })
}) {}
