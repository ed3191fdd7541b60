import { Effect, Layer } from "effect"
import { boardCanvasTools } from "../boards/board-tools.js"
import { tableTools } from "../boards/table-tools.js"
import { tagTools } from "../boards/tag-tools.js"
import { boardTools } from "../boards/tools.js"
import { highlightTools } from "../highlights/tools.js"
import { libraryTools } from "../library/tools.js"
import { searchTools } from "../workspace/search-tools.js"
import { workspaceTools } from "../workspace/tools.js"
import { makeToolRegistry, ToolRegistry } from "./registry.js"

/** Every implemented tool, gathered from the areas. */
export const allTools = Effect.map(
  Effect.all([
    workspaceTools,
    searchTools,
    highlightTools,
    boardTools,
    libraryTools,
    boardCanvasTools,
    tableTools,
    tagTools
  ]),
  (groups) => groups.flat()
)

/** The registry of every implemented tool, built once. */
export const ToolRegistryLive = Layer.effect(ToolRegistry, Effect.map(allTools, makeToolRegistry))
