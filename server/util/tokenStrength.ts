import {minLakeTokenLength} from '../../shared/ownerAccess.ts'

/**
 * Bits of surprise per character the owner token must show (Shannon entropy of its own
 * characters). A random 32-character hex token measures about 3.7, and never under 2.8 in a
 * million tries (at 3, one in 8,000 `openssl rand -hex 16` tokens was refused); base64url about
 * 4.6; `aaaa…` measures 0. A repeated word (`passwordpassword…`, 2.75) is refused as a repetition.
 */
const minBitsPerCharacter = 2.5
/**
 * At most this share of neighbouring characters may repeat or step by one (`aabb…`, `abcd…`,
 * `1234…` measure 0.97 and more): about 0.19 for random hex, 0.05 for base64url. At 0.5 one random
 * 32-character hex token in 40,000 was refused (a binomial tail over 31 neighbours); at 0.75 it is
 * about one in 3 × 10^11.
 */
const maxSteppingShare = 0.75

/**
 * Why `token` is too weak to be the owner token, or undefined. It guards every write and is the
 * Studio's password, so it must be long and look random: 32 × `a` passed the length check alone
 * (security review 2, finding 8). The rule is documented in README.md's settings table.
 */
export function weakTokenReason(token: string): string | undefined {
  if (token.length < minLakeTokenLength) return `is shorter than ${minLakeTokenLength} characters`
  const counts = new Map<string, number>()
  for (const character of token) counts.set(character, (counts.get(character) ?? 0) + 1)
  let bits = 0
  for (const count of counts.values()) {
    const p = count / token.length
    bits -= p * Math.log2(p)
  }
  if (bits < minBitsPerCharacter) return 'repeats too few different characters'
  if (isRepetition(token)) return 'repeats a shorter string'
  let stepping = 0
  for (let i = 1; i < token.length; i++)
    if (Math.abs(token.charCodeAt(i) - token.charCodeAt(i - 1)) <= 1) stepping++
  if (stepping / (token.length - 1) > maxSteppingShare) return 'is a run or sequence of characters'
  return undefined
}

/** Whether `token` is a shorter string written over and over (`passwordpassword…`). */
function isRepetition(token: string): boolean {
  for (let period = 1; period <= token.length / 2; period++) {
    let repeats = true
    for (let i = period; i < token.length && repeats; i++) repeats = token[i] === token[i - period]
    if (repeats) return true
  }
  return false
}
