import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import semver from 'semver'
import {describe, expect, it} from 'vitest'

/**
 * `npm ci` installs the committed lockfile as it is, or refuses it when it disagrees with
 * package.json ("Missing: <pkg> from lock file", "Invalid: lock file's <pkg>@x does not satisfy
 * <pkg>@y"). These checks make the same judgement offline, so a disagreement fails `npm test`
 * instead of a deploy: the root's declared dependencies match package.json, and every dependency
 * of every locked package — optional platform packages of every OS included — resolves to a locked
 * package whose version satisfies it, the way Node resolves `node_modules`.
 */
const root = join(import.meta.dirname, '..', '..')
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Manifest
const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as Lockfile

interface Manifest {
  dependencies?: Record<string, string>
  devDependencies?: Record<string, string>
  optionalDependencies?: Record<string, string>
  peerDependencies?: Record<string, string>
  peerDependenciesMeta?: Record<string, {optional?: boolean}>
  overrides?: Record<string, string>
}
interface LockedPackage extends Manifest {
  version?: string
  link?: boolean
  dev?: boolean
}
interface Lockfile {
  lockfileVersion: number
  packages: Record<string, LockedPackage>
}

const kinds = [
  'dependencies',
  'devDependencies',
  'optionalDependencies',
  'peerDependencies',
] as const

/** The locked path a dependency of `from` resolves to: its own node_modules, then each parent's. */
function resolveLocked(from: string, name: string): string | undefined {
  for (let dir = from; ; dir = dir.slice(0, Math.max(0, dir.lastIndexOf('/node_modules/')))) {
    const candidate = dir ? `${dir}/node_modules/${name}` : `node_modules/${name}`
    if (lock.packages[candidate]) return candidate
    if (!dir) return undefined
  }
}

/** A spec the registry answers with a version (not a git, file, alias or tag spec). */
const isRange = (spec: string) => semver.validRange(spec) !== null

describe('the lockfile', () => {
  it('is lockfileVersion 3 and declares exactly the dependencies of package.json', () => {
    expect(lock.lockfileVersion).toBe(3)
    const rootEntry = lock.packages['']
    for (const kind of kinds) expect(rootEntry[kind] ?? {}, kind).toEqual(manifest[kind] ?? {})
  })

  it('locks every dependency of every package, at a version that satisfies it', () => {
    const overrides = manifest.overrides ?? {}
    const problems: string[] = []
    for (const [path, entry] of Object.entries(lock.packages)) {
      if (entry.link) continue
      const optionalPeers = entry.peerDependenciesMeta ?? {}
      for (const kind of kinds) {
        if (path === '' && kind === 'peerDependencies') continue
        for (const [name, spec] of Object.entries(entry[kind] ?? {})) {
          if (kind === 'peerDependencies' && optionalPeers[name]?.optional) continue
          const found = resolveLocked(path, name)
          const version = found && lock.packages[found].version
          if (!found) problems.push(`Missing: ${name} (${kind} of ${path || 'the root'})`)
          else if (
            version &&
            isRange(spec) &&
            !(name in overrides) &&
            !semver.satisfies(version, spec, {includePrerelease: true})
          )
            problems.push(`Invalid: ${found}@${version} does not satisfy ${name}@${spec}`)
        }
      }
    }
    expect(problems).toEqual([])
  })
})
