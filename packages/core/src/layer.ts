import { Layer } from "effect"
import { Accounts } from "./accounts/service.js"
import { AnalyticsLive } from "./analytics/layer.js"
import { analyticsTools } from "./analytics/tools.js"
import { AutoDmLive } from "./auto-dm/layer.js"
import { autoDmTools } from "./auto-dm/tools.js"
import { Authenticator } from "./auth/authenticator.js"
import { OAuthLive } from "./auth/oauth/layer.js"
import { ApiKeys } from "./auth/service.js"
import { boardTools } from "./boards/board-tools.js"
import { Boards } from "./boards/boards.js"
import { Connections } from "./boards/connections.js"
import { noteTools } from "./boards/note-tools.js"
import { Notes } from "./boards/notes.js"
import { tableTools } from "./boards/table-tools.js"
import { Tables } from "./boards/tables.js"
import { tagTools } from "./boards/tag-tools.js"
import { Tags } from "./boards/tags.js"
import { Trash } from "./boards/trash.js"
import { Credits } from "./credits/service.js"
import { CustomAiLive } from "./custom-ai/layer.js"
import { customAiTools } from "./custom-ai/tools.js"
import { askTools } from "./custom-ai/ask-tools.js"
import { knowledgeTools } from "./custom-ai/knowledge-tools.js"
import { Highlights } from "./highlights/service.js"
import { highlightTools } from "./highlights/tools.js"
import { LibrarySaves } from "./library/service.js"
import { MediaLibrary } from "./media/service.js"
import { MusicCatalog } from "./music/service.js"
import { musicTools } from "./music/tools.js"
import { mediaTools } from "./media/tools.js"
import { Skills } from "./skills/service.js"
import { skillTools } from "./skills/tools.js"
import { libraryTools } from "./library/tools.js"
import { ResearchLive } from "./research/layer.js"
import { researchTools } from "./research/tools.js"
import { RoutinesLive } from "./routines/layer.js"
import { SchedulingLive } from "./scheduling/layer.js"
import { schedulingTools } from "./scheduling/tools.js"
import { routineTools } from "./routines/tools.js"
import { StoreLive } from "./store/layer.js"
import { WebhookSamplesLive } from "./store-api/sample-events.js"
import { storeTools } from "./store/tools.js"
import { ToolRegistry, type Toolset } from "./tools/registry.js"
import { ToolServer } from "./tools/server.js"
import { AskCallbacks } from "./webhooks/ask-callbacks/service.js"
import { InstantHooks } from "./webhooks/instant-hooks/service.js"
import { Webhooks } from "./webhooks/service.js"
import { WorkspaceSearch } from "./workspace/search.js"
import { searchTools } from "./workspace/search-tools.js"
import { Workspaces } from "./workspace/service.js"
import { workspaceTools } from "./workspace/tools.js"

/**
 * Every core service but the tool server. Each service brings the services it builds on (its `dependencies`), and
 * a service several others build on is one layer value, so one build of `CoreLive` makes it once and every
 * dependant shares it. Needs the ports (repositories, `EventLog`, `RateLimiter`, `Ids`, `Secrets`, `Transactor`,
 * `ChatModel`, `PageFetcher`, `DocumentText`; `SocialSources` when research should reach outside sources) and the settings (`AuthSettings`, …) from adapters or test layers.
 */
export const CoreLive = Layer.mergeAll(
  Accounts.Default,
  ApiKeys.Default,
  Authenticator.Default,
  OAuthLive,
  Workspaces.Default,
  WorkspaceSearch.Default,
  Notes.Default,
  Boards.Default,
  Connections.Default,
  Tables.Default,
  Tags.Default,
  Trash.Default,
  LibrarySaves.Default,
  Highlights.Default,
  Credits.Default,
  CustomAiLive,
  RoutinesLive,
  ResearchLive,
  SchedulingLive,
  AnalyticsLive,
  AutoDmLive,
  Skills.Default,
  StoreLive,
  // The samples a test send posts are the store API's events, which webhooks deliver without knowing the store.
  Webhooks.Default.pipe(Layer.provide(WebhookSamplesLive)),
  InstantHooks.Default,
  AskCallbacks.Default,
  MediaLibrary.Default,
  MusicCatalog.Default
)

/**
 * The tool server (and its registry) serving the tools of `toolsets`, e.g. `[workspaceTools, noteTools]`:
 * which areas' tools a server serves is decided where it is composed. Provide it with `CoreLive`, whose
 * services the toolsets are built from: `toolServerLive(toolsets).pipe(Layer.provideMerge(CoreLive))`.
 */
export const toolServerLive = <const Sets extends ReadonlyArray<Toolset<unknown>>>(toolsets: Sets) =>
  ToolServer.Default.pipe(Layer.provideMerge(ToolRegistry.layer(toolsets)))

/**
 * Every area's toolset that exists, for a server that serves them all (`svc` does). `tools/list` orders tools as the
 * service description does, whatever the order here; a server that serves fewer passes its own list to
 * `toolServerLive`.
 */
export const everyToolset = [
  workspaceTools,
  searchTools,
  highlightTools,
  noteTools,
  libraryTools,
  boardTools,
  tableTools,
  tagTools,
  customAiTools,
  knowledgeTools,
  askTools,
  routineTools,
  schedulingTools,
  analyticsTools,
  autoDmTools,
  skillTools,
  storeTools,
  mediaTools,
  researchTools,
  musicTools
] as const
