import type { Plugin } from "graphql-yoga"
import type { GraphqlSettingsShape } from "./settings.js"

/** The abuse limits of the GraphQL face, as yoga plugins (filled in by the limits work). */
export const guardPlugins = (_settings: GraphqlSettingsShape): ReadonlyArray<Plugin> => []
