import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import { Schema } from "effect"
import { Email } from "../../accounts/schema.js"
import { listQueryFields, PageOf, queryChoice, strict } from "../../shared/list-wire.js"
import {
  ContactStatus,
  ContactTaggedRow,
  EmailContactRow,
  EmailSignupRow,
  EmailTagRow,
  TagRef
} from "./email-contact.js"
import { CONTACT_NAME_MAX } from "./email-contacts.js"
import { TAG_NAME_MAX, TAGS_PER_CALL_MAX } from "./tag-rules.js"

const ok = Schema.Literal(true)
const emailPath = Schema.Struct({ email: Email })
const contactAnswer = Schema.Struct({ ok, contact: EmailContactRow })

const tagRef = Schema.Trim.pipe(
  Schema.minLength(1, { message: () => "a tag is a tag id or a name of at least 1 character" }),
  Schema.maxLength(TAG_NAME_MAX, { message: () => `a tag name is at most ${TAG_NAME_MAX} characters` })
)
const tagRefs = (description: string) =>
  Schema.Array(tagRef)
    .pipe(Schema.maxItems(TAGS_PER_CALL_MAX, { message: () => `give at most ${TAGS_PER_CALL_MAX} tags` }))
    .annotations({ description: `${description} Tag ids (tag_…) or names (any case), at most ${TAGS_PER_CALL_MAX}.` })
const name = Schema.String.pipe(Schema.maxLength(CONTACT_NAME_MAX)).annotations({
  description: `The person's name, up to ${CONTACT_NAME_MAX} characters.`
})

/**
 * The email list on the store API: contacts and their states, the store's tags (shared with customers), and the
 * Contact Tagged feed. Email sequences belong here too once they exist.
 */
export const EmailListApiGroup = HttpApiGroup.make("emailList")
  .add(
    HttpApiEndpoint.get("list", "/email-contacts")
      .setUrlParams(
        Schema.Struct({
          ...listQueryFields,
          status: Schema.optional(
            queryChoice(ContactStatus.literals, "status must be subscribed, unsubscribed, bounced or complained")
          ).annotations({
            description: "subscribed, unsubscribed, bounced or complained."
          }),
          tag: Schema.optional(Schema.String).annotations({ description: "A tag's id (tag_…) or name (any case)." })
        }).annotations(strict)
      )
      .addSuccess(PageOf(EmailContactRow))
  )
  .add(
    HttpApiEndpoint.post("add", "/email-contacts")
      .setPayload(
        Schema.Struct({
          email: Email,
          tags: Schema.optional(tagRefs("Tags to add; unknown names become new tags.")),
          name: Schema.optional(name)
        }).annotations(strict)
      )
      .addSuccess(
        Schema.Struct({
          ok,
          added: Schema.Boolean.annotations({
            description: "true when the person was not on the list and now is, subscribed."
          }),
          tags_added: Schema.Array(TagRef).annotations({ description: "The tags the person did not have before." }),
          contact: EmailContactRow
        })
      )
  )
  .add(
    HttpApiEndpoint.post("removeTags", "/email-contacts/remove-tags")
      .setPayload(Schema.Struct({ email: Email, tags: tagRefs("Tags to take off.") }).annotations(strict))
      .addSuccess(
        Schema.Struct({
          ok,
          result: Schema.Literal("removed", "not_tagged", "not_found").annotations({
            description:
              "removed (at least one tag came off), not_tagged (the person had none of them) or not_found (not on the list; nothing changed)."
          }),
          removed: Schema.Array(TagRef).annotations({ description: "The tags taken off." })
        })
      )
  )
  .add(
    HttpApiEndpoint.get("tagged", "/email-contacts/tagged")
      .setUrlParams(
        Schema.Struct({
          tag: Schema.optional(Schema.String).annotations({ description: "Only this tag: its id (tag_…) or name." })
        }).annotations(strict)
      )
      .addSuccess(Schema.Struct({ ok, contacts: Schema.Array(ContactTaggedRow) }))
  )
  .add(
    HttpApiEndpoint.get("signups", "/email-signups/recent").addSuccess(
      Schema.Struct({ ok, signups: Schema.Array(EmailSignupRow) })
    )
  )
  .add(HttpApiEndpoint.get("get", "/email-contacts/:email").setPath(emailPath).addSuccess(contactAnswer))
  .add(
    HttpApiEndpoint.patch("update", "/email-contacts/:email")
      .setPath(emailPath)
      .setPayload(
        Schema.Struct({
          name: Schema.optional(Schema.NullOr(name)).annotations({ description: 'null or "" clears it.' }),
          subscribed: Schema.optional(Schema.Boolean).annotations({
            description:
              "false unsubscribes a subscribed contact; true for one who unsubscribed, bounced or complained answers 409."
          }),
          add_tags: Schema.optional(tagRefs("Tags to add; unknown names become new tags.")),
          remove_tags: Schema.optional(tagRefs("Tags to take off."))
        }).annotations(strict)
      )
      .addSuccess(contactAnswer)
  )
  .add(
    HttpApiEndpoint.del("remove", "/email-contacts/:email")
      .setPath(emailPath)
      .addSuccess(
        Schema.Struct({
          ok,
          email: Schema.String,
          deleted: Schema.Boolean.annotations({ description: "true when the person is off the list now." }),
          kept: Schema.Boolean.annotations({
            description:
              "true when the person unsubscribed, bounced or complained: they stay on the list, so a later purchase cannot email them."
          }),
          status: ContactStatus
        })
      )
  )
  .add(
    HttpApiEndpoint.get("tags", "/email-tags")
      .setUrlParams(Schema.Struct(listQueryFields).annotations(strict))
      .addSuccess(PageOf(EmailTagRow))
  )
