import { Schema } from "effect"
import { TagRef } from "../email-list/email-contact.js"

/** The most sequences one store keeps. */
export const SEQUENCES_PER_STORE_MAX = 50
/** The most steps one sequence has. */
export const SEQUENCE_STEPS_MAX = 20
/** The longest sequence name. */
export const SEQUENCE_NAME_MAX = 100
/** The longest step subject (one header line). */
export const STEP_SUBJECT_MAX = 200
/** The longest step body (plain text). */
export const STEP_BODY_MAX = 20_000
/** The longest wait before a step: one year, in minutes. */
export const STEP_DELAY_MAX_MINUTES = 525_600
/** The most start tags, and separately the most start products, of one sequence. */
export const SEQUENCE_STARTS_MAX = 20

/** `active` sequences enrol people and send; `paused` ones do neither until resumed. */
export const SequenceState = Schema.Literal("active", "paused").annotations({
  description: "active (enrols people and sends) or paused (enrols no one, sends nothing until resumed)."
})
export type SequenceState = typeof SequenceState.Type

/** Where a contact stands in one sequence. */
export type EnrolmentState = "active" | "completed" | "stopped"

/** One email of a sequence, sent `delayMinutes` after the previous step (the first: after the enrolment). */
export interface SequenceStep {
  readonly delayMinutes: number
  readonly subject: string
  readonly body: string
}

/** A store's email sequence. `startTags` are tag ids; `startProducts` product ids. */
export interface EmailSequence {
  readonly id: string
  readonly workspaceId: string
  readonly name: string
  readonly state: SequenceState
  readonly steps: ReadonlyArray<SequenceStep>
  readonly startTags: ReadonlyArray<string>
  readonly startProducts: ReadonlyArray<string>
  readonly createdAt: Date
  readonly updatedAt: Date
}

/** How many people a sequence has, by enrolment state. */
export interface EnrolmentCounts {
  readonly active: number
  readonly completed: number
  readonly stopped: number
}

/** A sequence as listed: with its start tags' names and its enrolment counts. */
export interface SequenceView extends EmailSequence {
  readonly tags: ReadonlyArray<{ readonly id: string; readonly name: string }>
  readonly enrolments: EnrolmentCounts
}

/** One contact going through one sequence; `nextStep` indexes the sequence's steps. */
export interface Enrolment {
  readonly id: string
  readonly workspaceId: string
  readonly sequenceId: string
  readonly email: string
  readonly state: EnrolmentState
  readonly nextStep: number
  readonly nextDueAt: Date | null
  readonly startedAt: Date
}

/** An enrolment one worker holds until `leaseUntil`; only the holder of `claimToken` may advance it. */
export interface ClaimedEnrolment extends Enrolment {
  readonly claimToken: string
  readonly leaseUntil: Date
}

const iso = Schema.String.annotations({ description: "ISO 8601 timestamp, UTC." })
const count = (description: string) => Schema.Int.annotations({ description })

/** One sequence of `GET /email-sequences` (the spec leaves the row's shape open; docs/store-api.md names it). */
export const EmailSequenceRow = Schema.Struct({
  id: Schema.String.annotations({ description: "Sequence id (seq_…)." }),
  name: Schema.String,
  state: SequenceState,
  starts_when: Schema.Struct({
    tags: Schema.Array(TagRef).annotations({ description: "Getting any of these tags starts the sequence." }),
    products: Schema.Array(Schema.String).annotations({
      description: "Buying (or being given) any of these products (prod_…) starts the sequence."
    })
  }).annotations({ description: "What enrols a subscribed contact: any start tag or any start product." }),
  steps: Schema.Array(
    Schema.Struct({
      delay_minutes: count("Minutes after the previous step was sent (the first step: after the enrolment)."),
      subject: Schema.String
    })
  ).annotations({ description: "The emails in order (bodies are read through the tool)." }),
  enrolments: Schema.Struct({
    active: count("People still going through it."),
    completed: count("People who got every step."),
    stopped: count("People it stopped for: they unsubscribed, bounced, complained or left the list.")
  }),
  created_at: iso,
  updated_at: iso
}).annotations({ identifier: "EmailSequenceRow", description: "An email sequence of the store." })

/** A sequence as the seller's tool answers it: the list row with each step's body, to edit from. */
export const EmailSequenceDetailRow = Schema.Struct({
  ...EmailSequenceRow.fields,
  steps: Schema.Array(
    Schema.Struct({
      delay_minutes: count("Minutes after the previous step was sent (the first step: after the enrolment)."),
      subject: Schema.String,
      body: Schema.String
    })
  ).annotations({ description: "The emails in order." })
}).annotations({ description: "An email sequence of the store, with each step's body." })
