import {closeSync, existsSync, openSync, realpathSync, statSync} from 'node:fs'
import {basename, dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {buildsName, distName, readStamp} from './layout.ts'

const repoRoot = fileURLToPath(new URL('../../', import.meta.url))

/** The build this process serves, fixed when it starts (server/build/layout.ts). */
export interface ServedBuild {
  /** The build's own folder (dist/ resolved), with client/, server/ and studio/. */
  dir: string
  /**
   * The build that was current before it, when it is still on disk: its hashed files
   * (`assets/…`) are served too, so a page or a Studio loaded before an upgrade can still fetch
   * the chunks it names after the restart.
   */
  previous?: string
  /** Lets go of the folders (the builder may then delete them). */
  release(): void
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory()
  } catch {
    return false
  }
}

/**
 * Follows `dist` to the build it points at now, once: a later `npm run build` swaps the link,
 * and this process goes on serving the build it started with until it is restarted. It holds
 * the folders open, which tells the builder's clean-up (scripts/build/cleanup.ts) that they are
 * in use. Without a build yet, `dist` itself: a build made later is served as it appears.
 */
export function resolveServedBuild(root = repoRoot): ServedBuild {
  const link = join(root, distName)
  if (!existsSync(link)) return {dir: link, release: () => {}}
  const dir = realpathSync(link)
  const previousName = readStamp(dir)?.previous
  const previousDir =
    previousName === undefined ? undefined : join(dirname(dir), basename(previousName))
  const previous =
    previousDir !== undefined &&
    basename(dirname(dir)) === buildsName &&
    isDirectory(previousDir) &&
    previousDir !== dir
      ? previousDir
      : undefined
  const held = [dir, ...(previous ? [previous] : [])].flatMap((folder) => {
    try {
      return [openSync(folder, 'r')]
    } catch {
      return []
    }
  })
  let released = false
  return {
    dir,
    ...(previous ? {previous} : {}),
    release: () => {
      if (released) return
      released = true
      for (const fd of held) closeSync(fd)
    },
  }
}
