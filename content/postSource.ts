import type {PostCategory} from '../schemas/categories.ts'
import type {BlockSource} from './richText.ts'
import type {ImageBlockSource, ImageSource} from './seedImages.ts'

/** A post as authored in content/posts/*.ts. */
export interface PostSource {
  title: string
  slug: string
  /** YYYY-MM-DD */
  date: string
  excerpt: string
  category: PostCategory
  /** The cover (issue 22), a file of content/images/. */
  cover?: ImageSource
  body: (BlockSource | ImageBlockSource)[]
}
