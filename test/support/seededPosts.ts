import {readFileSync} from 'node:fs'
import {join} from 'node:path'

/** How many posts the sample content seeds (content/seed.ndjson), for tests that count them. */
export function seededPostCount(): number {
  const seed = readFileSync(join(import.meta.dirname, '..', '..', 'content', 'seed.ndjson'), 'utf8')
  return seed
    .split('\n')
    .filter((line) => line.trim() !== '')
    .filter((line) => (JSON.parse(line) as {_type?: string})._type === 'post').length
}
