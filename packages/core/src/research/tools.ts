import { Effect } from "effect"
import { adTools } from "./ad-tools.js"
import { creatorTools } from "./creator-tools.js"
import { listTools } from "./list-tools.js"
import { studyTools } from "./study-tools.js"

/** Every research tool: creators and posts, studies, lists and ads (Social intelligence, and one Media tool). */
export const researchTools = Effect.map(Effect.all([creatorTools, studyTools, listTools, adTools]), (groups) =>
  groups.flat()
)
