import {map} from 'rxjs'
import {presentationTool, type DocumentLocationResolver} from 'sanity/presentation'
import {previewDisablePath, previewEnablePath} from '../../shared/constants.ts'
import {latestPostCount, listedPost, postOrder} from '../../web/queries.ts'
import {copyLocations, copyMainDocuments} from './copyLocations.ts'

/**
 * Where a post appears: its own page, the blog, and Home while it is among the newest posts.
 * Seen in the drafts perspective, so a draft's new slug is where the preview goes.
 */
const postLocations: DocumentLocationResolver = (params, context) =>
  context.documentStore
    .listenQuery(
      `{
        "post": *[_id == $id][0]{title, "slug": slug.current},
        "latest": *[${listedPost}] | ${postOrder} [0...$count]._id
      }`,
      {id: params.id, count: latestPostCount},
      {perspective: 'drafts'},
    )
    .pipe(
      map((result: {post: {title?: string; slug?: string} | null; latest: string[]} | null) => {
        const slug = result?.post?.slug
        if (!slug)
          return {message: 'This post has no slug yet, so it has no page.', tone: 'caution'}
        const title = result.post?.title || 'Untitled post'
        return {
          locations: [
            {title, href: `/blog/${slug}`},
            {title: 'Blog', href: '/blog'},
            ...(result.latest.includes(params.id) ? [{title: 'Home', href: '/'}] : []),
          ],
        }
      }),
    )

/**
 * The Presentation tool (docs/preview.md): the site framed beside the editor, at the Studio's own
 * origin, so the frame is same-origin and its preview cookie first-party.
 */
export const presentation = presentationTool({
  previewUrl: {
    initial: '/',
    previewMode: {enable: previewEnablePath, disable: previewDisablePath},
  },
  resolve: {
    // A function, not a per-type object: only a function gets the document store to query with.
    locations: (params, context) =>
      params.type === 'post' ? postLocations(params, context) : copyLocations(params, context),
    mainDocuments: [
      ...copyMainDocuments,
      {
        route: '/blog/:id',
        filter: `_type == "post" && slug.current == $slug`,
        params: ({params}) => ({slug: params.id ?? ''}),
      },
    ],
  },
})
