// `npm run generate`: writes the client's generated sources from the live tool registry and the store API contract,
// and the GraphQL schema's SDL (schema.graphql).
import { mkdir, writeFile } from "node:fs/promises"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { Effect } from "effect"
import { generateClientSources } from "./client-codegen.js"
import { generateGraphqlSdl } from "./graphql-sdl.js"

const root = join(dirname(fileURLToPath(import.meta.url)), "..")

const files = [...(await Effect.runPromise(generateClientSources)), await Effect.runPromise(generateGraphqlSdl)]
for (const file of files) {
  await mkdir(dirname(join(root, file.path)), { recursive: true })
  await writeFile(join(root, file.path), file.text)
  console.log(`wrote ${file.path}`)
}
