/**
 * `npm run bench`: our tool server against the ceiling (bare node:http, canned bytes) and the reference
 * (the official MCP SDK's stateless pattern), with the bare read (node:http and the same row read) for scale,
 * each a process of its own on loopback, driven by autocannon.
 * All servers are up together but only one is under load at a time: each step (case × connections) is cut
 * into `rounds` slices and the servers take turns, so a neighbour's load on a shared machine falls on all
 * of them alike. Prints one table, checks the issue's targets, and writes `bench/results/<date>.json` and
 * `bench/RESULTS.md`. Settings: see settings.ts (`--duration`, `--connections`, `--cases`, … or `BENCH_*`).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { cpus, loadavg, tmpdir } from "node:os"
import { dirname, join, relative, resolve } from "node:path"
import { type CaseData, caseRequest, serves } from "./cases.js"
import type { CannedAnswer } from "./ceiling.js"
import { type BenchDatabase, type DataLocation, freshDatabase } from "./database.js"
import { drive, quantile, type Slice } from "./load.js"
import { startOurs } from "./ours.js"
import { type BenchProcess, freePort, startProcess } from "./processes.js"
import {
  checkTargets,
  markdownTable,
  ordered,
  type Row,
  scaleLine,
  targetLines,
  textTable,
  withRatios
} from "./report.js"
import {
  type BenchSettings,
  type CaseName,
  type Engine,
  profilesDir,
  readSettings,
  repoRoot,
  type ServerKind
} from "./settings.js"
import { runWebhookBench, type WebhookRow, webhookMarkdown, webhookText } from "./webhooks.js"

const benchDir = resolve(repoRoot, "packages/server/bench")
const log = (line: string) => process.stderr.write(`${line}\n`)
// Profiles are large and machine-specific: they stay out of the repository.
/** An answer's size as sent (compressed when it went gzipped). */
const wireBytes = (answer: CannedAnswer): number => Buffer.from(answer.base64, "base64").byteLength

const tsProcess = (file: string) => ["--import", "tsx", resolve(benchDir, file)]

/** A server under test, with what its requests need. */
interface Target {
  readonly kind: ServerKind
  readonly engine: Engine | "none"
  readonly process: BenchProcess
  readonly token: string
  readonly data: CaseData
}

/** Starts every server of the run; answers them and how to stop them all. */
const startTargets = async (settings: BenchSettings, scratch: string, databases: ReadonlyArray<BenchDatabase>) => {
  const targets: Target[] = []
  // The size of our answer per case, for the report. The load generator keeps only the ends of a body for its
  // check (load.ts), so a large answer costs it little more than a small one.
  const answerBytes: Record<string, number> = {}
  const stopAll = async () => {
    for (const target of targets.splice(0).reverse()) await target.process.stop()
  }
  try {
    let ceilingStarted = false
    for (const database of databases) {
      const { engine } = database
      log(`[${engine}] our server: svc accounts create, svc keys create, svc serve`)
      const profileDir = settings.profile ? profilesDir : undefined
      const ours = await startOurs(database, { profileDir })
      const data = { noteId: ours.noteId }
      answerBytes["mcp-call"] = wireBytes(ours.answers.mcpCall)
      answerBytes["mcp-list"] = wireBytes(ours.answers.mcpList)
      answerBytes["rest-call"] = wireBytes(ours.answers.restCall)
      answerBytes["mcp-write"] = wireBytes(ours.answers.mcpWrite)
      // Ours always starts: the others mirror its data (note, tool list, answer bytes).
      if (settings.servers.includes("ours"))
        targets.push({ kind: "ours", engine, process: ours.server, token: ours.token, data })
      else await ours.server.stop()
      if (settings.servers.includes("ceiling") && !ceilingStarted) {
        const answers = join(scratch, "answers.json")
        writeFileSync(answers, JSON.stringify(ours.answers))
        const port = await freePort()
        log("[ceiling] bare node:http sending our answer bytes")
        const process = await startProcess(
          "ceiling",
          tsProcess("ceiling.ts"),
          { CEILING_ANSWERS: answers, PORT: String(port) },
          port
        )
        targets.push({ kind: "ceiling", engine: "none", process, token: ours.token, data })
        ceilingStarted = true
      }
      // The reference and the bare read serve the same note from a table of their own (note-table.ts).
      const noteServer = async (kind: "reference" | "bare-read", file: string, where: DataLocation, extra = {}) => {
        const port = await freePort()
        const process = await startProcess(
          kind,
          tsProcess(file),
          {
            PORT: String(port),
            REF_ENGINE: engine,
            REF_NOTE: JSON.stringify({ id: ours.noteId, workspaceId: ours.workspaceId, ...ours.note }),
            ...("dataDir" in where ? { REF_DATA_DIR: where.dataDir } : { REF_DATABASE_URL: where.url }),
            ...extra
          },
          port
        )
        targets.push({ kind, engine, process, token: ours.token, data })
      }
      if (settings.servers.includes("reference")) {
        const tools = join(scratch, `tools-${engine}.json`)
        writeFileSync(tools, JSON.stringify(ours.tools))
        log(`[${engine}] the reference: MCP SDK Server + WebStandardStreamableHTTPServerTransport per request`)
        await noteServer("reference", "reference.ts", database.reference, { REF_TOOLS: tools })
      }
      if (settings.servers.includes("bare-read")) {
        log(`[${engine}] the bare read: node:http and the same note read, nothing else`)
        await noteServer("bare-read", "bare-read.ts", database.bareRead)
      }
    }
  } catch (error) {
    await stopAll()
    throw error
  }
  return { targets, stopAll, answerBytes }
}

const summarize = (target: Target, name: Row["case"], connections: number, slices: ReadonlyArray<Slice>): Row => {
  const requests = slices.reduce((sum, s) => sum + s.requests, 0)
  const seconds = slices.reduce((sum, s) => sum + s.seconds, 0)
  const latencies = slices.flatMap((s) => s.latencies).sort((a, b) => a - b)
  return {
    server: target.kind,
    engine: target.engine,
    case: name,
    connections,
    requests,
    requestsPerSecond: seconds > 0 ? requests / seconds : 0,
    p50Ms: quantile(latencies, 0.5),
    p99Ms: quantile(latencies, 0.99),
    errors: slices.reduce((sum, s) => sum + s.errors, 0),
    peakRssBytes: slices.reduce((max, s) => Math.max(max, s.peakRssBytes), 0),
    seconds,
    cpuMicrosPerRequest: requests > 0 ? (slices.reduce((sum, s) => sum + s.cpuSeconds, 0) / requests) * 1e6 : 0
  }
}

/**
 * Cases measured side by side, taking turns slice by slice with each other as the servers do, because the targets
 * compare them with each other (REST with MCP `tools/call`): measured minutes apart, a shared machine's drift
 * between them showed as a 20–30 % gap either way from run to run.
 */
const STEP_GROUPS: ReadonlyArray<ReadonlyArray<CaseName>> = [["mcp-call", "rest-call"], ["mcp-list"], ["mcp-write"]]

interface Run {
  readonly name: CaseName
  readonly target: Target
}

/** Every case at every connection count, the servers (and cases compared with each other) taking turns slice by slice. */
const measure = async (settings: BenchSettings, targets: ReadonlyArray<Target>): Promise<Row[]> => {
  const rows: Row[] = []
  const slice = settings.durationSeconds / settings.rounds
  const grouped = STEP_GROUPS.flat()
  const groups = [...STEP_GROUPS, ...settings.cases.filter((name) => !grouped.includes(name)).map((name) => [name])]
  for (const group of groups) {
    const runs: ReadonlyArray<Run> = group
      .filter((name) => settings.cases.includes(name))
      .flatMap((name) => targets.filter((t) => serves(t.kind, name)).map((target) => ({ name, target })))
    if (settings.warmupSeconds > 0) {
      for (const { name, target } of runs) {
        await drive(target.process, caseRequest(name, target.data), target.token, {
          connections: Math.max(...settings.connections),
          durationSeconds: settings.warmupSeconds,
          maxRequests: settings.maxRequests
        })
      }
    }
    for (const connections of settings.connections) {
      const slices = new Map<Run, Slice[]>(runs.map((run) => [run, []]))
      for (let round = 0; round < settings.rounds; round++) {
        // Rotate who goes first, so no server always follows the same neighbour.
        const order = runs.map((_, i) => runs[(i + round) % runs.length] as Run)
        for (const run of order) {
          const measured = await drive(run.target.process, caseRequest(run.name, run.target.data), run.target.token, {
            connections,
            durationSeconds: slice,
            maxRequests: Math.ceil(settings.maxRequests / settings.rounds)
          })
          slices.get(run)?.push(measured)
        }
      }
      for (const run of runs) {
        const { name, target } = run
        const row = summarize(target, name, connections, slices.get(run) ?? [])
        log(
          `  ${name.padEnd(9)} c=${String(connections).padEnd(3)} ${target.kind.padEnd(9)} ${target.engine.padEnd(8)} ` +
            `${row.requestsPerSecond.toFixed(0).padStart(6)} req/s  p99 ${row.p99Ms} ms  ` +
            `${row.cpuMicrosPerRequest.toFixed(0)} µs CPU/req  errors ${row.errors}`
        )
        rows.push(row)
      }
    }
  }
  return rows
}

interface Machine {
  readonly cpus: number
  readonly cpuModel: string
  readonly node: string
  readonly platform: string
  readonly loadAverageAtStart: ReadonlyArray<number>
}

const writeResults = (
  settings: BenchSettings,
  started: Date,
  machine: Machine,
  answerBytes: Readonly<Record<string, number>>,
  rows: ReadonlyArray<Row>,
  webhooks: ReadonlyArray<WebhookRow> = []
) => {
  const targets = checkTargets(rows)
  const scale = scaleLine(rows, targets.engine)
  const targetText = [...targetLines(targets.checks), ...(scale === undefined ? [] : [scale])]
  process.stdout.write(`\n${textTable(rows)}\n\n`)
  if (webhooks.length > 0) process.stdout.write(`Webhook delivery:\n${webhookText(webhooks)}\n\n`)
  if (targets.engine !== undefined) {
    process.stdout.write(`Targets (10 connections, ${targets.engine}):\n${targetText.join("\n")}\n`)
  }
  const stamp = started
    .toISOString()
    .replace(/:/g, "-")
    .replace(/\.\d+Z$/, "Z")
  mkdirSync(settings.resultsDir, { recursive: true })
  const jsonFile = join(settings.resultsDir, `${stamp}.json`)
  // The URL may carry a password, and an absolute path says nothing on another machine.
  const { postgresUrl: _url, ...rest } = settings
  const shownSettings = { ...rest, resultsDir: relative(repoRoot, settings.resultsDir) || "." }
  writeFileSync(
    jsonFile,
    `${JSON.stringify({ startedAt: started.toISOString(), machine, settings: shownSettings, answerBytes, rows, targets, webhooks }, null, 2)}\n`
  )
  const markdownFile = join(dirname(settings.resultsDir), "RESULTS.md")
  const markdown = [
    "# Benchmark results",
    "",
    `The last \`npm run bench\`, started ${started.toISOString()}; raw figures in \`${relative(repoRoot, jsonFile)}\`.`,
    "",
    `Machine: ${machine.cpus} × ${machine.cpuModel}, Node ${machine.node}, ${machine.platform}; load average ` +
      `at start ${machine.loadAverageAtStart.join(" / ")}. Settings: ${settings.durationSeconds} s per server and step ` +
      `in ${settings.rounds} turns after a ${settings.warmupSeconds} s warm-up, connections ` +
      `${settings.connections.join("/")}, at most ${settings.maxRequests} requests per step, engines ` +
      `${settings.engines.join(" and ")}. Our answer sizes: ` +
      `${Object.entries(answerBytes)
        .map(([name, bytes]) => `${name} ${bytes} bytes`)
        .join(
          ", "
        )} as sent (the load generator checks the first and last 4 KB of every body, so a large answer does not make ` +
      "it the limit). Every request carries `Accept-Encoding: gzip, deflate`, as Node's fetch sends it; ours gzips the " +
      "cached `tools/list` answer, the reference compresses nothing, the ceiling sends our bytes.",
    "",
    "Servers: **ceiling** = bare `node:http` sending our answer bytes with no work; **reference** = the official " +
      "MCP SDK's stateless pattern (a `Server` and a `WebStandardStreamableHTTPServerTransport` per request, one " +
      "shared Ajv validator) reading the same row with the same query on the same engine; **bare-read** = plain " +
      "`node:http` parsing the body and reading the same row with the same query (prepared on PostgreSQL), with no " +
      "authentication, validation or framework: the floor of a server that answers from the database, for scale; " +
      "**ours** = `svc serve`, whose note reads made at the same moment share one statement (the others read " +
      "one row per call). ÷ceiling and ÷reference are requests/s over theirs (REST is compared with the " +
      "reference's tools/call). " +
      "CPU µs/req is the server process's own CPU time per request (a PostgreSQL server's not included): " +
      "steadier than req/s when neighbours take the CPU. The servers take turns slice by slice; the machine is shared, so absolute figures move between runs and " +
      "the ratios within one run are what counts.",
    "",
    markdownTable(rows),
    "",
    ...(targets.engine === undefined
      ? []
      : [`Targets (10 connections, ${targets.engine}):`, "", ...targetText.map((line) => `    ${line}`), ""]),
    ...webhookMarkdown(webhooks)
  ].join("\n")
  writeFileSync(markdownFile, markdown)
  log(`\nwrote ${jsonFile} and ${markdownFile}`)
}

const main = async () => {
  const settings = readSettings(process.argv.slice(2), process.env)
  const started = new Date()
  const machine: Machine = {
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model ?? "unknown",
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    loadAverageAtStart: loadavg().map((l) => Number(l.toFixed(2)))
  }
  log(
    `svc bench: ${settings.servers.join(", ")} × ${settings.cases.join(", ")} × ${settings.connections.join("/")} ` +
      `connections on ${settings.engines.join(" and ")}; ${settings.durationSeconds} s per server and step in ` +
      `${settings.rounds} turns, at most ${settings.maxRequests} requests`
  )
  const scratch = mkdtempSync(join(tmpdir(), "svc-bench-files-"))
  const databases: BenchDatabase[] = []
  let rows: Row[] = []
  let answerBytes: Record<string, number> = {}
  let webhooks: WebhookRow[] = []
  try {
    for (const engine of settings.engines) databases.push(await freshDatabase(engine, settings.postgresUrl))
    const servers = await startTargets(settings, scratch, databases)
    const { targets, stopAll } = servers
    answerBytes = servers.answerBytes
    try {
      rows = await measure(settings, targets)
    } finally {
      await stopAll()
    }
    webhooks = await runWebhookBench(settings)
  } finally {
    for (const database of databases) await database.dispose()
    rmSync(scratch, { recursive: true, force: true })
  }
  writeResults(settings, started, machine, answerBytes, ordered(withRatios(rows), settings.cases), webhooks)
  if (settings.profile) log(`CPU profiles of our server (written when it stopped): ${profilesDir}`)
}

await main()
