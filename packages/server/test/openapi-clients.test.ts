/**
 * A client generated from the server's own OpenAPI documents, as a team that does not use `@svc/client` makes one:
 * types from both live documents with `openapi-typescript`, calls through `openapi-fetch`. The program must
 * type-check under `--strict` with the parameters typed as what they mean (`limit` a number), a wrong one must
 * not, and the program must work against the running server.
 */
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { afterAll, describe, expect, it } from "@effect/vitest"
import openapiTS, { astToString, type OpenAPI3 } from "openapi-typescript"
import ts from "typescript"
import { engineName, useFreshDatabase } from "./support/environment.js"
import { run } from "./support/scratch-project.js"
import { type RunningServer, startServer } from "./support/server-process.js"
import { publishProduct, sell, setUpSeller, storeApi } from "./support/webhooks.js"

const root = resolve(import.meta.dirname, "../../..")
const currentEnv = useFreshDatabase({ SVC_BOOTSTRAP: "false" })

// A project outside the repository that sees the repository's installed packages, as an installed one would.
const project = mkdtempSync(join(tmpdir(), "svc-openapi-client-"))
symlinkSync(join(root, "node_modules"), join(project, "node_modules"), "dir")
writeFileSync(join(project, "package.json"), JSON.stringify({ type: "module", private: true }))
afterAll(() => rmSync(project, { recursive: true, force: true }), 300_000)

const SALES = 7

/** The program a team would write: create a note through the tools, then read every sale five at a time. */
const program = (baseUrl: string, token: string, limit: string) => `import createClient from "openapi-fetch"
import type { paths as StorePaths } from "./store-api.js"
import type { paths as ToolPaths } from "./tools-api.js"

const headers = { Authorization: "Bearer ${token}" }
const tools = createClient<ToolPaths>({ baseUrl: "${baseUrl}", headers })
const store = createClient<StorePaths>({ baseUrl: "${baseUrl}", headers })

const created = await tools.POST("/v1/tools/svc_create_note", { body: { markdown: "# Generated client" } })
if (created.data === undefined) throw new Error(JSON.stringify(created.error))
const title: string = created.data.note.title

const pages: Array<Array<string>> = []
let cursor: string | undefined
for (;;) {
  const page = await store.GET("/store-app/v1/sales", {
    params: { query: { limit: ${limit}, status: "paid", ...(cursor === undefined ? {} : { starting_after: cursor }) } }
  })
  if (page.data === undefined) throw new Error(JSON.stringify(page.error))
  pages.push(page.data.data.map((sale) => sale.buyer_email))
  if (!page.data.has_more) break
  cursor = page.data.next_cursor
}
console.log(JSON.stringify({ title, pages }))
`

/** The compiler's complaints about one file of the project, under `--strict`. */
const typeErrors = (file: string): Array<string> => {
  const compiled = ts.createProgram([join(project, file)], {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    lib: ["lib.es2022.d.ts", "lib.dom.d.ts"],
    types: []
  })
  return ts
    .getPreEmitDiagnostics(compiled)
    .map((d) => `${d.file?.fileName ?? ""}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`)
}

describe(`a client generated from the OpenAPI documents, on ${engineName}`, { timeout: 300_000 }, () => {
  it("types the calls from both documents, refuses a wrong parameter, and works against the server", async () => {
    const seller = await setUpSeller(currentEnv())
    const token = seller.token
    const server: RunningServer = await startServer(currentEnv())
    try {
      const call = storeApi(server.baseUrl, token)
      const product = await publishProduct(call, seller.customAiId)
      for (let i = 0; i < SALES; i++) await sell(call, product, i)

      for (const [file, path] of [
        ["tools-api.ts", "/v1/openapi.json"],
        ["store-api.ts", "/store-app/v1/openapi.json"]
      ] as const) {
        const document = (await (await fetch(`${server.baseUrl}${path}`)).json()) as OpenAPI3
        writeFileSync(join(project, file), astToString(await openapiTS(document, { silent: true })))
      }
      writeFileSync(join(project, "program.ts"), program(server.baseUrl, token, "5"))
      writeFileSync(join(project, "wrong.ts"), program(server.baseUrl, token, '"5"'))

      expect(typeErrors("program.ts")).toEqual([])
      const wrong = typeErrors("wrong.ts")
      expect(wrong).toHaveLength(1)
      expect(wrong[0]).toMatch(/wrong\.ts: Type 'string' is not assignable to type 'number'/)

      const ran = await run(process.execPath, [join(root, "node_modules/tsx/dist/cli.mjs"), "program.ts"], project)
      expect(ran.stderr).toBe("")
      expect(ran.code).toBe(0)
      const answer = JSON.parse(ran.stdout) as { title: string; pages: Array<Array<string>> }
      expect(answer.title).toBe("Generated client")
      expect(answer.pages.map((page) => page.length)).toEqual([5, 2])
      // Newest first, every sale once.
      expect(answer.pages.flat()).toEqual(Array.from({ length: SALES }, (_, i) => `buyer${SALES - 1 - i}@example.com`))
    } finally {
      await server.stop()
    }
  })
})
