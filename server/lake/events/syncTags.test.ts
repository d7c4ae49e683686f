import {describe, expect, it} from 'vitest'
import {parseQuery} from '../groq.ts'
import {anyTag, queryTags, refTag, typeTag} from './syncTags.ts'

// What a query answer says it depends on: a tag fires for every change that could alter it.

const tagsOf = (query: string, params: Record<string, unknown> = {}) =>
  queryTags(parseQuery(query, params))

describe('queryTags', () => {
  it('a filter pinned to a type depends on that type, whatever else it tests', () => {
    expect(tagsOf('*[_type == "post" && defined(slug.current)] | order(date desc)[0...6]')).toEqual(
      [typeTag('post')],
    )
    expect(tagsOf('*["post" == _type][0]')).toEqual([typeTag('post')])
    expect(tagsOf('*[_type in ["post", "page"]]{title}')).toEqual([
      typeTag('page'),
      typeTag('post'),
    ])
    expect(tagsOf('*[_type in $types]', {types: ['a', 'b']})).toEqual([typeTag('a'), typeTag('b')])
    expect(tagsOf('*[(_type == "a" || _type == "b") && x > 1]')).toEqual([
      typeTag('a'),
      typeTag('b'),
    ])
  })

  it('a filter that leaves any type possible depends on everything', () => {
    expect(tagsOf('count(*)')).toEqual([anyTag])
    expect(tagsOf('*[_type == "post" || featured]')).toEqual([anyTag])
    expect(tagsOf('*[_type != "post"]')).toEqual([anyTag])
    expect(tagsOf('*[slug.current == $slug][0]', {slug: 'x'})).toEqual([anyTag])
    // Ranking by text::query() weighs the whole dataset.
    expect(tagsOf('*[_type == "post" && title match text::query("a")]')).toEqual([
      anyTag,
      typeTag('post'),
    ])
  })

  it('subqueries add their own tags; a dereference depends on referenced documents', () => {
    expect(
      tagsOf(
        '*[_type == "post"][0]{"next": *[_type == "post" && date > ^.date][0], "more": *[references(^._id)]}',
      ),
    ).toEqual([anyTag, typeTag('post')])
    expect(tagsOf('*[_type == "post"]{"image": mainImage.asset->url}')).toEqual([
      refTag,
      typeTag('post'),
    ])
  })
})
