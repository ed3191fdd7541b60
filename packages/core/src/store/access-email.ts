import { Effect } from "effect"
import { Mailer } from "../mail/ports.js"
import type { Product } from "./product.js"

/** Why a person is sent their access email. */
export type AccessOccasion = "bought" | "added" | "again"

const opening: Record<AccessOccasion, (title: string) => string> = {
  bought: (title) => `Thank you for your purchase. You now have access to ${title}.`,
  added: (title) => `You have been given access to ${title}.`,
  again: (title) => `Here is your access to ${title} again.`
}

/**
 * The one access email every face sends (a sale, a free grant, an import, a resend): what the person now has.
 * Call it inside the change's transaction, as `Mailer` asks.
 */
export const makeAccessEmail = Effect.gen(function* () {
  const mailer = yield* Mailer

  /** Sends `to` the access email for `product`. */
  const send = (product: Product, to: string, occasion: AccessOccasion) =>
    mailer.send({
      workspaceId: product.workspaceId,
      kind: "store.access",
      to,
      subject: `Your access to ${product.fields.title}`,
      text: opening[occasion](product.fields.title)
    })

  return { send } as const
})
