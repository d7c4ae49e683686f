import {execFile} from 'node:child_process'
import {createHash} from 'node:crypto'
import {readdirSync, readFileSync, statSync} from 'node:fs'
import {join, relative} from 'node:path'
import {fileURLToPath} from 'node:url'

export interface CliRun {
  code: number
  stdout: string
  stderr: string
}

/** `npm run lake:backup` / `lake:restore` as a separate process, as the owner runs them. */
export function runCli(
  name: 'backup' | 'restore',
  args: string[],
  env: Record<string, string>,
): Promise<CliRun> {
  const cli = fileURLToPath(new URL(`../cli/${name}.ts`, import.meta.url))
  const {LAKE_TOKEN: _ignored, ...inherited} = process.env
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [cli, ...args],
      {env: {...inherited, ...env}, timeout: 60_000},
      (error, stdout, stderr) => {
        resolve({code: error ? Number(error.code ?? 1) : 0, stdout, stderr})
      },
    )
  })
}

/** Every file under `dir` (relative path → sha256 and mode): what "untouched" compares. */
export function treeOf(dir: string): Record<string, string> {
  const tree: Record<string, string> = {}
  for (const entry of readdirSync(dir, {recursive: true, withFileTypes: true})) {
    const path = join(entry.parentPath, entry.name)
    const key = relative(dir, path)
    const mode = (statSync(path).mode & 0o777).toString(8)
    tree[key] = entry.isFile()
      ? `${createHash('sha256').update(readFileSync(path)).digest('hex')} ${mode}`
      : `dir ${mode}`
  }
  return tree
}
