import type {StructureBuilder, StructureResolver} from 'sanity/structure'
import {postCategories} from '../../schemas/categories.ts'
import {apiVersion} from '../../shared/constants.ts'
import {inboxListItem} from './inbox.ts'
import {subscribersListItem} from './subscribers.ts'

const newestFirst = [{field: 'date', direction: 'desc' as const}]

/** Every post, newest first by the post's date. */
function allPosts(S: StructureBuilder) {
  return S.listItem()
    .id('posts')
    .title('All posts')
    .schemaType('post')
    .child(S.documentTypeList('post').title('All posts').defaultOrdering(newestFirst))
}

/** One list per category, as the blog's tabs filter them (exact match). */
function categoryList(S: StructureBuilder, category: string) {
  return S.listItem()
    .id(`category-${category.toLowerCase()}`)
    .title(category)
    .schemaType('post')
    .child(
      S.documentTypeList('post')
        .title(category)
        .apiVersion(apiVersion)
        .filter('_type == "post" && category == $category')
        .params({category})
        .defaultOrdering(newestFirst),
    )
}

/** The desk: posts (all, then per category), then the contact Inbox and the Newsletter. */
export const structure: StructureResolver = (S, context) =>
  S.list()
    .title('Content')
    .items([
      allPosts(S),
      S.divider(),
      ...postCategories.map((category) => categoryList(S, category)),
      S.divider(),
      inboxListItem(S),
      subscribersListItem(S, context),
    ])
