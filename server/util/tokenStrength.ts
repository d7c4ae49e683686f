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
 * Bits the owner token must be worth to a guesser who knows how people choose passwords
 * (`entropyBits`): 2^128 guesses is out of reach at any rate. A 32-character hex token measures
 * 165, 32 characters of base64url about 190, the generated `sk…` token 260; the passphrase
 * `correct horse battery staple 2026` measures 86 and is refused (security review 3, L3).
 */
const minEntropyBits = 128
/**
 * What a guesser pays for one word of a passphrase: a draw from a list of 2^17 (131,072) words,
 * more than a large English dictionary holds, so a word is never counted for less than it is.
 */
const wordBits = 17

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
  const worth = entropyBits(token)
  if (worth < minEntropyBits)
    return `is worth about ${Math.floor(worth)} bits to a guesser, under ${minEntropyBits}`
  return undefined
}

/** Bits per character of a string drawn at random from the character classes it uses. */
function poolBits(text: string): number {
  let pool = 0
  if (/[a-z]/.test(text)) pool += 26
  if (/[A-Z]/.test(text)) pool += 26
  if (/[0-9]/.test(text)) pool += 10
  if (/[^A-Za-z0-9]/.test(text)) pool += 33
  return Math.log2(pool)
}

/**
 * An estimate of what guessing `token` costs, in bits: the cheaper of two guesses at how it was
 * made. Either its characters were drawn at random from the classes it uses, or it is words
 * between spaces or punctuation (when such words hold half its characters): each all-letter run of one case (`horse`, `Horse`, `HORSE`) of
 * up to 15 letters is then one word of a large list (`wordBits`) if that is cheaper than its
 * letters, any other run is random characters of its own classes, and the separators cost one
 * choice. Words run together (`correcthorse…`) are not seen as words: a known limit
 * (docs/security.md, "Settings").
 */
function entropyBits(token: string): number {
  const random = token.length * poolBits(token)
  const runs = token.split(/[^A-Za-z0-9]+/).filter((run) => run !== '')
  const isWord = (run: string) => run.length <= 15 && /^(?:[a-z]+|[A-Z][a-z]*|[A-Z]+)$/.test(run)
  // Words make up most of a passphrase; a random token has at most a short one by chance.
  const inWords = runs.filter(isWord).reduce((sum, run) => sum + run.length, 0)
  if (inWords * 2 < token.length) return random
  let phrase = Math.log2(33)
  for (const run of runs) {
    const letters = run.length * poolBits(run)
    phrase += isWord(run) ? Math.min(wordBits, letters) : letters
  }
  return Math.min(random, phrase)
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
