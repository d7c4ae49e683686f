import {describe, expect, it} from 'vitest'
import {defaultPerspective, documentsFor, parsePerspective} from './perspective.ts'
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

describe('release stacks', () => {
  const stackDocs: Doc[] = [
    {_id: 'a', _type: 'post', title: 'A'},
    {_id: 'drafts.a', _type: 'post', title: 'A draft'},
    {_id: 'versions.r1.a', _type: 'post', title: 'A in r1'},
    {_id: 'versions.r2.b', _type: 'post', title: 'B new in r2'},
    {_id: 'c', _type: 'post', title: 'C'},
    {_id: 'versions.r1.c', _type: 'post', title: 'C gone', _system: {delete: true}},
  ]
  const view = (stack: string[], reader: 'owner' | 'anonymous' = 'owner') =>
    documentsFor(stackDocs, stack, reader).map((d) => [d._id, d.title, d._originalId])

  it('shows each id from the highest layer that has it; a version marked to unpublish hides it', () => {
    expect(view(['r1', 'drafts'])).toEqual([['a', 'A in r1', 'versions.r1.a']])
    expect(view(['drafts', 'r1'])).toEqual([['a', 'A draft', 'drafts.a']])
    expect(view(['r2'])).toEqual([
      ['a', 'A', 'a'],
      ['b', 'B new in r2', 'versions.r2.b'],
      ['c', 'C', 'c'],
    ])
  })

  it('shows an anonymous reader published documents only', () => {
    expect(view(['r1', 'r2', 'drafts'], 'anonymous')).toEqual([
      ['a', 'A', 'a'],
      ['c', 'C', 'c'],
    ])
  })

  it('parses named perspectives, release ids and stacks; refuses malformed ones', () => {
    expect(parsePerspective('raw')).toBe('raw')
    expect(parsePerspective('drafts')).toBe('drafts')
    expect(parsePerspective('rA')).toEqual(['rA'])
    expect(parsePerspective('rA,drafts')).toEqual(['rA', 'drafts'])
    expect(parsePerspective('rA,rB,published')).toEqual(['rA', 'rB'])
    for (const bad of ['raw,drafts', 'rA,rA', 'r.x', 'published,rA', '', ',', 'rA,,drafts'])
      expect(parsePerspective(bad)).toBeUndefined()
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
