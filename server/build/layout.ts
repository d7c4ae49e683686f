import {readFileSync} from 'node:fs'
import {join} from 'node:path'

/**
 * Where builds live (scripts/build.ts writes them, the server reads them): every build is a
 * folder of its own under `.builds/`, and `dist` is a symbolic link to the current one. A new
 * build is written beside the others and swapped in by renaming a new link over `dist`, so a
 * reader sees the old build or the new one, never half of either.
 */
export const distName = 'dist'
export const buildsName = '.builds'
/** What a finished build records about itself, in its own folder. */
export const stampName = 'build.json'

export interface BuildStamp {
  /** sha256 of everything the build read (scripts/build/inputs.ts): equal means up to date. */
  inputs: string
  builtAt: string
  /** The folder name (under .builds/) of the build that was current before this one. */
  previous?: string
}

/** The stamp of the build in `dir`, or undefined (no build, or one from before stamps). */
export function readStamp(dir: string): BuildStamp | undefined {
  try {
    const stamp: unknown = JSON.parse(readFileSync(join(dir, stampName), 'utf8'))
    if (typeof stamp !== 'object' || stamp === null) return undefined
    const inputs = 'inputs' in stamp ? stamp.inputs : undefined
    const builtAt = 'builtAt' in stamp ? stamp.builtAt : undefined
    const previous = 'previous' in stamp ? stamp.previous : undefined
    if (typeof inputs !== 'string' || typeof builtAt !== 'string') return undefined
    return {inputs, builtAt, ...(typeof previous === 'string' ? {previous} : {})}
  } catch {
    return undefined
  }
}
