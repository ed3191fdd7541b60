/** A module graph: each file (a `/`-separated path under the source root) and the files it imports. */
export type ImportGraph = Readonly<Record<string, ReadonlyArray<string>>>

/** Nodes that all reach one another through imports, and the file imports that tie them together. */
export interface Cycle {
  readonly members: ReadonlyArray<string>
  /** Every import between two different members (or of a file by itself), as `from -> to`, sorted. */
  readonly imports: ReadonlyArray<string>
}

/** The top-level folder a file sits in under the source root; a file at the root stands for itself. */
export const topFolderOf = (file: string): string => {
  const slash = file.indexOf("/")
  return slash === -1 ? file : file.slice(0, slash)
}

// Tarjan's strongly connected components: two nodes share a component exactly when each reaches the other, so
// every component of two or more nodes holds at least one cycle and each cycle lies inside one component.
const componentsOf = (nodes: Iterable<string>, next: (node: string) => Iterable<string>) => {
  const order = new Map<string, number>()
  const stack: Array<string> = []
  const onStack = new Set<string>()
  const components: Array<Array<string>> = []
  const visit = (node: string): number => {
    const own = order.size
    order.set(node, own)
    stack.push(node)
    onStack.add(node)
    let lowest = own
    for (const target of next(node)) {
      if (!order.has(target)) lowest = Math.min(lowest, visit(target))
      else if (onStack.has(target)) lowest = Math.min(lowest, order.get(target)!)
    }
    if (lowest === own) {
      const component: Array<string> = []
      let member: string
      do {
        member = stack.pop()!
        onStack.delete(member)
        component.push(member)
      } while (member !== node)
      components.push(component.sort())
    }
    return lowest
  }
  for (const node of nodes) if (!order.has(node)) visit(node)
  return components
}

/**
 * The cycles of the graph once each file is replaced by `nodeOf(file)`. Imports between two files of one node are
 * left out (a folder may import itself freely), except a file importing itself.
 */
const cyclesOf = (graph: ImportGraph, nodeOf: (file: string) => string): Array<Cycle> => {
  const imports = Object.entries(graph)
    .flatMap(([from, targets]) => targets.map((to) => ({ from, to })))
    .filter(({ from, to }) => from === to || nodeOf(from) !== nodeOf(to))
  const next = new Map<string, Set<string>>()
  const nodes = new Set([...Object.keys(graph), ...Object.values(graph).flat()].map(nodeOf))
  for (const { from, to } of imports) {
    const targets = next.get(nodeOf(from)) ?? new Set<string>()
    next.set(nodeOf(from), targets.add(nodeOf(to)))
  }
  return componentsOf(nodes, (node) => next.get(node) ?? [])
    .map((members) => {
      const inside = new Set(members)
      return {
        members,
        imports: imports
          .filter(({ from, to }) => inside.has(nodeOf(from)) && inside.has(nodeOf(to)))
          .map(({ from, to }) => `${from} -> ${to}`)
          .sort()
      }
    })
    .filter((cycle) => cycle.members.length > 1 || cycle.imports.length > 0)
    .sort((a, b) => a.members.join().localeCompare(b.members.join()))
}

/** Files that import one another, directly or through other files. */
export const fileCycles = (graph: ImportGraph): Array<Cycle> => cyclesOf(graph, (file) => file)

/** Top-level folders that import one another, directly or through other folders. */
export const folderCycles = (graph: ImportGraph): Array<Cycle> => cyclesOf(graph, topFolderOf)

/** One line naming a cycle's members and the imports that close it, for a test failure to show. */
export const describeCycle = (cycle: Cycle): string => `${cycle.members.join(" <-> ")}: ${cycle.imports.join("; ")}`
