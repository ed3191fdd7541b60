/** One entry of the event log, written in the same transaction as the change it records. */
export interface EventRecord {
  readonly id: string
  readonly workspaceId: string
  readonly type: string
  readonly createdAt: Date
  readonly data: Readonly<Record<string, unknown>>
}
