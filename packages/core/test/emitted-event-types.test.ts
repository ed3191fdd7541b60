/// <reference types="node" />
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { expect, it } from "@effect/vitest"
import { isWebhookEventType } from "../src/webhooks/event-types.js"
import { EMITTED_EVENT_TYPES, eventTypeGroups } from "../src/webhooks/schema.js"

const src = fileURLToPath(new URL("../src", import.meta.url))

// Events reach the log only through the recorder or the event maker, named by a literal type.
const WRITE =
  /\b(?:recordEvent|makeEvent)\(\s*[^,()]+,\s*(?:[^,"]*\?\s*)?"([a-z_]+\.[a-z_]+)"(?:\s*:\s*"([a-z_]+\.[a-z_]+)")?/g

const sourcesUnder = (dir: string): ReadonlyArray<string> =>
  readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(".ts"))
    .map((entry) => readFileSync(join(entry.parentPath, entry.name), "utf8"))

/** Every webhook event type some source of the core writes an event with. */
const writtenWebhookTypes = (): ReadonlyArray<string> => {
  const types = new Set<string>()
  for (const text of sourcesUnder(src)) {
    for (const match of text.matchAll(WRITE)) {
      for (const type of match.slice(1)) if (type !== undefined && isWebhookEventType(type)) types.add(type)
    }
  }
  return [...types].sort()
}

it("GET /webhook-events says emitted for exactly the webhook event types the core writes", () => {
  const written = writtenWebhookTypes()
  // The scan itself must find the writers it is meant to find, or an empty list would pass.
  expect(written).toEqual(expect.arrayContaining(["purchase.created", "lead.created", "form.completed"]))
  expect([...EMITTED_EVENT_TYPES].sort()).toEqual(written)
  const emitted = eventTypeGroups()
    .flatMap((group) => group.events)
    .filter((event) => event.emitted)
    .map((event) => event.type)
  expect(emitted.sort()).toEqual(written)
})
