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
  {_id: 'drafts.3f9c', _type: 'sanity.previewUrlSecret', secret: 's'},
]
const ids = (list: Doc[]) => list.map((d) => d._id)

describe('documentsFor', () => {
  it('raw: everything for the owner, only undotted ids for anonymous readers', () => {
    expect(ids(documentsFor(docs, 'raw', 'owner'))).toEqual([
      'a',
      'drafts.a',
      'drafts.b',
      'inbox.m',
      'versions.r1.a',
      'drafts.3f9c',
    ])
    expect(ids(documentsFor(docs, 'raw', 'anonymous'))).toEqual(['a'])
  })

  it('a preview session: public documents and their drafts, no other private ids or secrets', () => {
    expect(ids(documentsFor(docs, 'raw', 'preview'))).toEqual(['a', 'drafts.a', 'drafts.b'])
    expect(documentsFor(docs, 'drafts', 'preview')).toEqual([
      {_id: 'a', _type: 'post', title: 'A draft', _originalId: 'drafts.a'},
      {_id: 'b', _type: 'post', title: 'B draft only', _originalId: 'drafts.b'},
    ])
  })

  it('published: no drafts or versions; other private ids (inbox.*) only for the owner', () => {
    expect(ids(documentsFor(docs, 'published', 'owner'))).toEqual(['a', 'inbox.m'])
    expect(ids(documentsFor(docs, 'published', 'anonymous'))).toEqual(['a'])
  })

  it('drafts: each draft over its published id with _originalId; private ids only for the owner', () => {
    expect(documentsFor(docs, 'drafts', 'owner')).toEqual([
      {_id: 'a', _type: 'post', title: 'A draft', _originalId: 'drafts.a'},
      {_id: 'b', _type: 'post', title: 'B draft only', _originalId: 'drafts.b'},
      {_id: 'inbox.m', _type: 'message', _originalId: 'inbox.m'},
      {_id: '3f9c', _type: 'sanity.previewUrlSecret', secret: 's', _originalId: 'drafts.3f9c'},
    ])
    expect(documentsFor(docs, 'previewDrafts', 'anonymous')).toEqual([
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
