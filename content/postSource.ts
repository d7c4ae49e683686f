import type {PostCategory} from '../schemas/categories.ts'
import type {BlockSource} from './richText.ts'

/** A post as authored in content/posts/*.ts. */
export interface PostSource {
  title: string
  slug: string
  /** YYYY-MM-DD */
  date: string
  excerpt: string
  category: PostCategory
  body: BlockSource[]
}
