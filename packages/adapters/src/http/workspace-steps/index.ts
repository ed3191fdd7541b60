import { Layer } from "effect"
import { CustomAisRoute, customAisOperation } from "./custom-ais.js"
import { ItemsRoutes, itemsOperation, libraryOperation } from "./items.js"
import { LinkRoutes, referenceOperation, saveLinkOperation } from "./links.js"
import { MeRoute, meOperation } from "./me.js"
import { PrepareMediaRoute, prepareMediaOperation } from "./media.js"
import { CreateNoteRoute, createNoteOperation } from "./notes.js"
import { stepsOpenApiRoute } from "./openapi.js"
import type { StepOperation } from "./operation.js"
import { draftOperation, PostRoutes, postsOperation, schedulePostOperation } from "./posts.js"
import { SchedulesRoute, schedulesOperation } from "./schedules.js"

export { CUSTOM_AIS_PATH } from "./custom-ais.js"
export { ITEMS_PATH, LIBRARY_PATH } from "./items.js"
export { REFERENCE_PATH, SAVE_LINK_PATH } from "./links.js"
export { ME_PATH } from "./me.js"
export { PREPARE_MEDIA_PATH } from "./media.js"
export { CREATE_NOTE_PATH } from "./notes.js"
export { makeStepsOpenApi, STEPS_OPENAPI_PATH } from "./openapi.js"
export type { StepOperation } from "./operation.js"
export { DRAFTS_PATH, POSTS_PATH, SCHEDULE_POST_PATH } from "./posts.js"
export { SCHEDULES_PATH } from "./schedules.js"
export { API_PREFIX, SCHEDULING_PREFIX } from "./wire.js"

/** The workspace steps, in the order of the service description's table. */
export const workspaceStepOperations: ReadonlyArray<StepOperation> = [
  meOperation,
  itemsOperation,
  customAisOperation,
  schedulesOperation,
  saveLinkOperation,
  referenceOperation,
  createNoteOperation,
  schedulePostOperation,
  draftOperation,
  prepareMediaOperation,
  libraryOperation,
  postsOperation
]

/**
 * The automation tool's workspace steps under `{api_url}` (`/api`) and `{scheduling_url}` (`/scheduling`), over the
 * same core services as the tools, with the OpenAPI document of every step at `/api/openapi.json`.
 */
export const WorkspaceStepsRoutes = Layer.mergeAll(
  MeRoute,
  ItemsRoutes,
  CustomAisRoute,
  SchedulesRoute,
  LinkRoutes,
  CreateNoteRoute,
  PostRoutes,
  PrepareMediaRoute,
  stepsOpenApiRoute(workspaceStepOperations)
)
