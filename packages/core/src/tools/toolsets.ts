import { Either, Schema } from "effect"
import { Part } from "../auth/access.js"
import { type ToolGroup, toolGroups } from "./groups.js"

/**
 * A toolset: the tools of one catalog group, named by the access part that governs the group (`workspace`,
 * `boards`, `custom_ai`, ...), so a key's grant and its toolsets speak the same words.
 */
export const ToolsetName = Part
export type ToolsetName = typeof ToolsetName.Type

/** The word that names every toolset at once. */
export const ALL_TOOLSETS = "all"

const groups = Object.keys(toolGroups) as ReadonlyArray<ToolGroup>

/** Every toolset name, in the catalog's group order. */
export const toolsetNames: ReadonlyArray<ToolsetName> = groups.map((group) => toolGroups[group].part)

/** The catalog group a toolset serves. */
export const groupOfToolset = (name: ToolsetName): ToolGroup =>
  groups.find((group) => toolGroups[group].part === name) as ToolGroup

// One bit per group, in catalog order: a selection is then one number, and checking a call is one `&`.
const groupBits = Object.fromEntries(groups.map((group, index) => [group, 1 << index])) as Record<ToolGroup, number>
const EVERY_GROUP = (1 << groups.length) - 1

/** Which of the tools a caller's grant allows one request is served: some groups, and maybe reads only. */
export interface ToolSelection {
  /** One bit per served group (see {@link selects}). */
  readonly groups: number
  /** Only tools that change nothing. */
  readonly readOnly: boolean
  /** The same text for equal selections, e.g. `workspace,boards;readonly`: a cache key. */
  readonly key: string
}

/** Whether a selection serves a tool. */
export const selects = (selection: ToolSelection, tool: { readonly group: ToolGroup; readonly write: boolean }) =>
  (selection.groups & groupBits[tool.group]) !== 0 && !(selection.readOnly && tool.write)

/** The toolsets a selection serves, in catalog order. */
export const selectedToolsets = (selection: ToolSelection): ReadonlyArray<ToolsetName> =>
  groups.filter((group) => (selection.groups & groupBits[group]) !== 0).map((group) => toolGroups[group].part)

/** A toolset request the caller must fix: an unknown name, a bad read-only flag, or a header and query that differ. */
export class InvalidToolSelection extends Schema.TaggedError<InvalidToolSelection>()("InvalidToolSelection", {
  message: Schema.String
}) {
  /** The names a caller may use, for the answer. */
  get validToolsets(): ReadonlyArray<string> {
    return [...toolsetNames, ALL_TOOLSETS]
  }
}

// Selections are interned by key, so equal selections are one object and the registry's per-selection lists
// are found by reference as well as by key.
const interned = new Map<string, ToolSelection>()
const selectionOf = (groupsMask: number, readOnly: boolean): ToolSelection => {
  const names = groups.filter((group) => (groupsMask & groupBits[group]) !== 0).map((group) => toolGroups[group].part)
  const key = `${groupsMask === EVERY_GROUP ? ALL_TOOLSETS : names.join(",")}${readOnly ? ";readonly" : ""}`
  let found = interned.get(key)
  if (found === undefined) {
    found = { groups: groupsMask, readOnly, key }
    interned.set(key, found)
  }
  return found
}

const isToolsetName = (word: string): word is ToolsetName => (toolsetNames as ReadonlyArray<string>).includes(word)

/**
 * The groups a toolset list names, as a mask: names separated by commas, case-insensitive, spaces around them
 * ignored, `all` for every group. `undefined` when the list names nothing (an empty value counts as not given).
 */
const parseToolsetList = (text: string, where: string): Either.Either<number | undefined, InvalidToolSelection> => {
  let mask = 0
  let named = false
  for (const raw of text.split(",")) {
    const word = raw.trim().toLowerCase()
    if (word === "") continue
    named = true
    if (word === ALL_TOOLSETS) mask = EVERY_GROUP
    else if (isToolsetName(word)) mask |= groupBits[groupOfToolset(word)]
    else {
      return Either.left(
        new InvalidToolSelection({
          message: `${where} names an unknown toolset "${raw.trim().slice(0, 40)}"; the toolsets are ${[...toolsetNames, ALL_TOOLSETS].join(", ")}`
        })
      )
    }
  }
  return Either.right(named ? mask : undefined)
}

const parseReadOnly = (text: string, where: string): Either.Either<boolean | undefined, InvalidToolSelection> => {
  const word = text.trim().toLowerCase()
  if (word === "") return Either.right(undefined)
  if (word === "true" || word === "1") return Either.right(true)
  if (word === "false" || word === "0") return Either.right(false)
  return Either.left(new InvalidToolSelection({ message: `${where} must be true or false` }))
}

/** Where a request may name its toolsets and read-only flag: a header and a query parameter each. */
export interface ToolSelectionRequest {
  readonly toolsetsHeader: string | undefined
  readonly toolsetsQuery: string | undefined
  readonly readOnlyHeader: string | undefined
  readonly readOnlyQuery: string | undefined
}

/** The names of the header and query parameter, for messages (the faces read them under these names). */
export const TOOLSETS_HEADER = "X-MCP-Toolsets"
export const READONLY_HEADER = "X-MCP-Readonly"
export const TOOLSETS_QUERY = "toolsets"
export const READONLY_QUERY = "readonly"

// A header given with the query parameter must say the same: a silent winner would hide a misconfigured client.
const agreeing = <A>(
  header: Either.Either<A | undefined, InvalidToolSelection>,
  query: Either.Either<A | undefined, InvalidToolSelection>,
  what: string
): Either.Either<A | undefined, InvalidToolSelection> =>
  Either.flatMap(header, (fromHeader) =>
    Either.flatMap(query, (fromQuery) =>
      fromHeader !== undefined && fromQuery !== undefined && fromHeader !== fromQuery
        ? Either.left(new InvalidToolSelection({ message: `the ${what} header and query parameter disagree` }))
        : Either.right(fromHeader ?? fromQuery)
    )
  )

/** The mask of a key's default toolsets (`null`: every group). */
export const defaultToolsetsMask = (toolsets: ReadonlyArray<ToolsetName> | null | undefined): number | undefined =>
  toolsets === null || toolsets === undefined
    ? undefined
    : toolsets.reduce((mask, name) => mask | groupBits[groupOfToolset(name)], 0)

/**
 * The selection of one request: the toolsets it names (else the credential's default toolsets, else every group)
 * and its read-only flag. `undefined` when nothing narrows the list, so such a request costs nothing more.
 * A request's toolsets replace the key's default ones (a default, not a ceiling: the grant is the ceiling).
 */
export const resolveToolSelection = (
  request: ToolSelectionRequest,
  keyDefault: ReadonlyArray<ToolsetName> | null | undefined
): Either.Either<ToolSelection | undefined, InvalidToolSelection> => {
  const { toolsetsHeader, toolsetsQuery, readOnlyHeader, readOnlyQuery } = request
  if (
    toolsetsHeader === undefined &&
    toolsetsQuery === undefined &&
    readOnlyHeader === undefined &&
    readOnlyQuery === undefined &&
    (keyDefault === undefined || keyDefault === null)
  ) {
    return Either.right(undefined)
  }
  const toolsets = agreeing(
    toolsetsHeader === undefined ? Either.right(undefined) : parseToolsetList(toolsetsHeader, TOOLSETS_HEADER),
    toolsetsQuery === undefined
      ? Either.right(undefined)
      : parseToolsetList(toolsetsQuery, `the ${TOOLSETS_QUERY} query parameter`),
    `${TOOLSETS_HEADER} / ${TOOLSETS_QUERY}`
  )
  const readOnly = agreeing(
    readOnlyHeader === undefined ? Either.right(undefined) : parseReadOnly(readOnlyHeader, READONLY_HEADER),
    readOnlyQuery === undefined
      ? Either.right(undefined)
      : parseReadOnly(readOnlyQuery, `the ${READONLY_QUERY} query parameter`),
    `${READONLY_HEADER} / ${READONLY_QUERY}`
  )
  return Either.flatMap(toolsets, (mask) =>
    Either.map(readOnly, (only) => {
      const groupsMask = mask ?? defaultToolsetsMask(keyDefault) ?? EVERY_GROUP
      return groupsMask === EVERY_GROUP && only !== true ? undefined : selectionOf(groupsMask, only === true)
    })
  )
}

/** Parses a list of toolset names for storing as a key's default (CLI, settings): `null` means every group. */
export const parseDefaultToolsets = (
  names: ReadonlyArray<string>
): Either.Either<ReadonlyArray<ToolsetName> | null, InvalidToolSelection> =>
  Either.map(parseToolsetList(names.join(","), "the toolset list"), (mask) =>
    mask === undefined || mask === EVERY_GROUP
      ? null
      : groups.filter((group) => (mask & groupBits[group]) !== 0).map((group) => toolGroups[group].part)
  )
