import {createDataAttribute} from '@sanity/visual-editing/create-data-attribute'
import {describe, expect, it} from 'vitest'
import {sanityNodeAttribute, studioBasePath} from './sanityNode.ts'

describe('sanityNodeAttribute', () => {
  const ids = ['post-fiction-1', 'drafts.post-fiction-1', 'versions.rABC12.post-fiction-1', 'a-b_c']
  const paths = ['title', 'date', 'body', 'excerpt']

  it("is exactly @sanity/visual-editing's createDataAttribute for the fields the site marks", () => {
    for (const id of ids)
      for (const path of paths) {
        const library = createDataAttribute({id, type: 'post', baseUrl: studioBasePath})(path)
        expect(sanityNodeAttribute({id, type: 'post', path}), `${id} ${path}`).toBe(library)
      }
  })

  it('names the published document, its type, the field and the Studio', () => {
    expect(sanityNodeAttribute({id: 'drafts.abc', type: 'post', path: 'title'})).toBe(
      'id=abc;type=post;path=title;base=%2Fstudio',
    )
  })
})
