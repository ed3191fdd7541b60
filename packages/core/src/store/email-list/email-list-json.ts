import type { Page, PageRequest } from "../../shared/paging.js"
import { creationKey, pageAnswer } from "../../shared/list-query.js"
import type { ContactAddition, ContactRemoval, ContactView, ListedTag, TagRemoval } from "./contact-view.js"
import type { EmailContactRow, EmailTagRow } from "./email-contact.js"
import type { StoreTag } from "./ports.js"

// The store API's wire form of the email list's values (snake_case, ISO times), which the store tools answer too.

/** A tag as a contact and the tag answers show it. */
export const tagRefJson = (tag: StoreTag) => ({ id: tag.id, name: tag.name })

/** A contact as the store API answers it, with the person's tags. */
export const contactJson = (contact: ContactView): typeof EmailContactRow.Type => ({
  id: contact.id,
  email: contact.email,
  name: contact.name,
  status: contact.status,
  source: contact.source,
  tags: contact.tags.map(tagRefJson),
  created_at: contact.createdAt.toISOString(),
  updated_at: contact.updatedAt.toISOString(),
  unsubscribed_at: contact.unsubscribedAt?.toISOString() ?? null
})

/** `GET`/`PATCH /email-contacts/<email>`'s answer. */
export const contactApiAnswer = (contact: ContactView) => ({ ok: true as const, contact: contactJson(contact) })

/** `POST /email-contacts`' answer. */
export const contactAdditionApiAnswer = (addition: ContactAddition) => ({
  ok: true as const,
  added: addition.added,
  tags_added: addition.tagsAdded.map(tagRefJson),
  contact: contactJson(addition.contact)
})

/** `DELETE /email-contacts/<email>`'s answer. */
export const contactRemovalApiAnswer = (removal: ContactRemoval) => ({
  ok: true as const,
  email: removal.email,
  deleted: removal.deleted,
  kept: removal.kept,
  status: removal.status
})

/** `POST /email-contacts/remove-tags`' answer. */
export const tagRemovalApiAnswer = (removal: TagRemoval) => ({
  ok: true as const,
  result: removal.result,
  removed: removal.removed.map(tagRefJson)
})

/** A page of contacts, as `GET /email-contacts` answers it. */
export const contactPageJson = (page: Page<ContactView>, request: PageRequest) =>
  pageAnswer(page, contactJson, request, creationKey)

/** A store tag with how many people on the email list carry it. */
export const tagJson = (tag: ListedTag): typeof EmailTagRow.Type => ({
  id: tag.id,
  name: tag.name,
  contacts: tag.contacts,
  created_at: tag.createdAt.toISOString()
})

/** A page of the store's tags, as `GET /email-tags` answers it. */
export const tagPageJson = (page: Page<ListedTag>, request: PageRequest) =>
  pageAnswer(page, tagJson, request, creationKey)
