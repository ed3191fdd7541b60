import type { Page, PageRequest } from "../../shared/paging.js"
import { creationKey, pageAnswer } from "../../shared/list-query.js"
import type { EmailSequenceDetailRow, EmailSequenceRow, SequenceView } from "./schema.js"

// The store API's wire form of the sequences (snake_case, ISO times), which the seller's tool answers too.

/** A sequence as the store API answers it. */
export const sequenceJson = (sequence: SequenceView): typeof EmailSequenceRow.Type => ({
  id: sequence.id,
  name: sequence.name,
  state: sequence.state,
  starts_when: {
    tags: sequence.tags.map((t) => ({ id: t.id, name: t.name })),
    products: [...sequence.startProducts]
  },
  steps: sequence.steps.map((s) => ({ delay_minutes: s.delayMinutes, subject: s.subject })),
  enrolments: { ...sequence.enrolments },
  created_at: sequence.createdAt.toISOString(),
  updated_at: sequence.updatedAt.toISOString()
})

/** A sequence as the seller's tool answers it: the list row with each step's body, to edit from. */
export const sequenceDetailJson = (sequence: SequenceView): typeof EmailSequenceDetailRow.Type => ({
  ...sequenceJson(sequence),
  steps: sequence.steps.map((s) => ({ delay_minutes: s.delayMinutes, subject: s.subject, body: s.body }))
})

/** A page of sequences, as `GET /email-sequences` answers it. */
export const sequencePageJson = (page: Page<SequenceView>, request: PageRequest) =>
  pageAnswer(page, sequenceJson, request, creationKey)
