/** The categories a post can belong to. 'Latest' is a tab on the blog page, not a category. */
export const postCategories = [
  'Fiction',
  'Mountaineering',
  'Motorcycles',
  'Kashmir',
  'General',
] as const

export type PostCategory = (typeof postCategories)[number]

/** The blog page's tabs, in the spec's order: Latest shows every post. */
export const blogTabs = ['Latest', ...postCategories] as const

export type BlogTab = (typeof blogTabs)[number]
