/** Workspaces and search across them: the `Workspaces` and `WorkspaceSearch` services and their toolsets. */
export { type ChatRow, ChatsRepo } from "./ports.js"
export { searchTools } from "./search-tools.js"
export { WorkspaceSearch } from "./search.js"
export { type ListInput, Workspaces } from "./service.js"
export { workspaceTools } from "./tools.js"
