import { Effect, Schema } from "effect"
import { ContactStatus, EmailContactRow, EmailTagRow } from "./email-contact.js"
import { Cursor, Limit } from "../../shared/paging.js"
import { defineTool } from "../../tools/tool.js"
import { describeActions, need, onlyFieldsOf } from "../action-tools.js"
import { nextCursorOf, readToolPaging } from "../../shared/list-query.js"
import { StoreEmailList } from "./email-contacts.js"
import { contactJson, tagJson } from "./email-list-json.js"
import {
  EmailSequenceDetailRow,
  EmailSequenceRow,
  SEQUENCE_STEPS_MAX,
  type SequenceStep,
  STEP_BODY_MAX,
  STEP_SUBJECT_MAX
} from "../sequences/schema.js"
import { sequenceDetailJson, sequenceJson } from "../sequences/sequence-json.js"
import { type SequenceFields, StoreEmailSequences } from "../sequences/service.js"
import { StoreSetup } from "../catalog/settings.js"
import { emailOf, inToolNames, makeStoreOfCall, StoreHandleField } from "../tool-support.js"

const Action = Schema.Literal(
  "list_contacts",
  "get_contact",
  "add_contact",
  "update_contact",
  "remove_contact",
  "list_tags",
  "list_sequences",
  "get_sequence",
  "create_sequence",
  "update_sequence",
  "pause_sequence",
  "resume_sequence",
  "delete_sequence",
  "settings"
)
type Action = typeof Action.Type

/** The fields each action reads besides `storeHandle` and `action`; any other field given is refused. */
const fieldsOf: Record<Action, ReadonlyArray<string>> = {
  list_contacts: ["status", "limit", "cursor"],
  get_contact: ["email"],
  add_contact: ["email", "name", "tags"],
  update_contact: ["email", "name", "subscribed", "tags", "removeTags"],
  remove_contact: ["email"],
  list_tags: ["limit", "cursor"],
  list_sequences: ["limit", "cursor"],
  get_sequence: ["sequenceId"],
  create_sequence: ["name", "steps", "tags", "products"],
  update_sequence: ["sequenceId", "name", "steps", "tags", "products"],
  pause_sequence: ["sequenceId"],
  resume_sequence: ["sequenceId"],
  delete_sequence: ["sequenceId"],
  settings: ["addBuyers", "doubleOptIn"]
}

// Few bytes per field (every one is in tools/list): lengths and counts are checked by the services, which name the
// field of a refusal, so the schema carries types and one short description each.
const text = (description: string) => Schema.optional(Schema.String.annotations({ description }))
const texts = (description: string) => Schema.optional(Schema.Array(Schema.String).annotations({ description }))
const flag = (description: string) => Schema.optional(Schema.Boolean.annotations({ description }))

const Step = Schema.Struct({
  delayMinutes: Schema.Int.annotations({ description: "Minutes after last." }),
  subject: Schema.String.annotations({ description: `One line, ≤${STEP_SUBJECT_MAX}.` }),
  body: Schema.String.annotations({ description: `Text, ≤${STEP_BODY_MAX}.` })
})

const CONTACT_ROW = "As GET /email-contacts/<email>."
const SEQUENCE_ROW = "As GET /email-sequences, steps with body."

// The services name fields as the store API and the sequences do; this tool's failures name its own fields.
const toolFieldNames = inToolNames({
  add_tags: "tags",
  remove_tags: "removeTags",
  startTags: "tags",
  startProducts: "products"
})

const sequenceFields = (input: {
  readonly name?: string | undefined
  readonly steps?: ReadonlyArray<SequenceStep> | undefined
  readonly tags?: ReadonlyArray<string> | undefined
  readonly products?: ReadonlyArray<string> | undefined
}): SequenceFields => ({
  name: input.name,
  steps: input.steps,
  startTags: input.tags,
  startProducts: input.products
})

/** The Store group's svc_manage_store_emails: the email list, its tags, sequences and email settings. */
export const emailTools = Effect.gen(function* () {
  const list = yield* StoreEmailList
  const sequences = yield* StoreEmailSequences
  const setup = yield* StoreSetup
  const storeOf = yield* makeStoreOfCall

  const settingsOf = (s: { readonly emailListAddBuyers: boolean; readonly emailDoubleOptIn: boolean }) => ({
    settings: { addBuyers: s.emailListAddBuyers, doubleOptIn: s.emailDoubleOptIn }
  })

  return [
    defineTool({
      name: "svc_manage_store_emails",
      title: "Manage store emails",
      group: "Store",
      write: true,
      annotations: { destructiveHint: true, idempotentHint: false, openWorldHint: false },
      description:
        "Manage the store's email list: contacts, tags, sequences (emails sent after a start tag or product), settings.",
      input: {
        storeHandle: StoreHandleField,
        action: Action.annotations({ description: describeActions(fieldsOf) }),
        status: Schema.optional(ContactStatus.annotations({ description: "Only contacts in this state." })),
        email: text("Contact email."),
        name: text("Contact/sequence name."),
        subscribed: flag("false unsubscribes."),
        tags: texts("Tags to add / start tags."),
        removeTags: texts("Tags to remove."),
        products: texts("Start product ids."),
        sequenceId: text("Sequence id."),
        steps: Schema.optional(
          Schema.Array(Step).annotations({ description: `1-${SEQUENCE_STEPS_MAX} emails, in order.` })
        ),
        addBuyers: flag("Buyers join the list."),
        doubleOptIn: flag("Sign-ups confirm first."),
        limit: Schema.optional(Limit),
        cursor: Schema.optional(Cursor)
      },
      output: {
        contacts: Schema.optional(
          Schema.Array(EmailContactRow).annotations({ description: "The contacts, newest first." })
        ),
        counts: Schema.optional(
          Schema.Struct({
            subscribed: Schema.Int,
            unsubscribed: Schema.Int,
            bounced: Schema.Int,
            complained: Schema.Int,
            total: Schema.Int
          }).annotations({ description: "list_contacts: how many people the whole list holds in each state." })
        ),
        contact: Schema.optional(EmailContactRow.annotations({ description: CONTACT_ROW })),
        deleted: Schema.optional(
          Schema.Boolean.annotations({ description: "false: an opted-out contact is kept, never mailed." })
        ),
        tags: Schema.optional(
          Schema.Array(EmailTagRow).annotations({
            description: "The store's tags, newest first."
          })
        ),
        sequences: Schema.optional(Schema.Array(EmailSequenceRow).annotations({ description: "The sequences." })),
        sequence: Schema.optional(EmailSequenceDetailRow.annotations({ description: SEQUENCE_ROW })),
        settings: Schema.optional(
          Schema.Struct({
            addBuyers: Schema.Boolean.annotations({ description: "Buyers join the email list." }),
            doubleOptIn: Schema.Boolean.annotations({ description: "Sign-ups confirm by email first." })
          }).annotations({ description: "The store's email settings." })
        ),
        nextCursor: Schema.optional(
          Schema.String.annotations({ description: "Pass as cursor for the next page; absent on the last." })
        )
      },
      handler: (input, context) =>
        Effect.gen(function* () {
          yield* onlyFieldsOf(fieldsOf, input.action, input)
          const caller = yield* storeOf(context, input.storeHandle)
          const email = () => Effect.flatMap(need(input.email, "email", input.action), (text) => emailOf(text))
          switch (input.action) {
            case "list_contacts": {
              const page = yield* list.listPage(caller, { status: input.status, ...(yield* readToolPaging(input)) })
              return { contacts: page.rows.map(contactJson), counts: yield* list.counts(caller), ...nextCursorOf(page) }
            }
            case "get_contact":
              return { contact: contactJson(yield* list.get(caller, yield* email())) }
            case "add_contact": {
              const added = yield* list.add(caller, { email: yield* email(), name: input.name, tags: input.tags })
              return { contact: contactJson(added.contact) }
            }
            case "update_contact": {
              const address = yield* email()
              const updated = yield* list.update(caller, address, {
                name: input.name,
                subscribed: input.subscribed,
                addTags: input.tags,
                removeTags: input.removeTags
              })
              return { contact: contactJson(updated) }
            }
            case "remove_contact": {
              const address = yield* email()
              const removed = yield* list.remove(caller, address)
              return { deleted: removed.deleted }
            }
            case "list_tags": {
              const page = yield* list.listTags(caller, yield* readToolPaging(input))
              return { tags: page.rows.map(tagJson), ...nextCursorOf(page) }
            }
            case "list_sequences": {
              const page = yield* sequences.listPage(caller, yield* readToolPaging(input))
              return { sequences: page.rows.map(sequenceJson), ...nextCursorOf(page) }
            }
            case "get_sequence": {
              const id = yield* need(input.sequenceId, "sequenceId", "get_sequence")
              return { sequence: sequenceDetailJson(yield* sequences.get(caller, id)) }
            }
            case "create_sequence":
              return { sequence: sequenceDetailJson(yield* sequences.create(caller, sequenceFields(input))) }
            case "update_sequence": {
              const id = yield* need(input.sequenceId, "sequenceId", "update_sequence")
              return { sequence: sequenceDetailJson(yield* sequences.update(caller, id, sequenceFields(input))) }
            }
            case "pause_sequence":
            case "resume_sequence": {
              const id = yield* need(input.sequenceId, "sequenceId", input.action)
              const state = input.action === "pause_sequence" ? "paused" : "active"
              return { sequence: sequenceDetailJson(yield* sequences.update(caller, id, { state })) }
            }
            case "delete_sequence":
              yield* sequences.remove(caller, yield* need(input.sequenceId, "sequenceId", "delete_sequence"))
              return { deleted: true }
            case "settings":
              return settingsOf(
                yield* setup.set(caller.workspaceId, {
                  emailListAddBuyers: input.addBuyers,
                  emailDoubleOptIn: input.doubleOptIn
                })
              )
          }
        }).pipe(toolFieldNames)
    })
  ]
})
