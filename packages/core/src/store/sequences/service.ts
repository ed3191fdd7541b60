import { Clock, Effect, Option } from "effect"
import { Conflict, invalid, NotFound } from "../../shared/errors.js"
import { Ids, Transactor } from "../../shared/ports.js"
import type { StoreCaller } from "../../auth/store-caller.js"
import { makeTagResolver, readTagRefs } from "../email-list/contact-tagging.js"
import type { Page } from "../../shared/paging.js"
import { ProductsRepo } from "../catalog/ports.js"
import { EmailSequencesRepo } from "./ports.js"
import {
  type EmailSequence,
  SEQUENCE_NAME_MAX,
  SEQUENCE_STARTS_MAX,
  SEQUENCE_STEPS_MAX,
  SEQUENCES_PER_STORE_MAX,
  type SequenceState,
  type SequenceStep,
  type SequenceView,
  STEP_BODY_MAX,
  STEP_DELAY_MAX_MINUTES,
  STEP_SUBJECT_MAX
} from "./schema.js"
import type { SequenceListQuery } from "./sequence-query.js"

/** A sequence's fields as a face gives them; to create, `name`, `steps` and a start are needed. */
export interface SequenceFields {
  readonly name?: string | undefined
  readonly state?: SequenceState | undefined
  readonly steps?: ReadonlyArray<SequenceStep> | undefined
  /** Tag ids or names; unknown names become tags, so a sequence can wait for a tag nobody has yet. */
  readonly startTags?: ReadonlyArray<string> | undefined
  /** Product ids of this store. */
  readonly startProducts?: ReadonlyArray<string> | undefined
}

// A subject is one header line: a line break in it would let a body smuggle in headers.
const LINE_BREAK = /[\r\n]/

const readName = (name: string) => {
  const trimmed = name.trim()
  return trimmed.length === 0 || trimmed.length > SEQUENCE_NAME_MAX
    ? Effect.fail(invalid("name", `the name is 1 to ${SEQUENCE_NAME_MAX} characters`))
    : Effect.succeed(trimmed)
}

const readSteps = (steps: ReadonlyArray<SequenceStep>) =>
  Effect.gen(function* () {
    if (steps.length === 0 || steps.length > SEQUENCE_STEPS_MAX) {
      return yield* invalid("steps", `a sequence has 1 to ${SEQUENCE_STEPS_MAX} steps`)
    }
    const read: Array<SequenceStep> = []
    for (const [index, step] of steps.entries()) {
      const at = `steps.${index}`
      if (!Number.isInteger(step.delayMinutes) || step.delayMinutes < 0 || step.delayMinutes > STEP_DELAY_MAX_MINUTES) {
        return yield* invalid(
          `${at}.delayMinutes`,
          `the delay is a whole number of minutes, 0 to ${STEP_DELAY_MAX_MINUTES}`
        )
      }
      const subject = step.subject.trim()
      if (subject.length === 0 || subject.length > STEP_SUBJECT_MAX || LINE_BREAK.test(subject)) {
        return yield* invalid(`${at}.subject`, `the subject is one line of 1 to ${STEP_SUBJECT_MAX} characters`)
      }
      if (step.body.trim().length === 0 || step.body.length > STEP_BODY_MAX) {
        return yield* invalid(`${at}.body`, `the body is plain text of 1 to ${STEP_BODY_MAX} characters`)
      }
      read.push({ delayMinutes: step.delayMinutes, subject, body: step.body })
    }
    return read
  })

/** A store's email sequences: made and changed by the seller's tools, listed on the store API. */
export class StoreEmailSequences extends Effect.Service<StoreEmailSequences>()("svc/store/StoreEmailSequences", {
  effect: Effect.gen(function* () {
    const repo = yield* EmailSequencesRepo
    const products = yield* ProductsRepo
    const ids = yield* Ids
    const transactor = yield* Transactor
    const resolveTags = yield* makeTagResolver

    const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

    const readProducts = (workspaceId: string, refs: ReadonlyArray<string>) =>
      Effect.gen(function* () {
        const wanted = [...new Set(refs.map((ref) => ref.trim()))]
        if (wanted.length > SEQUENCE_STARTS_MAX) {
          return yield* invalid("startProducts", `give at most ${SEQUENCE_STARTS_MAX} products`)
        }
        const known = new Set((yield* products.findMany(workspaceId, wanted)).map((p) => p.id))
        const missing = wanted.findIndex((id) => !known.has(id))
        if (missing >= 0) {
          return yield* invalid(`startProducts.${missing}`, `no product ${wanted[missing]} in this store`)
        }
        return wanted
      })

    const readStartTags = (workspaceId: string, refs: ReadonlyArray<string>, at: Date) =>
      Effect.gen(function* () {
        const read = yield* readTagRefs("startTags", refs)
        if (read.length > SEQUENCE_STARTS_MAX) {
          return yield* invalid("startTags", `give at most ${SEQUENCE_STARTS_MAX} tags`)
        }
        return (yield* resolveTags(workspaceId, "startTags", read, true, at)).map((t) => t.id)
      })

    const mustStart = (tags: ReadonlyArray<string>, products: ReadonlyArray<string>) =>
      tags.length + products.length === 0
        ? Effect.fail(invalid("startTags", "give startTags or startProducts: a sequence starts on a tag or a purchase"))
        : Effect.void

    const unknown = (id: string) =>
      new NotFound({ message: `no sequence ${id} in this store; list them with action list_sequences` })

    /** One sequence with its start tags' names and enrolment counts. */
    const get = (caller: StoreCaller, id: string) =>
      Effect.flatMap(repo.find(caller.workspaceId, id), (found) =>
        Option.match(found, {
          onNone: () => Effect.fail(unknown(id)),
          onSome: Effect.succeed
        })
      )

    /** The store's sequences, newest first, paged like the other store lists. */
    const listPage = (caller: StoreCaller, query: SequenceListQuery): Effect.Effect<Page<SequenceView>> =>
      repo.listPage(caller.workspaceId, query.created, query.page)

    /** Makes a sequence (active unless `state` says paused); it enrols people from now on, not those tagged before. */
    const create = (caller: StoreCaller, fields: SequenceFields) =>
      Effect.gen(function* () {
        if (fields.name === undefined) return yield* invalid("name", "a new sequence needs a name")
        if (fields.steps === undefined) return yield* invalid("steps", "a new sequence needs its steps")
        const name = yield* readName(fields.name)
        const steps = yield* readSteps(fields.steps)
        const startProducts = yield* readProducts(caller.workspaceId, fields.startProducts ?? [])
        const id = yield* ids.make("seq_")
        return yield* transactor.withTransaction(
          Effect.gen(function* () {
            const at = yield* now
            const startTags = yield* readStartTags(caller.workspaceId, fields.startTags ?? [], at)
            yield* mustStart(startTags, startProducts)
            if ((yield* repo.count(caller.workspaceId)) >= SEQUENCES_PER_STORE_MAX) {
              return yield* new Conflict({
                message: `a store holds at most ${SEQUENCES_PER_STORE_MAX} sequences; change or delete one instead`
              })
            }
            const sequence: EmailSequence = {
              id,
              workspaceId: caller.workspaceId,
              name,
              state: fields.state ?? "active",
              steps,
              startTags,
              startProducts,
              createdAt: at,
              updatedAt: at
            }
            yield* repo.insert(sequence)
            return yield* get(caller, id)
          })
        )
      })

    /**
     * Changes the fields given. New steps apply to the steps people have not had yet; a paused sequence holds its
     * people where they are and sends again from where they stand once resumed.
     */
    const update = (caller: StoreCaller, id: string, fields: SequenceFields) =>
      Effect.gen(function* () {
        const name = fields.name === undefined ? undefined : yield* readName(fields.name)
        const steps = fields.steps === undefined ? undefined : yield* readSteps(fields.steps)
        const startProducts =
          fields.startProducts === undefined ? undefined : yield* readProducts(caller.workspaceId, fields.startProducts)
        return yield* transactor.withTransaction(
          Effect.gen(function* () {
            const current = yield* Effect.flatMap(repo.lock(caller.workspaceId, id), (found) =>
              Option.match(found, { onNone: () => Effect.fail(unknown(id)), onSome: Effect.succeed })
            )
            const at = yield* now
            const startTags =
              fields.startTags === undefined
                ? current.startTags
                : yield* readStartTags(caller.workspaceId, fields.startTags, at)
            const next: EmailSequence = {
              ...current,
              name: name ?? current.name,
              state: fields.state ?? current.state,
              steps: steps ?? current.steps,
              startTags,
              startProducts: startProducts ?? current.startProducts,
              updatedAt: at
            }
            yield* mustStart(next.startTags, next.startProducts)
            yield* repo.save(next)
            return yield* get(caller, id)
          })
        )
      })

    /** Deletes a sequence; the people in it get no more of its steps. */
    const remove = (caller: StoreCaller, id: string) =>
      Effect.flatMap(repo.remove(caller.workspaceId, id), (removed) =>
        removed ? Effect.void : Effect.fail(unknown(id))
      )

    return { get, listPage, create, update, remove } as const
  })
}) {}
