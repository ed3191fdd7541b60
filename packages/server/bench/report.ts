/** The bench's one table (console and Markdown), its ratios, and the targets of the issue checked against it. */
import type { CaseName, Engine, ServerKind } from "./settings.js"

/** What one step measured, over all its slices. */
export interface Measured {
  readonly requests: number
  readonly requestsPerSecond: number
  readonly p50Ms: number
  readonly p99Ms: number
  readonly errors: number
  readonly peakRssBytes: number
  readonly seconds: number
  /**
   * The server process's CPU time per request, in µs (a database server's own CPU not included). Steadier
   * than requests/s on a shared machine: it does not depend on how much CPU the neighbours left over.
   */
  readonly cpuMicrosPerRequest: number
}

/** One measured step: a server, on an engine (the ceiling has none), a case, a connection count. */
export interface Row extends Measured {
  readonly server: ServerKind
  readonly engine: Engine | "none"
  readonly case: CaseName
  readonly connections: number
  /** On our rows and the bare read's: requests/s over the ceiling's for the same case and connections. */
  readonly overCeiling?: number | undefined
  /** Likewise, over the reference's on the same engine (REST is compared with the reference's tools/call). */
  readonly overReference?: number | undefined
}

const find = (rows: ReadonlyArray<Row>, server: ServerKind, engine: Engine | "none", name: CaseName, c: number) =>
  rows.find((r) => r.server === server && r.engine === engine && r.case === name && r.connections === c)

const compared = (server: ServerKind) => server === "ours" || server === "bare-read"

/** Adds the ratio columns to our rows and the bare read's. */
export const withRatios = (rows: ReadonlyArray<Row>): ReadonlyArray<Row> =>
  rows.map((row) => {
    if (!compared(row.server)) return row
    const ceiling = find(rows, "ceiling", "none", row.case, row.connections)
    // The SDK has no REST face; its tools/call is the nearest thing to compare our REST call with.
    const referenceCase = row.case === "rest-call" ? "mcp-call" : row.case
    const reference = find(rows, "reference", row.engine, referenceCase, row.connections)
    return {
      ...row,
      overCeiling: ceiling ? row.requestsPerSecond / ceiling.requestsPerSecond : undefined,
      overReference: reference ? row.requestsPerSecond / reference.requestsPerSecond : undefined
    }
  })

/** One target of the issue, checked. */
export interface TargetCheck {
  readonly target: string
  readonly measured: string
  readonly met: boolean | "not measured"
}

const ratio = (value: number | undefined) => (value === undefined ? "—" : `${value.toFixed(2)}×`)
const percent = (value: number | undefined) =>
  value === undefined ? "—" : `${(value * 100).toFixed(value < 0.1 ? 1 : 0)} %`
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(0)

/** The targets (at 10 connections, on PostgreSQL when it was measured, else on PGlite). */
export const checkTargets = (rows: ReadonlyArray<Row>): { engine: Engine | undefined; checks: TargetCheck[] } => {
  const engine: Engine | undefined = rows.some((r) => r.server === "ours" && r.engine === "postgres")
    ? "postgres"
    : rows.some((r) => r.server === "ours" && r.engine === "pglite")
      ? "pglite"
      : undefined
  if (engine === undefined) return { engine, checks: [] }
  const at = (name: CaseName) => find(rows, "ours", engine, name, 10)
  const call = at("mcp-call")
  const list = at("mcp-list")
  const rest = at("rest-call")
  const ours = rows.filter((r) => r.server === "ours")
  const measuredOr = (ok: boolean | undefined): boolean | "not measured" => (ok === undefined ? "not measured" : ok)
  const restShare = call && rest ? rest.requestsPerSecond / call.requestsPerSecond : undefined
  const errors = ours.reduce((sum, r) => sum + r.errors, 0)
  // On PGlite the database lives in our process's memory, so RSS is judged on the target engine only.
  const peak = ours.filter((r) => r.engine === engine).reduce((max, r) => Math.max(max, r.peakRssBytes), 0)
  return {
    engine,
    checks: [
      {
        target: "tools/call ≥ 3× the reference",
        measured: ratio(call?.overReference),
        met: measuredOr(call?.overReference === undefined ? undefined : call.overReference >= 3)
      },
      {
        target: "tools/call ≥ 25 % of the ceiling",
        measured: percent(call?.overCeiling),
        met: measuredOr(call?.overCeiling === undefined ? undefined : call.overCeiling >= 0.25)
      },
      {
        target: "tools/call p99 < 20 ms",
        measured: call ? `${call.p99Ms} ms` : "—",
        met: measuredOr(call ? call.p99Ms < 20 : undefined)
      },
      {
        target: "tools/list ≥ 10× the reference",
        measured: ratio(list?.overReference),
        met: measuredOr(list?.overReference === undefined ? undefined : list.overReference >= 10)
      },
      {
        target: "REST tool call within 10 % of MCP tools/call (not slower by more)",
        measured: restShare === undefined ? "—" : `REST = ${percent(restShare)} of MCP`,
        met: measuredOr(restShare === undefined ? undefined : restShare >= 0.9)
      },
      { target: "zero errors (ours, every case)", measured: String(errors), met: ours.length > 0 && errors === 0 },
      {
        target: `RSS < 300 MB (ours on ${engine}, every case)`,
        measured: `${mb(peak)} MB`,
        met: ours.length > 0 && peak < 300 * 1024 * 1024
      }
    ]
  }
}

const HEADER = [
  "case",
  "conns",
  "server",
  "engine",
  "req/s",
  "p50 ms",
  "p99 ms",
  "errors",
  "RSS MB",
  "CPU µs/req",
  "÷ceiling",
  "÷reference"
]

const cells = (row: Row): string[] => [
  row.case,
  String(row.connections),
  row.server,
  row.engine === "none" ? "—" : row.engine,
  row.requestsPerSecond.toFixed(0),
  String(row.p50Ms),
  String(row.p99Ms),
  String(row.errors),
  mb(row.peakRssBytes),
  row.cpuMicrosPerRequest.toFixed(0),
  compared(row.server) ? percent(row.overCeiling) : "",
  compared(row.server) ? ratio(row.overReference) : ""
]

/** Rows in reading order: by case, connections, then ceiling, reference, bare read and ours per engine. */
export const ordered = (rows: ReadonlyArray<Row>, cases: ReadonlyArray<CaseName>): ReadonlyArray<Row> => {
  const serverOrder: Record<ServerKind, number> = { ceiling: 0, reference: 1, "bare-read": 2, ours: 3 }
  const engineOrder = { none: 0, pglite: 1, postgres: 2 }
  return [...rows].sort(
    (a, b) =>
      cases.indexOf(a.case) - cases.indexOf(b.case) ||
      a.connections - b.connections ||
      engineOrder[a.engine] - engineOrder[b.engine] ||
      serverOrder[a.server] - serverOrder[b.server]
  )
}

/** The table as aligned plain text. */
export const textTable = (rows: ReadonlyArray<Row>): string => {
  const all = [HEADER, ...rows.map(cells)]
  const widths = HEADER.map((_, i) => Math.max(...all.map((line) => (line[i] ?? "").length)))
  const line = (values: ReadonlyArray<string>) =>
    values.map((v, i) => (i < 4 ? v.padEnd(widths[i] ?? 0) : v.padStart(widths[i] ?? 0))).join("  ")
  return [line(HEADER), line(widths.map((w) => "-".repeat(w))), ...rows.slice().map((r) => line(cells(r)))].join("\n")
}

/** The table as Markdown. */
export const markdownTable = (rows: ReadonlyArray<Row>): string =>
  [
    `| ${HEADER.join(" | ")} |`,
    `|${HEADER.map((_, i) => (i < 4 ? "---" : "---:")).join("|")}|`,
    ...rows.map((r) => `| ${cells(r).join(" | ")} |`)
  ].join("\n")

/** The target checks as text lines. */
export const targetLines = (checks: ReadonlyArray<TargetCheck>): string[] =>
  checks.map((c) => `${c.met === true ? "met   " : c.met === false ? "MISSED" : "n/a   "}  ${c.target}: ${c.measured}`)

/**
 * For scale, not a target: how far toward the ceiling the bare read got (node:http and the same row read, nothing
 * else) at 10 connections on the targets' engine, and where ours stands against it.
 */
export const scaleLine = (rows: ReadonlyArray<Row>, engine: Engine | undefined): string | undefined => {
  if (engine === undefined) return undefined
  const bare = find(rows, "bare-read", engine, "mcp-call", 10)
  const ours = find(rows, "ours", engine, "mcp-call", 10)
  if (bare?.overCeiling === undefined) return undefined
  const oursShare = ours ? `; ours = ${percent(ours.requestsPerSecond / bare.requestsPerSecond)} of the bare read` : ""
  return `for scale: the bare read (node:http + the same row read, no auth or validation) = ${percent(bare.overCeiling)} of the ceiling${oursShare}`
}
