import { Clock, Effect } from "effect"
import { invalid } from "../../shared/errors.js"
import { Ids, Transactor } from "../../shared/ports.js"
import { makeContactTagger } from "./contact-tagging.js"
import { readEmailAddress } from "./email-address.js"
import { StoreTagsRepo } from "./ports.js"
import { TAG_NAME_MAX, TAGS_PER_CALL_MAX } from "./tag-rules.js"

export { TAG_NAME_MAX, TAGS_PER_CALL_MAX } from "./tag-rules.js"

/** Tags on the store's people (by email), which `GET /customers?tag=` filters on. */
export class StoreTagging extends Effect.Service<StoreTagging>()("svc/store/StoreTagging", {
  effect: Effect.gen(function* () {
    const repo = yield* StoreTagsRepo
    const ids = yield* Ids
    const transactor = yield* Transactor
    const tagContact = yield* makeContactTagger

    /** Tags a person with these names (unknown names become new tags); answers all of the person's tags. */
    const tagPerson = (workspaceId: string, emailText: string, names: ReadonlyArray<string>) =>
      Effect.gen(function* () {
        const email = yield* readEmailAddress(
          "email",
          emailText,
          "the person's email must be an address like name@example.com"
        )
        const wanted = new Map<string, string>()
        for (const raw of names) {
          const name = raw.trim()
          if (name.length === 0 || name.length > TAG_NAME_MAX) {
            return yield* invalid("tags", `each tag name must be 1 to ${TAG_NAME_MAX} characters`)
          }
          if (!wanted.has(name.toLowerCase())) wanted.set(name.toLowerCase(), name)
        }
        if (wanted.size === 0 || wanted.size > TAGS_PER_CALL_MAX) {
          return yield* invalid("tags", `give 1 to ${TAGS_PER_CALL_MAX} tag names`)
        }
        const fresh = yield* Effect.forEach([...wanted.values()], (name) =>
          Effect.map(ids.make("tag_"), (id) => ({ id, name }))
        )
        return yield* transactor.withTransaction(
          Effect.gen(function* () {
            const now = new Date(yield* Clock.currentTimeMillis)
            const tags = yield* repo.ensure(workspaceId, fresh, now)
            yield* tagContact(workspaceId, email, tags, now)
            const all = yield* repo.tagsOf(workspaceId, [email])
            return { email, tags: all.get(email) ?? [] }
          })
        )
      })

    return { tagPerson } as const
  })
}) {}
