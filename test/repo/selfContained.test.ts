import {execFileSync} from 'node:child_process'
import {readFileSync} from 'node:fs'
import {dirname, join, relative} from 'node:path'
import {describe, expect, it} from 'vitest'

/**
 * The repository stands alone: product code cites docs/requirements.md and
 * docs/studio-protocol.md, never a file outside the checkout or a machine path.
 */
const root = new URL('../..', import.meta.url).pathname
// The shared folder beside the checkout (seed spec, reviews, tooling notes, the GROQ suite), not
// the repository's own shared/ module.
const outside = [
  /shared\/(seed|data|reviews|hooks|TOOLING|DESIGN|CONVENTIONS|studio-api)/,
  /portfolio-blog-spec/,
  /studio-api\.md/,
  /\bspec §/,
  /\/work\//,
]

function productFiles(): string[] {
  const files = execFileSync('git', ['ls-files', 'server', 'web', 'studio', 'schemas'], {
    cwd: root,
    encoding: 'utf8',
  })
  return files
    .split('\n')
    .filter((file) => /\.(ts|tsx|html|css|svg)$/.test(file))
    .filter((file) => !/\.test\.tsx?$|\/testing\/|\.child\.ts$/.test(file))
}

describe('the repository stands alone', () => {
  it('no product file in server/, web/, studio/ or schemas/ refers to anything outside it', () => {
    const offenders = productFiles().flatMap((file) =>
      readFileSync(`${root}${file}`, 'utf8')
        .split('\n')
        .flatMap((line, i) =>
          outside.some((pattern) => pattern.test(line)) ? [`${file}:${i + 1}: ${line.trim()}`] : [],
        ),
    )
    expect(offenders).toEqual([])
  })

  it('no source, test, bench or script file reads a path above the repository', () => {
    const offenders = codeFiles().flatMap((file) =>
      readFileSync(join(root, file), 'utf8')
        .split('\n')
        .flatMap((line, i) => {
          if (/^\s*(\/\/|\*|\/\*)/.test(line)) return [] // a comment reads nothing
          if (!readsAbove(file, line) || allowedAbove.includes(file)) return []
          return [`${file}:${i + 1}: ${line.trim()}`]
        }),
    )
    expect(offenders).toEqual([])
  })
})

/**
 * The one file that may name a path above the repository: the GROQ suite's locator, which looks
 * for the workspace's copy of that public data beside the checkout. `npm test` never runs it; only
 * `npm run test:groq-suite` and `npm run bench:lake` do.
 */
const allowedAbove = ['bench/groqSuite.ts']

function codeFiles(): string[] {
  const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
    cwd: root,
    encoding: 'utf8',
  })
  return files.split('\n').filter((file) => /\.(ts|tsx|js|mjs|cjs)$/.test(file))
}

/**
 * Whether a line names a path that leaves the repository: an absolute workspace or home path, or
 * relative segments (`'../..'`, or `'..', '..'` as path arguments) that climb above the root from
 * the file's own folder.
 */
function readsAbove(file: string, line: string): boolean {
  if (/['"`](\/work\/|\/root\/|~\/)/.test(line)) return true
  const literals = [...line.matchAll(/'([^'\n]*)'|"([^"\n]*)"/g)].map((m) => m[1] ?? m[2])
  let climbs = 0
  for (const literal of literals) {
    const ups = literal.match(/^(\.\.(\/|$))+/)?.[0]
    if (ups) climbs += ups.split('..').length - 1
  }
  if (climbs === 0) return false
  const target = join(root, dirname(file), ...Array.from({length: climbs}, () => '..'))
  return relative(root, target).startsWith('..')
}
