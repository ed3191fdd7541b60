// `npm run generate`: writes the client's generated sources from the live tool registry and the store API contract,
// the GraphQL schema's SDL (schema.graphql) and the README's toolset table.
import { mkdir, readFile, writeFile } from "node:fs/promises"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { Effect } from "effect"
import { generateClientSources } from "./client-codegen.js"
import { generateGraphqlSdl } from "./graphql-sdl.js"
import { generateToolsetTable, README_PATH, withToolsetTable } from "./toolset-table.js"

const root = join(dirname(fileURLToPath(import.meta.url)), "..")

const files = [...(await Effect.runPromise(generateClientSources)), await Effect.runPromise(generateGraphqlSdl)]
for (const file of files) {
  await mkdir(dirname(join(root, file.path)), { recursive: true })
  await writeFile(join(root, file.path), file.text)
  console.log(`wrote ${file.path}`)
}

const readme = join(root, README_PATH)
await writeFile(readme, withToolsetTable(await readFile(readme, "utf8"), await Effect.runPromise(generateToolsetTable)))
console.log(`wrote the toolset table of ${README_PATH}`)
