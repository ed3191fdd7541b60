import { Schema } from "effect"
import { Timestamp } from "../shared/time.js"

// Workspaces and stores belong to accounts: an account opens its first workspace and store at sign-up, and auth and
// the store API find them from a key. Here they sit below every area that works inside a workspace.

/** A store's handle: the end of its web address. */
export const StoreHandle = Schema.String.pipe(
  Schema.pattern(/^[a-z0-9](?:[a-z0-9-]{1,38}[a-z0-9])$/, {
    message: () => "a handle is 3 to 40 lower-case letters, digits or dashes, not starting or ending with a dash"
  })
)

/** The store that sells from a workspace; one per workspace. */
export class Store extends Schema.Class<Store>("Store")({
  id: Schema.String,
  workspaceId: Schema.String,
  handle: Schema.String.annotations({ description: "The store's handle, the end of its web address." }),
  name: Schema.String.annotations({ description: "The store's display name." })
}) {}

/** A workspace: the library of one creator business. */
export class Workspace extends Schema.Class<Workspace>("Workspace")({
  id: Schema.String.annotations({ description: "Workspace id (ws_…); pass it as workspaceId to any tool." }),
  name: Schema.String.annotations({ description: "Workspace name." }),
  ownerId: Schema.String.annotations({ description: "Account id of the owner." }),
  isDefault: Schema.Boolean.annotations({ description: "True for the owner's default workspace." }),
  createdAt: Timestamp
}) {}
