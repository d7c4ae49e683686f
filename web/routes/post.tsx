import {useLoaderData} from 'react-router-dom'
import styled from 'styled-components'
import {PageMeta} from '../components/PageMeta.tsx'
import {SocialWebLinks} from '../seo/SocialWebLinks.tsx'
import {PostBody} from '../components/PostBody.tsx'
import {CoverFigure} from '../images/CoverFigure.tsx'
import {isShown} from '../../shared/imageUrl.ts'
import {BackToBlog} from '../reading/BackToBlog.tsx'
import {headingAnchors} from '../reading/headingAnchors.ts'
import {PostComments} from '../reading/PostComments.tsx'
import {PostEnd} from '../reading/PostEnd.tsx'
import {PostMeta} from '../reading/PostMeta.tsx'
import {TableOfContents} from '../reading/TableOfContents.tsx'
import {useSanityNode} from '../preview/useSanityNode.ts'
import type {postLoader} from './post.loader.ts'

const Article = styled.article`
  position: relative;
  z-index: 1;
  max-width: 42rem;
  margin: 0 auto;
  > h1 {
    margin-top: 0.25em;
  }
`

/**
 * A blog post: title, date in the browser's locale, cover, rich-text body (requirements §2); its
 * reading time, category, table of contents and the posts around it (web/reading/, issue #26).
 */
export function Post() {
  const {slug, post, surroundings, social} = useLoaderData<typeof postLoader>()
  const node = useSanityNode('post')
  const path = `/blog/${encodeURIComponent(slug)}`
  if (!post) {
    return (
      <>
        <PageMeta
          title="Post not found"
          description="This post does not exist (any more)."
          canonicalPath={path}
        />
        <h1>Post not found.</h1>
        <p>
          Find more on <a href="/blog">the blog</a>.
        </p>
      </>
    )
  }
  const anchors = headingAnchors(post.body)
  const cover = isShown(post.mainImage) ? post.mainImage : undefined
  return (
    <>
      <Article>
        <PageMeta
          title={post.title ?? slug}
          description={post.excerpt}
          canonicalPath={path}
          post={
            post.date
              ? {
                  slug,
                  title: post.title ?? slug,
                  date: post.date,
                  updatedAt: post._updatedAt,
                  category: post.category ?? undefined,
                  cover,
                }
              : undefined
          }
        />
        {post.federated && <SocialWebLinks postPath={path} />}
        <BackToBlog />
        <h1 {...node(post._id, 'title')}>{post.title ?? slug}</h1>
        <PostMeta
          date={post.date}
          words={post.words}
          category={post.category}
          categorySlug={post.categorySlug}
          dateNode={node(post._id, 'date')}
        />
        {cover && <CoverFigure image={cover} {...node(post._id, 'mainImage')} />}
        {post.body && <TableOfContents anchors={anchors} body={post.body} />}
        {post.body && <PostBody value={post.body} {...node(post._id, 'body')} />}
        {social && <PostComments thread={social} />}
      </Article>
      <PostEnd category={post.category} surroundings={surroundings} />
    </>
  )
}
