import { Layer } from "effect"
import { OutboxRoutes } from "./outbox.js"
import { UnsubscribeRoutes } from "./unsubscribe.js"

export { MailDelivery } from "./outbox.js"
export { UNSUBSCRIBE_PATH } from "./unsubscribe.js"

/** The pages of mail: the unsubscribe links (`/u/<token>`) and the owner's outbox (`/settings/outbox`). */
export const MailRoutes = Layer.mergeAll(UnsubscribeRoutes, OutboxRoutes)
