import {describe, expect, it} from 'vitest'
import {defaultPerspective, documentsFor} from './perspective.ts'
import type {Doc} from './types.ts'

// Which documents each perspective shows, to the owner and to anonymous readers.
const docs: Doc[] = [
  {_id: 'a', _type: 'post', title: 'A published'},
  {_id: 'drafts.a', _type: 'post', title: 'A draft'},
  {_id: 'drafts.b', _type: 'post', title: 'B draft only'},
  {_id: 'inbox.m', _type: 'message'},
  {_id: 'versions.r1.a', _type: 'post'},
]
const ids = (list: Doc[]) => list.map((d) => d._id)

describe('documentsFor', () => {
  it('raw: everything for the owner, only undotted ids for anonymous readers', () => {
    expect(ids(documentsFor(docs, 'raw', true))).toEqual([
      'a',
      'drafts.a',
      'drafts.b',
      'inbox.m',
      'versions.r1.a',
    ])
    expect(ids(documentsFor(docs, 'raw', false))).toEqual(['a'])
  })

  it('published: no drafts or versions; other private ids (inbox.*) only for the owner', () => {
    expect(ids(documentsFor(docs, 'published', true))).toEqual(['a', 'inbox.m'])
    expect(ids(documentsFor(docs, 'published', false))).toEqual(['a'])
  })

  it('drafts: each draft over its published id with _originalId; private ids only for the owner', () => {
    expect(documentsFor(docs, 'drafts', true)).toEqual([
      {_id: 'a', _type: 'post', title: 'A draft', _originalId: 'drafts.a'},
      {_id: 'b', _type: 'post', title: 'B draft only', _originalId: 'drafts.b'},
      {_id: 'inbox.m', _type: 'message', _originalId: 'inbox.m'},
    ])
    expect(documentsFor(docs, 'previewDrafts', false)).toEqual([
      {_id: 'a', _type: 'post', title: 'A published', _originalId: 'a'},
    ])
  })
})

describe('defaultPerspective', () => {
  it('is raw before API version 2025-02-19 and published from it on', () => {
    expect(defaultPerspective('1')).toBe('raw')
    expect(defaultPerspective('2023-07-29')).toBe('raw')
    expect(defaultPerspective('2025-02-18')).toBe('raw')
    expect(defaultPerspective('2025-02-19')).toBe('published')
    expect(defaultPerspective('X')).toBe('published')
  })
})
