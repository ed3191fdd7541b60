import { Layer } from "effect"
import { RoutineRunner } from "./runner.js"
import { Routines } from "./service.js"

/**
 * The Routines services: the records (`Routines`) and the runner of their runs, each bringing the services it builds
 * on (the Custom AI services, `Notes`, `Boards`). Needs the ports.
 */
export const RoutinesLive = Layer.merge(Routines.Default, RoutineRunner.Default)
