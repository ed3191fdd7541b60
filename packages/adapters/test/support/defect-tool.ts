/**
 * The one stand-in the face tests keep: a tool whose handler dies, as a tool does when its storage
 * falls over. It is added to the REAL registry (core's tools plus this one, see `FacesOptions.extraTools`)
 * under a name of the service description core does not implement yet; storage, auth and the rate limiter stay real.
 * It exists only to show that a defect answers -32603 / 500 with a request id and never the cause.
 */
import { defineTool, type SpecTool, type Tool } from "@svc/core/tools"
import { Effect } from "effect"
import { TestApp } from "./app.js"

/** Text in the defect's cause that must never reach a client. */
export const DEFECT_DETAIL = "secret stack detail: connection refused"

/**
 * For `TestApp.layerWith({ extraTools: toolThatDies })`: a tool whose handler dies with `DEFECT_DETAIL`,
 * named after a tool of the service description core does not implement yet, a read-only one while there is one
 * (core grows while tests stay put). It takes that entry's group and write flag, as the registry requires.
 */
export const toolThatDies = (unimplemented: ReadonlyArray<SpecTool>): ReadonlyArray<Tool> => {
  const names = unimplemented.filter((entry) => entry.aliasOf === undefined)
  const home = names.find((entry) => !entry.write) ?? names[0]
  if (home === undefined)
    throw new Error("core implements every tool of the service description; the dying tool has no name")
  return [
    defineTool({
      name: home.name,
      title: "Dying tool",
      group: home.group,
      write: home.write,
      annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: false },
      description: "A tool whose storage has fallen over (test-only).",
      input: {},
      output: {},
      handler: () => Effect.die(new Error(DEFECT_DETAIL))
    })
  ]
}

/** The name the running `TestApp` serves its dying tool under. */
export const dyingToolName = Effect.flatMap(TestApp, ({ extraToolNames: [name] }) =>
  name === undefined ? Effect.dieMessage("this TestApp serves no dying tool") : Effect.succeed(name)
)
