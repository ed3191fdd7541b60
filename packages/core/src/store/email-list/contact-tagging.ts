import { Effect, Option } from "effect"
import { makeEventRecorder } from "../../events/service.js"
import { invalid } from "../../shared/errors.js"
import { Ids } from "../../shared/ports.js"
import type { EmailContact } from "./email-contact.js"
import { EmailContactsRepo, type StoreTag, StoreTagsRepo } from "./ports.js"
import { makeSequenceEnroller } from "../sequences/enrolment.js"
import { TAG_NAME_MAX, TAGS_PER_CALL_MAX } from "./tag-rules.js"

/** A tag id as the service makes them; a reference shaped so is never taken for a new tag's name. */
const TAG_ID = /^tag_/

/**
 * Reads a list of tag references (ids or names): trimmed, once each (names in any case), each 1 to
 * {@link TAG_NAME_MAX} characters, at most {@link TAGS_PER_CALL_MAX}. Fails naming `field`.
 */
export const readTagRefs = (field: string, refs: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const kept = new Map<string, string>()
    for (const [index, raw] of refs.entries()) {
      const ref = raw.trim()
      if (ref.length === 0 || ref.length > TAG_NAME_MAX) {
        return yield* invalid(`${field}.${index}`, `each tag is a tag id or a name of 1 to ${TAG_NAME_MAX} characters`)
      }
      if (!kept.has(ref.toLowerCase())) kept.set(ref.toLowerCase(), ref)
    }
    if (kept.size > TAGS_PER_CALL_MAX) return yield* invalid(field, `give at most ${TAGS_PER_CALL_MAX} tags`)
    return [...kept.values()]
  })

/** Finds tags by id or name (any case); with `create`, unknown names become new tags. */
export const makeTagResolver = Effect.gen(function* () {
  const repo = yield* StoreTagsRepo
  const ids = yield* Ids

  /**
   * The store's tags these references name, in their order, once each. An id wins over a name. Without `create`
   * unknown references are left out; with it, unknown names become tags and an unknown id fails naming `field`.
   */
  return (workspaceId: string, field: string, refs: ReadonlyArray<string>, create: boolean, now: Date) =>
    Effect.gen(function* () {
      const known = refs.length === 0 ? [] : yield* repo.resolve(workspaceId, refs)
      const byId = new Map(known.map((t) => [t.id, t]))
      const byName = new Map(known.map((t) => [t.name.toLowerCase(), t]))
      const found = refs.map((ref) => byId.get(ref) ?? byName.get(ref.toLowerCase()))
      const missing = refs.flatMap((ref, index) => (found[index] === undefined ? [{ ref, index }] : []))
      let made: ReadonlyArray<StoreTag> = []
      if (create && missing.length > 0) {
        const unknownId = missing.find((m) => TAG_ID.test(m.ref))
        if (unknownId !== undefined) {
          return yield* invalid(`${field}.${unknownId.index}`, `no tag ${unknownId.ref} in this store`)
        }
        const fresh = yield* Effect.forEach(missing, (m) => Effect.map(ids.make("tag_"), (id) => ({ id, name: m.ref })))
        made = yield* repo.ensure(workspaceId, fresh, now)
      }
      const madeByName = new Map(made.map((t) => [t.name.toLowerCase(), t]))
      const tags = refs.flatMap((ref, index) => found[index] ?? madeByName.get(ref.toLowerCase()) ?? [])
      return [...new Map(tags.map((t) => [t.id, t])).values()]
    })
})

/**
 * Puts tags on a person, and for each tag newly on a person who is on the email list records `contact.tagged`
 * (Contact Tagged) and starts the sequences the tag starts (subscribed contacts only), in the same transaction.
 * Every way of tagging goes through it, so the feed, the webhooks and the sequences see each tag however it was
 * added. Runs inside the caller's transaction.
 */
export const makeContactTagger = Effect.gen(function* () {
  const repo = yield* StoreTagsRepo
  const contacts = yield* EmailContactsRepo
  const recordEvent = yield* makeEventRecorder
  const enrol = yield* makeSequenceEnroller

  /** Answers the tags the person did not have before; `contact` saves a read when the caller holds it. */
  return (
    workspaceId: string,
    email: string,
    tags: ReadonlyArray<StoreTag>,
    now: Date,
    contact?: Option.Option<EmailContact>
  ) =>
    Effect.gen(function* () {
      if (tags.length === 0) return []
      const addedIds = new Set(
        yield* repo.addToPerson(
          workspaceId,
          email,
          tags.map((t) => t.id),
          now
        )
      )
      const added = tags.filter((t) => addedIds.has(t.id))
      if (added.length === 0) return added
      const onList = contact ?? (yield* contacts.find(workspaceId, email))
      if (Option.isSome(onList)) {
        for (const tag of added) {
          yield* recordEvent(workspaceId, "contact.tagged", {
            email,
            name: onList.value.name,
            tag_id: tag.id,
            tag_name: tag.name,
            created_at: now.toISOString()
          })
        }
        yield* enrol(onList.value, { tagIds: added.map((t) => t.id) }, now)
      }
      return added
    })
})
