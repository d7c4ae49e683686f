import type {StructureBuilder, StructureResolver} from 'sanity/structure'
import {apiVersion} from '../../shared/constants.ts'
import {commentsListItem} from './comments.ts'
import {followersListItem} from './followers.ts'
import {inboxListItem} from './inbox.ts'
import {singletonListItems} from './singletons.ts'
import {subscribersListItem} from './subscribers.ts'

const newestFirst = [{field: 'date', direction: 'desc' as const}]
const byOrder = [{field: 'order', direction: 'asc' as const}]

/** Every post, newest first by the post's date. */
function allPosts(S: StructureBuilder) {
  return S.listItem()
    .id('posts')
    .title('All posts')
    .schemaType('post')
    .child(S.documentTypeList('post').title('All posts').defaultOrdering(newestFirst))
}

/**
 * The categories in tab order; opening one lists its posts (as its tab on the blog does), so a
 * new category gets its list with no change here.
 */
function postsByCategory(S: StructureBuilder) {
  return S.listItem()
    .id('posts-by-category')
    .title('Posts by category')
    .schemaType('category')
    .child(
      S.documentTypeList('category')
        .title('Posts by category')
        .defaultOrdering(byOrder)
        .child((categoryId) =>
          S.documentList()
            .title('Posts')
            .schemaType('post')
            .apiVersion(apiVersion)
            .filter('_type == "post" && category._ref == $categoryId')
            .params({categoryId})
            .defaultOrdering(newestFirst),
        ),
    )
}

/** A document type's own list, in `order` where it has one. */
function typeList(S: StructureBuilder, type: string, title: string, ordered = true) {
  const list = S.documentTypeList(type).title(title)
  return S.listItem()
    .id(type)
    .title(title)
    .schemaType(type)
    .child(ordered ? list.defaultOrdering(byOrder) : list)
}

/**
 * The desk: the singletons once each, then posts (all, then per category), the site's other
 * content (categories, testimonials, redirects), then the contact Inbox, the Newsletter, the social web's Comments and its followers.
 */
export const structure: StructureResolver = (S, context) =>
  S.list()
    .title('Content')
    .items([
      ...singletonListItems(S),
      S.divider(),
      allPosts(S),
      postsByCategory(S),
      S.divider(),
      typeList(S, 'category', 'Categories'),
      typeList(S, 'testimonial', 'Testimonials'),
      typeList(S, 'redirect', 'Redirects', false),
      S.divider(),
      inboxListItem(S),
      subscribersListItem(S, context),
      commentsListItem(S),
      followersListItem(S, context),
    ])
