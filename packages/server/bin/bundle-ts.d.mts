/** A bundle written by `bundleSources`: its module URL, and how to delete its files once it runs. */
export interface WrittenBundle {
  readonly url: string
  readonly release: () => Promise<void>
}

/** The function a bundle calls first thing when it runs (its banner), if set. */
export declare const BUNDLE_RUNNING: unique symbol

/** Where bundles are written by default: the server package's `node_modules/.cache/svc/`. */
export declare const defaultBundleDir: string

/**
 * Bundles the TypeScript module `entry` and what it imports of our sources into `dir`; `undefined` when `dir`
 * cannot be written.
 */
export declare const bundleSources: (entry: URL, dir?: string) => Promise<WrittenBundle | undefined>
