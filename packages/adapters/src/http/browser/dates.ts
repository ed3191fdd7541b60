/** A moment as the pages show it, to the minute in UTC (`2026-11-28 17:14`), or `—` for none. */
export const utcMinute = (date: Date | null): string =>
  date === null ? "—" : date.toISOString().slice(0, 16).replace("T", " ")
