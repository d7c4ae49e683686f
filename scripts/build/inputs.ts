import {createHash} from 'node:crypto'
import {readdirSync, readFileSync, statSync} from 'node:fs'
import {join, relative} from 'node:path'

/** Folders whose every file may reach a build (tests excepted). */
const inputFolders = ['web', 'studio', 'schemas', 'shared', 'scripts/build']
/** Single files the build reads: configs, the lockfile (the bundled packages' versions). */
const inputFiles = [
  'package.json',
  'package-lock.json',
  'sanity.config.ts',
  'sanity.cli.ts',
  'vite.config.ts',
  'tsconfig.json',
  'scripts/build.ts',
]
/** Environment the Studio's build reads (studio/vite.studio.ts: .env files and variables). */
const envPrefixes = ['SANITY_STUDIO_', 'VITE_']
const isTest = /\.test\.tsx?$/

function filesUnder(root: string, folder: string): string[] {
  let entries
  try {
    entries = readdirSync(join(root, folder), {recursive: true, withFileTypes: true})
  } catch {
    return []
  }
  return entries
    .filter((entry) => entry.isFile() && !isTest.test(entry.name))
    .map((entry) => relative(root, join(entry.parentPath, entry.name)))
    .filter((file) => !file.split('/').includes('node_modules'))
}

function exists(file: string): boolean {
  try {
    return statSync(file).isFile()
  } catch {
    return false
  }
}

/**
 * A fingerprint of everything a build of `root` depends on: the sources and configs (path and
 * bytes), the .env files and SANITY_STUDIO_* / VITE_* variables, and the Node version. Equal
 * fingerprints mean the build would come out the same, so `npm start` can reuse it.
 */
export function inputsHash(root: string, env: NodeJS.ProcessEnv = process.env): string {
  const envFiles = readdirSync(root).filter((name) => name.startsWith('.env'))
  const files = [
    ...inputFolders.flatMap((folder) => filesUnder(root, folder)),
    ...[...inputFiles, ...envFiles].filter((file) => exists(join(root, file))),
  ].sort()
  const hash = createHash('sha256')
  hash.update(`node ${process.version}\n`)
  for (const [name, value] of Object.entries(env).sort(([a], [b]) => (a < b ? -1 : 1)))
    if (envPrefixes.some((prefix) => name.startsWith(prefix))) hash.update(`${name}=${value}\n`)
  for (const file of files) {
    const bytes = readFileSync(join(root, file))
    hash.update(`${file}\0${bytes.length}\0`)
    hash.update(bytes)
  }
  return hash.digest('hex')
}
