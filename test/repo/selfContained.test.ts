import {execFileSync} from 'node:child_process'
import {readFileSync} from 'node:fs'
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
})
