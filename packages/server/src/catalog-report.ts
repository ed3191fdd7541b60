import { CustomAiPortsNoModel } from "@svc/adapters/ai"
import { DatabaseConfig } from "@svc/adapters/sql"
import { AuthSettings } from "@svc/core/auth"
import { specTools, ToolRegistry } from "@svc/core/tools"
import { Console, Effect, Layer } from "effect"
import { ServedCoreLive } from "./runtime.js"
import { storageLayer } from "./storage.js"

// `npm run catalog`: how much of the service description's tool list this build serves, on a throw-away
// in-memory database.
const program = Effect.gen(function* () {
  const registry = yield* ToolRegistry
  const served = new Set(registry.tools.map((t) => t.entry.name))
  const aliases = specTools.filter((e) => e.aliasOf !== undefined).length
  yield* Console.log(
    `${served.size} / ${specTools.length} tool names served (${specTools.length - aliases} tools and ${aliases} deprecated aliases)`
  )
  const groups = [...new Set(specTools.map((e) => e.group))]
  for (const group of groups) {
    const entries = specTools.filter((e) => e.group === group)
    yield* Console.log(`  ${group}: ${entries.filter((e) => served.has(e.name)).length} / ${entries.length}`)
  }
  yield* Console.log(`\nMissing (${registry.missing.length}):`)
  for (const name of registry.missing) yield* Console.log(`  ${name}`)
})

const layer = ServedCoreLive.pipe(
  Layer.provide(storageLayer(DatabaseConfig.Pglite({ dataDir: undefined }))),
  Layer.provide(AuthSettings.Default),
  // Nothing here asks a model or fetches a page: the ports are there because the core is built whole.
  Layer.provide(CustomAiPortsNoModel)
)

Effect.runPromise(Effect.provide(program, layer)).catch((error: unknown) => {
  console.error(error)
  process.exitCode = 1
})
