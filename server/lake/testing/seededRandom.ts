/**
 * A deterministic pseudo-random sequence in [0, 1) (mulberry32, a public-domain 32-bit
 * generator), for the text-search tests that compare against groq-js on generated documents:
 * the seed in a failure's message replays it exactly, which `Math.random` cannot.
 */
export function seededRandom(seed: number): () => number {
  let state = seed
  return () => {
    state = (state + 0x6d2b79f5) | 0
    let t = Math.imul(state ^ (state >>> 15), 1 | state)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}
