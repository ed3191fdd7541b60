import { Layer } from "effect"
import { ResearchLists } from "./lists.js"
import { Research } from "./service.js"
import { ResearchStudies } from "./studies.js"

/**
 * The research services: questions to sources and the library (`Research`), lists (`ResearchLists`) and studies
 * over many posts (`ResearchStudies`). Reads `SocialSources` (the outside sources) when provided, and answers from the
 * workspace's library alone without it. Needs the ports `ResearchLibraryRepo`, `ResearchListsRepo`, `ResearchCache`, `Ids`, `Transactor`.
 */
export const ResearchLive = Layer.mergeAll(ResearchStudies.Default, Research.Default, ResearchLists.Default).pipe(
  Layer.provideMerge(Layer.merge(Research.Default, ResearchLists.Default))
)
