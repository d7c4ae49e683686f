import {describe, expect, it} from 'vitest'
import {parseTextQuery} from '../../../shared/textQuerySyntax.ts'
import type {Doc} from '../types.ts'
import {evaluateJson, parseQuery} from '../groq.ts'
import {isCurrent, satisfies, searchableText, wordGeneration} from './textMatch.ts'

const matches = (strings: string[], query: string) =>
  satisfies(searchableText(strings), parseTextQuery(query))

describe('texts kept as word numbers', () => {
  it('matches words, phrases, prefixes and exclusions as the strings would', () => {
    const texts = ['The walnut orchards', 'Déjà vu, again']
    expect(matches(texts, 'walnut')).toBe(true)
    expect(matches(texts, 'WALNUT orchards')).toBe(true)
    expect(matches(texts, '"walnut orchards"')).toBe(true)
    expect(matches(texts, '"orchards walnut"')).toBe(false)
    expect(matches(texts, 'orch*')).toBe(true)
    expect(matches(texts, '"the wal"*')).toBe(true)
    expect(matches(texts, 'deja')).toBe(true)
    expect(matches(texts, 'walnut -vu')).toBe(false)
    expect(matches(texts, 'pecan')).toBe(false)
    expect(matches(texts, 'pec*')).toBe(false)
  })

  it('never matches a phrase across two strings', () => {
    expect(matches(['first orchards', 'deja second'], '"orchards deja"')).toBe(false)
    expect(matches(['first orchards', 'deja second'], '"orchards dej"*')).toBe(false)
    expect(matches(['orchards deja'], '"orchards dej"*')).toBe(true)
  })

  it('answers the same after the numbering restarts past a million distinct words', async () => {
    const docs: Doc[] = [
      {_id: 'a', _type: 'post', title: 'Walnut orchards', body: 'under the snow'},
      {_id: 'b', _type: 'post', title: 'Apple terraces', body: 'walnut shells'},
      {_id: 'c', _type: 'post', title: 'A pass', body: 'where snow lingers'},
    ]
    const query = `*[[title, body] match text::query($q)] | order(_id) {_id}`
    const run = async (q: string) =>
      JSON.parse(
        await evaluateJson(parseQuery(query, {q}), docs, {q}, {maxResultBytes: 1_000_000}),
      ) as unknown
    const before = await Promise.all(['walnut', '"walnut orchards"', 'sno*', 'snow -pass'].map(run))
    expect(before[0]).toEqual([{_id: 'a'}, {_id: 'b'}])
    const kept = searchableText(['walnut orchards'])
    const generation = wordGeneration()
    // A million and one words no text had: folding the next text restarts the numbering.
    const many = Array.from({length: 1_000_001}, (_, i) => `zz${i.toString(36)}`).join(' ')
    searchableText([many])
    const after = searchableText(['walnut'])
    expect(wordGeneration()).toBe(generation + 1)
    expect(isCurrent(kept)).toBe(false)
    expect(isCurrent(after)).toBe(true)
    // The documents' kept texts are of the old numbering: folded again, with the same answers.
    const again = await Promise.all(['walnut', '"walnut orchards"', 'sno*', 'snow -pass'].map(run))
    expect(again).toEqual(before)
  })
})
