/**
 * Every benchmark, in the order `npm run bench` runs them and bench/results/latest.md lists
 * them: each is bench/<name>.ts exporting run() (bench/types.ts).
 */
export const benches = [
  'lake',
  'web',
  'images',
  'studio',
  'server',
  'scale',
  'memory',
  'hostile',
  'start',
  'newsletter',
  'social',
  'search',
  'readers',
]
