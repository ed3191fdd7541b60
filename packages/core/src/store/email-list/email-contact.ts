import { Schema } from "effect"

/** The states of a person on the email list (spec: Email contact). */
export const ContactStatus = Schema.Literal("subscribed", "unsubscribed", "bounced", "complained").annotations({
  description:
    "subscribed (gets the store's email), unsubscribed (asked to stop), bounced (their address refuses mail) or complained (marked the store's email as spam)."
})
export type ContactStatus = typeof ContactStatus.Type

/**
 * How a person came onto the list: `api` (the store API), `purchase` (they bought or were given a product); `signup`
 * (a sign-up form) and `import` (a contact import) belong to parts not built yet.
 */
export const ContactSource = Schema.Literal("api", "purchase", "signup", "import").annotations({
  description: "How they joined: api (the store API) or purchase (they bought or were given a product)."
})
export type ContactSource = typeof ContactSource.Type

/** One person on a store's email list, keyed by their normalised email. */
export interface EmailContact {
  readonly id: string
  readonly workspaceId: string
  readonly email: string
  readonly name: string | null
  readonly status: ContactStatus
  readonly source: ContactSource
  readonly createdAt: Date
  readonly updatedAt: Date
  /** When they stopped being subscribed (unsubscribed, bounced or complained); null while subscribed. */
  readonly unsubscribedAt: Date | null
}

/** Whether the person left the mailing side of the list (unsubscribed, bounced, complained): only they come back. */
export const isOptedOut = (contact: EmailContact): boolean => contact.status !== "subscribed"

const iso = Schema.String.annotations({ description: "ISO 8601 timestamp, UTC." })

/** A tag as the email list shows it. */
export const TagRef = Schema.Struct({
  id: Schema.String.annotations({ description: "Tag id (tag_…)." }),
  name: Schema.String
}).annotations({ identifier: "TagRef", description: "A store tag, shared by contacts and customers." })

/** One person on the email list (`GET /email-contacts`, `GET /email-contacts/<email>`). */
export const EmailContactRow = Schema.Struct({
  id: Schema.String.annotations({ description: "Contact id (con_…)." }),
  email: Schema.String.annotations({ description: "The address, trimmed and lower-case." }),
  name: Schema.NullOr(Schema.String),
  status: ContactStatus,
  source: ContactSource,
  tags: Schema.Array(TagRef).annotations({ description: "The person's tags, alphabetical." }),
  created_at: iso,
  updated_at: iso,
  unsubscribed_at: Schema.NullOr(iso).annotations({
    description: "When they stopped being subscribed (unsubscribed, bounced or complained); null while subscribed."
  })
}).annotations({ identifier: "EmailContactRow", description: "One person on the store's email list." })

/** One sign-up in the New Email Signup feed (`GET /email-signups/recent`). */
export const EmailSignupRow = Schema.Struct({
  id: Schema.String.annotations({ description: "The event's id (evt_…), stable across polls." }),
  email: Schema.String,
  name: Schema.NullOr(Schema.String),
  marketing_consent: Schema.Boolean.annotations({ description: "They agreed to the store's email (the form asks)." }),
  source: Schema.String.annotations({ description: "Where they signed up: signup_form (the store's public page)." }),
  created_at: iso
}).annotations({ identifier: "EmailSignupRow", description: "A new address on the email list from a sign-up." })

/** A store tag with how many people on the email list carry it (`GET /email-tags`). */
export const EmailTagRow = Schema.Struct({
  id: Schema.String.annotations({ description: "Tag id (tag_…)." }),
  name: Schema.String,
  contacts: Schema.Int.annotations({ description: "How many people on the email list have it." }),
  created_at: iso
}).annotations({ identifier: "EmailTagRow", description: "A store tag, shared by contacts and customers." })

/** A row of `GET /email-contacts/tagged` (Contact Tagged): one tag put on one contact. */
export const ContactTaggedRow = Schema.Struct({
  id: Schema.String.annotations({ description: "The event's id (evt_…), stable across polls." }),
  email: Schema.String,
  name: Schema.NullOr(Schema.String),
  tag_id: Schema.String,
  tag_name: Schema.String,
  created_at: iso
}).annotations({ identifier: "ContactTaggedRow", description: "A tag put on a person on the email list." })
