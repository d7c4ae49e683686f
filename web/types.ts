import type {PortableTextBlock} from '@portabletext/react'

/** A post as the list queries return it (postListQuery, postPageQuery, latestPostsQuery). */
export interface PostCard {
  title: string | null
  slug: string
  date: string | null
  excerpt: string | null
  category: string | null
}

/** One page of a blog tab (postPageQuery). */
export interface PostPage {
  posts: PostCard[]
  total: number
}

/** A post as postBySlugQuery returns it. */
export interface PostDetail {
  title: string | null
  date: string | null
  body: PortableTextBlock[] | null
  excerpt: string
}
