/** Where bundles are written by default: the server package's `node_modules/.cache/svc/`. */
export declare const defaultBundleDir: string

/** The bundles kept however long ago a start used them: the newest few. */
export declare const KEEP_RECENT: number

/** Any other bundle, and a partial write, is deleted once unused this long. */
export declare const UNUSED_FOR_MS: number

/**
 * Bundles the TypeScript module `entry` and what it imports of our sources into `dir`, and answers the bundle's
 * URL; `undefined` when `dir` cannot be written.
 */
export declare const bundleSources: (entry: URL, dir?: string) => Promise<string | undefined>
