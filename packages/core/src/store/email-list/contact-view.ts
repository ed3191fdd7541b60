import type { ContactStatus, EmailContact } from "./email-contact.js"
import type { StoreTag } from "./ports.js"

/** A person on the email list with their tags as they are now (tag names in alphabetical order). */
export interface ContactView extends EmailContact {
  readonly tags: ReadonlyArray<StoreTag>
}

/** How many people the list holds in each state, and in all. */
export interface ContactCounts extends Readonly<Record<ContactStatus, number>> {
  readonly total: number
}

/** What adding a person did: whether they are new on the list, and the tags they did not have before. */
export interface ContactAddition {
  readonly added: boolean
  readonly tagsAdded: ReadonlyArray<StoreTag>
  readonly contact: ContactView
}

/** What taking a person off the list did: off it (`deleted`), or kept because they opted out (`kept`). */
export interface ContactRemoval {
  readonly email: string
  readonly deleted: boolean
  readonly kept: boolean
  readonly status: ContactStatus
}

/**
 * What taking tags off a person did: `removed` (at least one came off), `not_tagged` (they had none of them) or
 * `not_found` (not on the list; nothing changed).
 */
export interface TagRemoval {
  readonly result: "removed" | "not_tagged" | "not_found"
  readonly removed: ReadonlyArray<StoreTag>
}

/** A store tag as listed: when it was made and how many people on the email list carry it. */
export interface ListedTag extends StoreTag {
  readonly createdAt: Date
  readonly contacts: number
}
