import { Layer } from "effect"
import { Accounts } from "./accounts/service.js"
import { Authenticator } from "./auth/authenticator.js"
import { ApiKeys } from "./auth/service.js"
import { Notes } from "./boards/notes.js"
import { ToolRegistryLive } from "./tools/all.js"
import { ToolServer } from "./tools/server.js"
import { Library } from "./workspace/service.js"

const areas = Layer.mergeAll(Accounts.Default, ApiKeys.Default, Notes.Default, Library.Default)

/**
 * Every core service, wired together. Needs the ports (repositories, `EventLog`, `RateLimiter`,
 * `Ids`, `Secrets`, `Transactor`) and `AuthSettings` from adapters or test layers.
 */
export const CoreLive = Layer.mergeAll(ToolServer.Default, Authenticator.Default).pipe(
  Layer.provideMerge(ToolRegistryLive),
  Layer.provideMerge(areas)
)
