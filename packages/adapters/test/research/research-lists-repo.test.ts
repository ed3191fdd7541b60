/**
 * The research lists over SQL (`ResearchListsRepoLive`), on the test engine: names unique per workspace and kind
 * whatever their case, members added once and kept in the order they came, removals, newest-first pages, and one
 * workspace never seeing another's lists.
 */
import { expect, layer } from "@effect/vitest"
import { type ResearchList, type ResearchListMember, ResearchListsRepo } from "@svc/core/research"
import { Transactor } from "@svc/core/shared"
import { Cause, Effect, Exit, Layer, Option } from "effect"
import { LeanSql } from "../../src/sql/lean.js"
import { migrations } from "../../src/sql/migrations/index.js"
import { ResearchListsRepoLive } from "../../src/sql/repos/research-lists.js"
import { TransactorSql } from "../../src/sql/transactor.js"
import { engineName, testDatabaseLayer } from "../support/database.js"

const testLayer = Layer.mergeAll(ResearchListsRepoLive, TransactorSql).pipe(
  Layer.provideMerge(testDatabaseLayer(migrations))
)

const T0 = Date.parse("2026-12-01T08:00:00Z")
const at = (minutes: number) => new Date(T0 + minutes * 60_000)

let counter = 0
const unique = (prefix: string) => {
  counter += 1
  return `${prefix}_${counter}_${Date.now()}`
}

/** A fresh account and workspace, straight into their tables: the lists only need the workspace row to exist. */
const workspace = Effect.gen(function* () {
  const lean = yield* LeanSql
  const accountId = unique("acct")
  const workspaceId = unique("ws")
  yield* lean`INSERT INTO accounts (id, email, name, password_hash, plan, created_at)
              VALUES (${accountId}, ${`${accountId}@example.com`}, ${"Tester"}, ${"x"}, ${"starter"}, ${at(0)})`
  yield* lean`INSERT INTO workspaces (id, owner_id, name, is_default, created_at)
              VALUES (${workspaceId}, ${accountId}, ${"Main"}, ${true}, ${at(0)})`
  return workspaceId
}).pipe(Effect.orDie)

const newList = (
  workspaceId: string,
  name: string,
  options: { readonly kind?: ResearchList["kind"]; readonly minute?: number; readonly id?: string } = {}
) =>
  Effect.gen(function* () {
    const repo = yield* ResearchListsRepo
    const list = {
      id: options.id ?? unique("rl"),
      workspaceId,
      kind: options.kind ?? "creators",
      name,
      createdAt: at(options.minute ?? 0),
      updatedAt: at(options.minute ?? 0)
    } as const
    yield* repo.insert(list)
    return list
  })

const creator =
  (key: string, minute = 1, platform: ResearchListMember["platform"] = "bluesky") =>
  (listId: string): ResearchListMember => ({
    listId,
    platform,
    key,
    handle: `${key}.bsky.social`,
    name: `Creator ${key}`,
    url: platform === null ? null : `https://bsky.app/profile/${key}`,
    addedAt: at(minute)
  })

const keysOf = (members: ReadonlyArray<ResearchListMember>) => members.map((m) => `${m.platform ?? "-"}:${m.key}`)

const found = <A>(option: Option.Option<A>): A => Option.getOrThrowWith(option, () => new Error("expected a row"))

layer(testLayer, { timeout: "60 seconds" })(`research lists repository (${engineName})`, (it) => {
  it.effect("finds a new list by id and by its name in any case, empty, only under its kind", () =>
    Effect.gen(function* () {
      const repo = yield* ResearchListsRepo
      const ws = yield* workspace
      const list = yield* newList(ws, "Rivals Ünited", { minute: 3 })
      const expected: ResearchList = { ...list, memberCount: 0 }
      expect(found(yield* repo.find(ws, list.id))).toEqual(expected)
      expect(found(yield* repo.findByName(ws, "creators", "rivals ünited"))).toEqual(expected)
      expect(found(yield* repo.findByName(ws, "creators", "RIVALS ÜNITED"))).toEqual(expected)
      expect(yield* repo.findByName(ws, "brands", "Rivals Ünited")).toEqual(Option.none())
      expect(yield* repo.find(ws, "rl_missing")).toEqual(Option.none())
    })
  )

  it.effect("refuses a second list of the same kind whose name differs only in case; other kinds may share it", () =>
    Effect.gen(function* () {
      const repo = yield* ResearchListsRepo
      const ws = yield* workspace
      yield* newList(ws, "Competitors")
      const again = yield* Effect.exit(newList(ws, "COMPETITORS"))
      expect(Exit.isFailure(again) && Cause.isDie(again.cause)).toBe(true)
      yield* newList(ws, "competitors", { kind: "brands" })
      // Another workspace has names of its own.
      const other = yield* workspace
      yield* newList(other, "Competitors")
      expect(yield* repo.countLists(ws)).toBe(2)
      expect(yield* repo.countLists(other)).toBe(1)
    })
  )

  it.effect("adds a member once: again, or twice in one batch, it is not counted", () =>
    Effect.gen(function* () {
      const repo = yield* ResearchListsRepo
      const ws = yield* workspace
      const list = yield* newList(ws, "Once")
      expect(yield* repo.addMembers(list.id, [creator("a")(list.id), creator("b")(list.id)], at(1))).toBe(2)
      expect(yield* repo.addMembers(list.id, [creator("b")(list.id), creator("c")(list.id)], at(2))).toBe(1)
      expect(yield* repo.addMembers(list.id, [creator("d")(list.id), creator("d")(list.id)], at(3))).toBe(1)
      expect(yield* repo.addMembers(list.id, [creator("a")(list.id)], at(4))).toBe(0)
      // The same key on another network is another creator.
      expect(yield* repo.addMembers(list.id, [creator("a", 5, "youtube")(list.id)], at(5))).toBe(1)
      expect(yield* repo.addMembers(list.id, [], at(6))).toBe(0)
      const read = found(yield* repo.find(ws, list.id))
      expect(read.memberCount).toBe(5)
      // Touched by the last add that changed something, not by those that did not.
      expect(read.updatedAt).toEqual(at(5))
      expect(keysOf(yield* repo.members(list.id))).toEqual([
        "bluesky:a",
        "bluesky:b",
        "bluesky:c",
        "bluesky:d",
        "youtube:a"
      ])
    })
  )

  it.effect("keeps members in the order they were added, within a batch and across batches, as saved", () =>
    Effect.gen(function* () {
      const repo = yield* ResearchListsRepo
      const ws = yield* workspace
      const list = yield* newList(ws, "Order", { kind: "brands" })
      const brand = (key: string, minute: number): ResearchListMember => ({
        ...creator(key, minute, null)(list.id),
        handle: "",
        name: `Brand ${key}`
      })
      yield* repo.addMembers(list.id, [brand("9", 1), brand("1", 1), brand("5", 1)], at(1))
      yield* repo.addMembers(list.id, [brand("3", 2)], at(2))
      const members = yield* repo.members(list.id)
      expect(keysOf(members)).toEqual(["-:9", "-:1", "-:5", "-:3"])
      expect(members[0]).toEqual({
        listId: list.id,
        platform: null,
        key: "9",
        handle: "",
        name: "Brand 9",
        url: null,
        addedAt: at(1)
      })
      // A member removed and added again goes to the end.
      yield* repo.removeMembers(list.id, [{ platform: null, key: "1" }], at(3))
      yield* repo.addMembers(list.id, [brand("1", 4)], at(4))
      expect(keysOf(yield* repo.members(list.id))).toEqual(["-:9", "-:5", "-:3", "-:1"])
    })
  )

  it.effect("removes members by platform and key, answering how many went", () =>
    Effect.gen(function* () {
      const repo = yield* ResearchListsRepo
      const ws = yield* workspace
      const list = yield* newList(ws, "Remove")
      yield* repo.addMembers(
        list.id,
        [creator("a")(list.id), creator("b")(list.id), creator("a", 1, "youtube")(list.id)],
        at(1)
      )
      const removed = yield* repo.removeMembers(
        list.id,
        [
          { platform: "bluesky", key: "a" },
          { platform: "bluesky", key: "a" },
          { platform: "bluesky", key: "missing" },
          { platform: null, key: "b" }
        ],
        at(2)
      )
      expect(removed).toBe(1)
      expect(keysOf(yield* repo.members(list.id))).toEqual(["bluesky:b", "youtube:a"])
      expect(found(yield* repo.find(ws, list.id))).toMatchObject({ memberCount: 2, updatedAt: at(2) })
      // Nothing to remove: nothing changes.
      expect(yield* repo.removeMembers(list.id, [{ platform: "x", key: "b" }], at(3))).toBe(0)
      expect(yield* repo.removeMembers(list.id, [], at(3))).toBe(0)
      expect(found(yield* repo.find(ws, list.id)).updatedAt).toEqual(at(2))
    })
  )

  it.effect("pages a workspace's lists newest first, of one kind or all, with ties broken by id", () =>
    Effect.gen(function* () {
      const repo = yield* ResearchListsRepo
      const ws = yield* workspace
      const a = yield* newList(ws, "A", { minute: 1, id: unique("rl_a") })
      const b = yield* newList(ws, "B", { minute: 2, kind: "brands", id: unique("rl_b") })
      const c = yield* newList(ws, "C", { minute: 3, id: "rl_tie_1" })
      const d = yield* newList(ws, "D", { minute: 3, id: "rl_tie_2" })
      const e = yield* newList(ws, "E", { minute: 4, id: unique("rl_e") })
      yield* repo.addMembers(c.id, [creator("x")(c.id), creator("y")(c.id)], at(5))

      const first = yield* repo.listPage(ws, undefined, { limit: 2, after: undefined })
      expect(first.rows.map((l) => l.name)).toEqual(["E", "D"])
      expect(first.next).toEqual({ createdAt: d.createdAt, id: d.id })
      const second = yield* repo.listPage(ws, undefined, { limit: 2, after: first.next })
      expect(second.rows.map((l) => l.name)).toEqual(["C", "B"])
      expect(second.rows[0]?.memberCount).toBe(2)
      const third = yield* repo.listPage(ws, undefined, { limit: 2, after: second.next })
      expect(third.rows.map((l) => l.name)).toEqual(["A"])
      expect(third.next).toBeUndefined()

      const creators = yield* repo.listPage(ws, "creators", { limit: 10, after: undefined })
      expect(creators.rows.map((l) => l.id)).toEqual([e.id, d.id, c.id, a.id])
      expect(creators.next).toBeUndefined()
      const brands = yield* repo.listPage(ws, "brands", { limit: 10, after: undefined })
      expect(brands.rows.map((l) => l.id)).toEqual([b.id])
    })
  )

  it.effect("keeps workspaces apart, and a deleted workspace takes its lists and members along", () =>
    Effect.gen(function* () {
      const repo = yield* ResearchListsRepo
      const lean = yield* LeanSql
      const mine = yield* workspace
      const theirs = yield* workspace
      const list = yield* newList(mine, "Mine")
      yield* repo.addMembers(list.id, [creator("a")(list.id)], at(1))

      expect(yield* repo.find(theirs, list.id)).toEqual(Option.none())
      expect(yield* repo.lock(theirs, list.id)).toEqual(Option.none())
      expect(yield* repo.findByName(theirs, "creators", "Mine")).toEqual(Option.none())
      expect((yield* repo.listPage(theirs, undefined, { limit: 10, after: undefined })).rows).toEqual([])
      expect(yield* repo.countLists(theirs)).toBe(0)

      yield* lean`DELETE FROM workspaces WHERE id = ${mine}`.pipe(Effect.orDie)
      expect(yield* repo.find(mine, list.id)).toEqual(Option.none())
      expect(yield* repo.members(list.id)).toEqual([])
    })
  )

  it.effect("locks the list inside a transaction and answers it with its count", () =>
    Effect.gen(function* () {
      const repo = yield* ResearchListsRepo
      const tx = yield* Transactor
      const ws = yield* workspace
      const list = yield* newList(ws, "Locked")
      const added = yield* tx.withTransaction(
        Effect.gen(function* () {
          const locked = found(yield* repo.lock(ws, list.id))
          expect(locked.memberCount).toBe(0)
          return yield* repo.addMembers(list.id, [creator("a")(list.id)], at(1))
        })
      )
      expect(added).toBe(1)
      expect(found(yield* repo.find(ws, list.id)).memberCount).toBe(1)
      expect(yield* tx.withTransaction(repo.lock(ws, "rl_missing"))).toEqual(Option.none())
    })
  )

  it.effect("numbers members apart when adds run at once, each under the list's lock", () =>
    Effect.gen(function* () {
      const repo = yield* ResearchListsRepo
      const tx = yield* Transactor
      const lean = yield* LeanSql
      const ws = yield* workspace
      const list = yield* newList(ws, "Busy")
      const keys = Array.from({ length: 12 }, (_, i) => `k${i}`)
      const added = yield* Effect.forEach(
        keys,
        (key) =>
          tx.withTransaction(
            Effect.zipRight(repo.lock(ws, list.id), repo.addMembers(list.id, [creator(key)(list.id)], at(1)))
          ),
        { concurrency: "unbounded" }
      )
      expect(added).toEqual(keys.map(() => 1))
      expect([...keysOf(yield* repo.members(list.id))].sort()).toEqual(keys.map((k) => `bluesky:${k}`).sort())
      const positions = yield* lean<{ readonly n: number }>`
        SELECT count(DISTINCT position)::int AS n FROM research_list_members WHERE list_id = ${list.id}`.pipe(
        Effect.orDie
      )
      expect(positions[0]?.n).toBe(keys.length)
    })
  )
})
