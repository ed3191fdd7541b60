/**
 * The pure Effect core of svc, one namespace per area (`Accounts.Accounts`, `Tools.ToolServer`, `Boards.noteTools`,
 * …). Each namespace is also its own subpath (`@svc/core/accounts`, `@svc/core/tools`, …), which loads that area only.
 */
export * as Accounts from "./accounts/index.js"
export * as Auth from "./auth/index.js"
export * as Boards from "./boards/index.js"
export * as Credits from "./credits/index.js"
export * as CustomAi from "./custom-ai/index.js"
export * as Events from "./events/index.js"
export * as Highlights from "./highlights/index.js"
export * as Items from "./items/index.js"
export * as Library from "./library/index.js"
export * as Limits from "./limits/index.js"
export * as Mail from "./mail/index.js"
export * as Media from "./media/index.js"
export * as Routines from "./routines/index.js"
export * as Scheduling from "./scheduling/index.js"
export * as Shared from "./shared/index.js"
export * as Skills from "./skills/index.js"
export * as Store from "./store/index.js"
export * as StoreApi from "./store-api/index.js"
export * as Tools from "./tools/index.js"
export * as Webhooks from "./webhooks/index.js"
export * as Workspace from "./workspace/index.js"
// Flat, not in a namespace: the two layers that compose every area belong to none of them.
export { CoreLive, everyToolset, toolServerLive } from "./layer.js"
