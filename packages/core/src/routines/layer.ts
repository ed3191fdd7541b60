import { Layer } from "effect"
import { RoutineRunner } from "./runner.js"
import { Routines } from "./service.js"

/**
 * The Routines services: the records (`Routines`) and the runner of their runs. Needs the Custom AI services
 * (`CustomAis`, `CustomAiChats`, `CustomAiAsking`), `Notes`, `Boards` and the ports.
 */
export const RoutinesLive = Layer.merge(Routines.Default, RoutineRunner.Default)
