import { Effect, Option } from "effect"
import { Ids } from "../../shared/ports.js"
import { EmailContactsRepo } from "../email-list/ports.js"
import { StoreSettingsRepo } from "../catalog/ports.js"
import { makeSequenceEnroller } from "../sequences/enrolment.js"

/**
 * Puts a buyer on the store's email list (spec: "buyers join the list when they buy, unless the seller turns that
 * off") and starts the sequences their products start. Sales and free grants share it; runs inside the caller's
 * transaction.
 */
export const makeBuyerJoin = Effect.gen(function* () {
  const contacts = yield* EmailContactsRepo
  const settings = yield* StoreSettingsRepo
  const ids = yield* Ids
  const enrol = yield* makeSequenceEnroller

  /**
   * Adds the person as a `subscribed` contact with source `purchase` unless the store's `emailListAddBuyers` is off
   * or they are on the list already: someone who unsubscribed, bounced or complained stays as they are. Then a
   * subscribed contact enters the sequences `productIds` start; a buyer who is not on the list (the setting is off)
   * or not subscribed enters none.
   */
  return (
    workspaceId: string,
    person: { readonly email: string; readonly name: string | null },
    now: Date,
    productIds: ReadonlyArray<string> = []
  ) =>
    Effect.gen(function* () {
      const found = yield* settings.find(workspaceId)
      if (Option.isNone(found) || found.value.emailListAddBuyers) {
        yield* contacts.insert({
          id: yield* ids.make("con_"),
          workspaceId,
          email: person.email,
          name: person.name,
          status: "subscribed",
          source: "purchase",
          createdAt: now,
          updatedAt: now,
          unsubscribedAt: null
        })
      }
      if (productIds.length === 0) return
      const contact = yield* contacts.find(workspaceId, person.email)
      if (Option.isSome(contact)) yield* enrol(contact.value, { productIds }, now)
    })
})
