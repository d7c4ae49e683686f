import {
  existsSync,
  lstatSync,
  readdirSync,
  readlinkSync,
  realpathSync,
  renameSync,
  rmSync,
  symlinkSync,
} from 'node:fs'
import {basename, join} from 'node:path'
import {buildsName, distName} from '../../server/build/layout.ts'

/**
 * The folder name (under .builds/) of the build `dist` points at now, moving a `dist` folder
 * from before builds had folders of their own into .builds/ first (once; a server started on it
 * keeps its open files, and serves what it already read).
 */
export function currentBuild(root: string): string | undefined {
  const dist = join(root, distName)
  let stat
  try {
    stat = lstatSync(dist)
  } catch {
    return undefined
  }
  if (stat.isSymbolicLink()) return existsSync(dist) ? basename(realpathSync(dist)) : undefined
  const name = `before-${new Date().toISOString().replace(/[:.]/g, '-')}`
  renameSync(dist, join(root, buildsName, name))
  return name
}

/**
 * Points `dist` at `.builds/<name>` with one rename of a new link over the old one: a reader
 * (a server starting, a test reading dist/client) sees the old build or the new, never neither.
 */
export function swapIn(root: string, name: string): void {
  const next = join(root, `${distName}.${process.pid}.link`)
  rmSync(next, {force: true})
  symlinkSync(join(buildsName, name), next)
  renameSync(next, join(root, distName))
}

/**
 * Every folder some process on this machine holds open (a running server holds its build's,
 * server/build/served.ts), or undefined where there is no /proc to ask (macOS).
 */
function foldersHeldOpen(): Set<string> | undefined {
  let pids: string[]
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name))
  } catch {
    return undefined
  }
  const held = new Set<string>()
  for (const pid of pids) {
    let fds: string[]
    try {
      fds = readdirSync(`/proc/${pid}/fd`)
    } catch {
      continue
    }
    for (const fd of fds) {
      try {
        held.add(readlinkSync(`/proc/${pid}/fd/${fd}`))
      } catch {
        // The descriptor closed meanwhile.
      }
    }
  }
  return held
}

/**
 * Deletes old builds: every folder in .builds/ but the current one, the one before it, and any
 * a running server still serves. Called with the build lock held, so no build is being written.
 */
export function removeOldBuilds(root: string, keep: string[]): string[] {
  const folder = join(root, buildsName)
  const held = foldersHeldOpen()
  const removed: string[] = []
  for (const entry of readdirSync(folder, {withFileTypes: true})) {
    if (!entry.isDirectory() || keep.includes(entry.name)) continue
    const path = join(folder, entry.name)
    if (held?.has(realpathSync(path))) continue
    rmSync(path, {recursive: true, force: true})
    removed.push(entry.name)
  }
  return removed
}
