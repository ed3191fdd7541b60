import { Effect, Layer } from "effect"
import { boardTools } from "../boards/tools.js"
import { workspaceTools } from "../workspace/tools.js"
import { makeToolRegistry, ToolRegistry } from "./registry.js"

/** Every implemented tool, gathered from the areas. */
export const allTools = Effect.map(Effect.all([workspaceTools, boardTools]), (groups) => groups.flat())

/** The registry of every implemented tool, built once. */
export const ToolRegistryLive = Layer.effect(ToolRegistry, Effect.map(allTools, makeToolRegistry))
