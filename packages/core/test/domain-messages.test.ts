/// <reference types="node" />
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "@effect/vitest"

const src = fileURLToPath(new URL("../src", import.meta.url))

// The store's and the webhooks' use cases serve four faces; a refusal that named one face's route ("GET /products
// lists them") would send a tool's caller to an API it may not have. They name a next step (`next`), which each
// face says in its own words. Tool modules (`*tools.ts`, `tool-support.ts`) are a face and may name routes.
const areas = ["store", "webhooks"]
const isFace = (file: string) => /tools?\.ts$|tool-support\.ts$/.test(file)

const ROUTE = /\b(?:GET|POST|PATCH|PUT|DELETE) \//
const REFUSAL = /new (?:NotFound|Conflict|BadListRequest|InvalidInput|FieldProblem)\(|\binvalid\(|\brejected\(/g

/** The text of the call that starts at `start` (just after its opening parenthesis), to its closing one. */
const callText = (text: string, start: number): string => {
  let depth = 1
  let at = start
  while (depth > 0 && at < text.length) {
    const char = text[at]
    if (char === "(") depth += 1
    if (char === ")") depth -= 1
    at += 1
  }
  return text.slice(start, at)
}

/** Each refusal of `file` whose text names a route, as `file: text`. */
const routesIn = (file: string): Array<string> => {
  const text = readFileSync(file, "utf8")
  return [...text.matchAll(REFUSAL)]
    .map((match) => callText(text, (match.index ?? 0) + match[0].length))
    .filter((call) => ROUTE.test(call))
    .map((call) => `${file.slice(src.length + 1)}: ${call.replace(/\s+/g, " ").slice(0, 160)}`)
}

describe("the messages of the store's and the webhooks' use cases", () => {
  it("name no route of any face: the next step is data each face says", () => {
    const files = areas.flatMap((area) =>
      readdirSync(join(src, area), { recursive: true, encoding: "utf8" })
        .filter((file) => file.endsWith(".ts") && !isFace(file))
        .map((file) => join(src, area, file))
    )
    expect(files.length).toBeGreaterThan(40)
    expect(files.flatMap(routesIn)).toEqual([])
  })

  it("would see a route in a refusal", () => {
    const sample = "new NotFound({\n  message: `no form frm_1; GET /quizzes lists them`\n})"
    expect(ROUTE.test(callText(sample, sample.indexOf("(") + 1))).toBe(true)
  })
})
