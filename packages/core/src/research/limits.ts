/** Research's limits, enforced at the tools' edge and in the services. */
export const RESEARCH_LIMITS = {
  /** Longest search query or creator reference, in characters. */
  queryCharacters: 200,
  /** Most rows one answer carries. */
  rows: 100,
  /** Most posts read for one creator's analysis. */
  postsPerCreator: 100,
  /** Most creators (or brands) on one list. */
  listMembers: 200,
  /** Most lists of one workspace (both kinds). */
  listsPerWorkspace: 100,
  /** Longest list name. */
  listNameCharacters: 100,
  /** Most creators or brands one save or remove call names. */
  perCall: 50,
  /** Most creators of a list analysed or studied in one call (the first ones added). */
  creatorsPerStudy: 20,
  /** Creators read at once from outside sources in one call. */
  concurrency: 4
} as const
