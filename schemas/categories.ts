/**
 * The categories the site shipped with, in tab order: the seed's and the upgrade's category
 * documents (content/siteCopy.ts), and the blog's tabs while a lake holds none. The owner's
 * categories are documents (schemas/documents/category.ts); 'Latest' is a tab, not a category.
 */
export const postCategories = [
  'Fiction',
  'Mountaineering',
  'Motorcycles',
  'Kashmir',
  'General',
] as const

export type PostCategory = (typeof postCategories)[number]
