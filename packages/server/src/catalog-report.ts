import { DatabaseConfig } from "@svc/adapters"
import { AuthSettings, CoreLive, catalog, ToolRegistry } from "@svc/core"
import { Console, Effect, Layer } from "effect"
import { storageLayer } from "./storage.js"

// `npm run catalog`: how much of the published catalog this build serves, on a throw-away in-memory database.
const program = Effect.gen(function* () {
  const registry = yield* ToolRegistry
  const served = new Set(registry.tools.map((t) => t.entry.name))
  yield* Console.log(
    `${served.size} / ${catalog.length} catalog entries served (${catalog.length - 3} tools and 3 deprecated aliases)`
  )
  const groups = [...new Set(catalog.map((e) => e.group))]
  for (const group of groups) {
    const entries = catalog.filter((e) => e.group === group)
    yield* Console.log(`  ${group}: ${entries.filter((e) => served.has(e.name)).length} / ${entries.length}`)
  }
  yield* Console.log(`\nMissing (${registry.missing.length}):`)
  for (const name of registry.missing) yield* Console.log(`  ${name}`)
})

const layer = CoreLive.pipe(
  Layer.provide(storageLayer(DatabaseConfig.Pglite({ dataDir: undefined }))),
  Layer.provide(AuthSettings.Default)
)

Effect.runPromise(Effect.provide(program, layer)).catch((error: unknown) => {
  console.error(error)
  process.exitCode = 1
})
