import { Schema } from "effect"

/**
 * The parts of the service an access grant names. Each tool group is one part;
 * `store` covers the Store tool group and the whole store API.
 */
export const Part = Schema.Literal(
  "workspace",
  "social",
  "highlights",
  "boards",
  "scheduling",
  "routines",
  "media",
  "custom_ai",
  "skills",
  "store"
)
export type Part = typeof Part.Type

/** How much a grant allows on one part. */
export const Level = Schema.Literal("off", "read", "edit")
export type Level = typeof Level.Type

/** What a credential may do: everything, or a level per part (parts left out are `off`). */
export const Access = Schema.Union(
  Schema.Struct({ kind: Schema.Literal("full") }),
  Schema.Struct({ kind: Schema.Literal("custom"), parts: Schema.partial(Schema.Record({ key: Part, value: Level })) })
)
export type Access = typeof Access.Type

export const fullAccess: Access = { kind: "full" }

const rank: Record<Level, number> = { off: 0, read: 1, edit: 2 }

/** The level `access` grants on `part`. */
export const levelOf = (access: Access, part: Part): Level =>
  access.kind === "full" ? "edit" : (access.parts[part] ?? "off")

/** Whether `access` grants at least `needed` on `part`. */
export const allows = (access: Access, part: Part, needed: Exclude<Level, "off">): boolean =>
  rank[levelOf(access, part)] >= rank[needed]

/** Access that reads every part and changes none (an OAuth `read` token, a read-only key). */
export const readOnlyAccess: Access = {
  kind: "custom",
  parts: Object.fromEntries(Part.literals.map((part) => [part, "read"])) as Record<Part, Level>
}

/** A short human text, e.g. `full` or `boards=edit, store=read`. */
export const describeAccess = (access: Access): string =>
  access.kind === "full"
    ? "full"
    : Part.literals
        .filter((part) => levelOf(access, part) !== "off")
        .map((part) => `${part}=${levelOf(access, part)}`)
        .join(", ") || "none"
