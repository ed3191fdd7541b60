// madge ships no type declarations; these cover the part of its documented API the import-graph test uses.
declare module "madge" {
  interface MadgeConfig {
    readonly fileExtensions?: ReadonlyArray<string>
    /** Path of a tsconfig.json whose compiler options resolve the imports (`./x.js` to `./x.ts`). */
    readonly tsConfig?: string
    readonly detectiveOptions?: {
      readonly ts?: { readonly skipTypeImports?: boolean }
    }
  }

  interface MadgeInstance {
    /** Each file, relative to the scanned folder, with the files it imports. */
    obj(): Record<string, Array<string>>
    /** Imports that could not be resolved to a file (and so are missing from `obj`). */
    warnings(): { skipped: Array<string> }
  }

  function madge(path: string, config?: MadgeConfig): Promise<MadgeInstance>
  export = madge
}
