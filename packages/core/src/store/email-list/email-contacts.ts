import { Clock, Effect, Layer, Option, Schema } from "effect"
import { Email } from "../../accounts/schema.js"
import { MailingList, type OptOutReason } from "../../mail/ports.js"
import { Conflict, invalid, NotFound } from "../../shared/errors.js"
import { Ids, Transactor } from "../../shared/ports.js"
import type { StoreCaller } from "../../auth/store-caller.js"
import { makeContactTagger, makeTagResolver, readTagRefs } from "./contact-tagging.js"
import { readEmailAddress } from "./email-address.js"
import type { Page } from "../../shared/paging.js"
import type {
  ContactAddition,
  ContactCounts,
  ContactRemoval,
  ContactView,
  ListedTag,
  TagRemoval
} from "./contact-view.js"
import { type EmailContact, isOptedOut } from "./email-contact.js"
import type { ContactListQuery, TagListQuery } from "./email-list-query.js"
import { EmailContactsRepo, StoreTagsRepo } from "./ports.js"
import { EmailSequencesRepo } from "../sequences/ports.js"

/** The longest contact name. */
export const CONTACT_NAME_MAX = 200

/** A person to add to the list (`POST /email-contacts`), and the tags to put on them. */
export interface AddContactInput {
  readonly email: string
  readonly name?: string | undefined
  /** Tag ids or names; unknown names become tags. */
  readonly tags?: ReadonlyArray<string> | undefined
}

/**
 * Changes to a contact (`PATCH /email-contacts/<email>`): any of these. Refusals name the tag fields as the store
 * API does (`add_tags`, `remove_tags`); the tools rename them to their own.
 */
export interface ContactChanges {
  /** `null` (or empty) clears it. */
  readonly name?: string | null | undefined
  readonly subscribed?: boolean | undefined
  /** Tag ids or names; unknown names become tags. */
  readonly addTags?: ReadonlyArray<string> | undefined
  readonly removeTags?: ReadonlyArray<string> | undefined
}

const NOT_ON_LIST: TagRemoval = { result: "not_found", removed: [] }

/** The store's email list: its contacts, their states (spec: Email contact) and their tags, shared with customers. */
export class StoreEmailList extends Effect.Service<StoreEmailList>()("svc/store/StoreEmailList", {
  effect: Effect.gen(function* () {
    const contacts = yield* EmailContactsRepo
    const tags = yield* StoreTagsRepo
    // Leaving the list or its mail stops the person's sequences at once, in the same transaction (the sequence
    // worker checks again before each step, for any path that does not come through here).
    const sequences = yield* EmailSequencesRepo
    const ids = yield* Ids
    const transactor = yield* Transactor
    const resolveTags = yield* makeTagResolver
    const tagContact = yield* makeContactTagger

    const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

    const readEmail = (text: string) => readEmailAddress("email", text)

    const readName = (name: string | null | undefined) => {
      const trimmed = name?.trim()
      if (trimmed !== undefined && trimmed.length > CONTACT_NAME_MAX) {
        return Effect.fail(invalid("name", `the name is at most ${CONTACT_NAME_MAX} characters`))
      }
      return Effect.succeed(trimmed === undefined ? name : trimmed === "" ? null : trimmed)
    }

    /** The contact with the person's tags as they are now. */
    const viewOf = (contact: EmailContact): Effect.Effect<ContactView> =>
      Effect.map(tags.tagsOf(contact.workspaceId, [contact.email]), (byEmail) => ({
        ...contact,
        tags: byEmail.get(contact.email) ?? []
      }))

    const onList = (email: string, found: Option.Option<EmailContact>) =>
      Option.match(found, {
        onNone: () => Effect.fail(new NotFound({ message: `${email} is not on this store's email list` })),
        onSome: Effect.succeed
      })

    /** How many people the list holds in each state, and in all. */
    const counts = (caller: StoreCaller): Effect.Effect<ContactCounts> =>
      Effect.map(contacts.countByStatus(caller.workspaceId), (byStatus) => ({
        ...byStatus,
        total: byStatus.subscribed + byStatus.unsubscribed + byStatus.bounced + byStatus.complained
      }))

    /** One contact by email; not found when the person is not on the list. */
    const get = (caller: StoreCaller, emailText: string) =>
      Effect.gen(function* () {
        const email = yield* readEmail(emailText)
        const contact = yield* onList(email, yield* contacts.find(caller.workspaceId, email))
        return yield* viewOf(contact)
      })

    /** Paged contacts, newest first; `status` and `tag` (an id, or a name in any case) narrow it. */
    const listPage = (caller: StoreCaller, query: ContactListQuery) =>
      Effect.gen(function* () {
        const found = yield* contacts.listPage(
          caller.workspaceId,
          { status: query.status, tag: query.tag, ...query.created },
          query.page
        )
        const byEmail = yield* tags.tagsOf(
          caller.workspaceId,
          found.rows.map((c) => c.email)
        )
        const page: Page<ContactView> = {
          rows: found.rows.map((c) => ({ ...c, tags: byEmail.get(c.email) ?? [] })),
          next: found.next
        }
        return page
      })

    /**
     * Adds the person as `subscribed` when new and puts the tags on them (unknown names become tags). Someone already
     * on the list keeps their state: a POST never re-subscribes a person who unsubscribed, bounced or complained.
     * No `lead.created`: that event (New Email Signup) is a person signing up with consent on the store's page;
     * the caller adding someone knows it from the answer's `added` (docs/store-api.md, "Who is a lead").
     */
    const add = (caller: StoreCaller, input: AddContactInput) =>
      Effect.gen(function* () {
        const email = yield* readEmail(input.email)
        const name = yield* readName(input.name)
        const refs = yield* readTagRefs("tags", input.tags ?? [])
        const id = yield* ids.make("con_")
        return yield* transactor.withTransaction(
          Effect.gen(function* () {
            const at = yield* now
            const added = yield* contacts.insert({
              id,
              workspaceId: caller.workspaceId,
              email,
              name: name ?? null,
              status: "subscribed",
              source: "api",
              createdAt: at,
              updatedAt: at,
              unsubscribedAt: null
            })
            let contact = yield* onList(email, yield* contacts.lock(caller.workspaceId, email))
            if (!added && name !== undefined && name !== null && name !== contact.name) {
              contact = { ...contact, name, updatedAt: at }
              yield* contacts.update(contact)
            }
            const wanted = yield* resolveTags(caller.workspaceId, "tags", refs, true, at)
            const tagged = yield* tagContact(caller.workspaceId, email, wanted, at, Option.some(contact))
            const addition: ContactAddition = { added, tagsAdded: tagged, contact: yield* viewOf(contact) }
            return addition
          })
        )
      })

    /**
     * Changes a contact: `subscribed: false` unsubscribes a subscribed one; `subscribed: true` on one who
     * unsubscribed, bounced or complained is a conflict and changes nothing. Tags are added, then taken off.
     */
    const update = (caller: StoreCaller, emailText: string, changes: ContactChanges) =>
      Effect.gen(function* () {
        const email = yield* readEmail(emailText)
        const name = yield* readName(changes.name)
        const adding = yield* readTagRefs("add_tags", changes.addTags ?? [])
        const removing = yield* readTagRefs("remove_tags", changes.removeTags ?? [])
        const both = adding.find((ref) => removing.some((r) => r.toLowerCase() === ref.toLowerCase()))
        if (both !== undefined) {
          return yield* invalid("remove_tags", `${both} is in both add_tags and remove_tags; keep it in one`)
        }
        return yield* transactor.withTransaction(
          Effect.gen(function* () {
            const at = yield* now
            let contact = yield* onList(email, yield* contacts.lock(caller.workspaceId, email))
            if (changes.subscribed === true && isOptedOut(contact)) {
              return yield* new Conflict({
                message: `${email} is ${contact.status}; only they can subscribe again, so subscribed: true is refused`
              })
            }
            let changed: EmailContact = contact
            if (name !== undefined && name !== contact.name) changed = { ...changed, name }
            if (changes.subscribed === false && contact.status === "subscribed") {
              changed = { ...changed, status: "unsubscribed", unsubscribedAt: at }
              yield* sequences.stopFor(caller.workspaceId, email, "unsubscribed", at)
            }
            if (changed !== contact) {
              contact = { ...changed, updatedAt: at }
              yield* contacts.update(contact)
            }
            const wanted = yield* resolveTags(caller.workspaceId, "add_tags", adding, true, at)
            yield* tagContact(caller.workspaceId, email, wanted, at, Option.some(contact))
            const unwanted = yield* resolveTags(caller.workspaceId, "remove_tags", removing, false, at)
            yield* tags.removeFromPerson(
              caller.workspaceId,
              email,
              unwanted.map((t) => t.id)
            )
            return yield* viewOf(contact)
          })
        )
      })

    /**
     * Takes a person off the list. Someone who unsubscribed, bounced or complained stays on it (`kept: true`), so a
     * later purchase cannot put them back as subscribed.
     */
    const remove = (caller: StoreCaller, emailText: string) =>
      Effect.gen(function* () {
        const email = yield* readEmail(emailText)
        return yield* transactor.withTransaction(
          Effect.gen(function* () {
            const contact = yield* onList(email, yield* contacts.lock(caller.workspaceId, email))
            const kept = isOptedOut(contact)
            if (!kept) {
              yield* contacts.remove(caller.workspaceId, email)
              yield* sequences.stopFor(caller.workspaceId, email, "removed", yield* now)
            }
            const removal: ContactRemoval = { email, deleted: !kept, kept, status: contact.status }
            return removal
          })
        )
      })

    /** Takes tags off a person on the list; never adds anyone. */
    const removeTags = (caller: StoreCaller, input: { readonly email: string; readonly tags: ReadonlyArray<string> }) =>
      Effect.gen(function* () {
        const email = yield* readEmail(input.email)
        const refs = yield* readTagRefs("tags", input.tags)
        return yield* transactor.withTransaction(
          Effect.gen(function* () {
            const contact = yield* contacts.lock(caller.workspaceId, email)
            if (Option.isNone(contact)) return NOT_ON_LIST
            const at = yield* now
            const unwanted = yield* resolveTags(caller.workspaceId, "tags", refs, false, at)
            const removedIds = new Set(
              yield* tags.removeFromPerson(
                caller.workspaceId,
                email,
                unwanted.map((t) => t.id)
              )
            )
            const removed = unwanted.filter((t) => removedIds.has(t.id))
            const removal: TagRemoval = { result: removed.length > 0 ? "removed" : "not_tagged", removed }
            return removal
          })
        )
      })

    /** The store's tags (shared with customers), newest first, paged like the other lists. */
    const listTags = (caller: StoreCaller, query: TagListQuery): Effect.Effect<Page<ListedTag>> =>
      tags.listPage(caller.workspaceId, query.created, query.page)

    /**
     * Moves a subscribed person to `reason` (an unsubscribe link, a bounce, a complaint); anyone else is left as they
     * are, so a repeat changes nothing and a bounce never overwrites an unsubscribe. Nobody is added.
     */
    const optOut = (workspaceId: string, emailText: string, reason: OptOutReason) =>
      Effect.gen(function* () {
        const email = yield* Effect.option(Schema.decodeUnknown(Email)(emailText))
        if (Option.isNone(email)) return { onList: false, changed: false }
        return yield* transactor.withTransaction(
          Effect.gen(function* () {
            const contact = yield* contacts.lock(workspaceId, email.value)
            if (Option.isNone(contact)) return { onList: false, changed: false }
            if (contact.value.status !== "subscribed") return { onList: true, changed: false }
            const at = yield* now
            yield* contacts.update({ ...contact.value, status: reason, unsubscribedAt: at, updatedAt: at })
            yield* sequences.stopFor(workspaceId, email.value, reason, at)
            return { onList: true, changed: true }
          })
        )
      })

    return { get, counts, listPage, add, update, remove, removeTags, listTags, optOut } as const
  })
}) {}

/** The email list as mail delivery sees it (unsubscribe links, bounces): `StoreEmailList.optOut`. */
export const StoreMailingList = Layer.effect(
  MailingList,
  Effect.map(StoreEmailList, (list) => ({ optOut: list.optOut }))
)
