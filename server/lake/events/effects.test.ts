import {applyPatch, incremental} from 'mendoza'
import {describe, expect, it} from 'vitest'
import {deepEqual, documentEffects, mendozaPatch} from './effects.ts'
import type {Doc} from '../types.ts'

const post: Doc = {
  _id: 'post-1',
  _type: 'post',
  _rev: 'r1',
  title: 'A winter crossing of the Zoji La, told slowly and with some regret',
  tags: ['snow', 'pass'],
  slug: {_type: 'slug', current: 'zoji-la'},
  body: [
    {
      _key: 'a',
      _type: 'block',
      children: [{_key: 's1', _type: 'span', text: 'First paragraph, quite long indeed.'}],
    },
    {_key: 'b', _type: 'block', children: [{_key: 's2', _type: 'span', text: 'Second paragraph.'}]},
  ],
}

function roundTrip(before: Doc | null, after: Doc | null) {
  const {apply, revert} = documentEffects(before, after)
  const strip = (doc: Doc | null) =>
    doc ? Object.fromEntries(Object.entries(doc).filter(([k]) => k !== '_rev')) : null
  expect(applyPatch(strip(before), apply)).toEqual(strip(after))
  expect(applyPatch(strip(after), revert)).toEqual(strip(before))
  // The Studio's timeline uses the incremental patcher; it must agree.
  const wrapped = incremental.wrap(strip(before), 'meta')
  expect(incremental.unwrap(incremental.applyPatch(wrapped, apply, 'tx'))).toEqual(strip(after))
  return {apply, revert}
}

describe('mendoza effects', () => {
  it('encodes create and delete as whole values', () => {
    const {apply, revert} = roundTrip(null, post)
    expect(apply[0]).toBe(0)
    expect(revert).toEqual([0, null])
    roundTrip(post, null)
  })

  it('encodes a title edit as a string splice, not a new document', () => {
    const after = {
      ...post,
      _rev: 'r2',
      title: 'A winter crossing of the Zoji La, told quickly and with some regret',
    }
    const {apply} = roundTrip(post, after)
    expect(JSON.stringify(apply)).not.toContain('Second paragraph')
    expect(JSON.stringify(apply)).toContain('"quick"')
  })

  it('handles added, removed and nested fields, keyed array moves and inserts', () => {
    const after: Doc = {
      ...post,
      tags: ['snow', 'pass', 'ladakh'],
      slug: {_type: 'slug', current: 'zoji-la-winter'},
      excerpt: 'New excerpt',
      body: [
        post.body instanceof Array ? post.body[1] : null,
        {_key: 'c', _type: 'block', children: []},
        {
          _key: 'a',
          _type: 'block',
          children: [{_key: 's1', _type: 'span', text: 'First paragraph, quite long indeed!'}],
        },
      ],
    }
    delete after.title
    roundTrip(post, after)
  })

  it('keeps multi-byte text intact (UTF-8 offsets)', () => {
    const before: Doc = {
      _id: 'x',
      _type: 't',
      text: 'Srinagar — ڈل جھیل 🚣 on a still morning, long enough to diff',
    }
    const after: Doc = {
      _id: 'x',
      _type: 't',
      text: 'Srinagar — ڈل جھیل 🚣🚣 on a still evening, long enough to diff',
    }
    roundTrip(before, after)
  })

  it('round-trips random edits', () => {
    let seed = 7
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31
    const words = ['alpha', 'bėta', 'gamma 🏔', 'delta delta delta delta delta delta delta', '']
    const value = (depth: number): unknown => {
      const r = random()
      if (depth > 2 || r < 0.3)
        return words[Math.floor(random() * words.length)].repeat(1 + Math.floor(random() * 3))
      if (r < 0.45) return Math.floor(random() * 100)
      if (r < 0.7)
        return Array.from({length: Math.floor(random() * 4)}, (_, i) =>
          random() < 0.5 ? {_key: `k${i}`, v: value(depth + 1)} : value(depth + 1),
        )
      return Object.fromEntries(
        Array.from({length: Math.floor(random() * 4)}, (_, i) => [`f${i}`, value(depth + 1)]),
      )
    }
    for (let i = 0; i < 300; i++) {
      const a = {_id: 'd', _type: 't', ...(value(0) as object), x: value(1)} as Doc
      const b = {_id: 'd', _type: 't', ...(value(0) as object), x: value(1)} as Doc
      roundTrip(a, b)
      const patch = mendozaPatch(a, a)
      expect(deepEqual(applyPatch(a, patch), a)).toBe(true)
    }
  })
})
