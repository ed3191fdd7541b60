import { Effect, Option } from "effect"
import { Ids } from "../shared/ports.js"
import { EmailContactsRepo, StoreSettingsRepo } from "./ports.js"

/**
 * Puts a buyer on the store's email list (spec: "buyers join the list when they buy, unless the seller turns that
 * off"). Sales and free grants share it; runs inside the caller's transaction.
 */
export const makeBuyerJoin = Effect.gen(function* () {
  const contacts = yield* EmailContactsRepo
  const settings = yield* StoreSettingsRepo
  const ids = yield* Ids

  /**
   * Adds the person as a `subscribed` contact with source `purchase` unless the store's `emailListAddBuyers` is off
   * or they are on the list already: someone who unsubscribed, bounced or complained stays as they are.
   */
  return (workspaceId: string, person: { readonly email: string; readonly name: string | null }, now: Date) =>
    Effect.gen(function* () {
      const found = yield* settings.find(workspaceId)
      if (Option.isSome(found) && !found.value.emailListAddBuyers) return
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
    })
})
