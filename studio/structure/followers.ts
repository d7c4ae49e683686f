import {map} from 'rxjs'
import type {StructureBuilder, StructureResolverContext} from 'sanity/structure'
import {apiVersion} from '../../shared/constants.ts'

/** The social web's documents the owner sees (schemas/documents/socialFollower.ts, socialBlock.ts). */
export const followerType = 'socialFollower'
export const blockType = 'socialBlock'

interface SocialCounts {
  followers: number
  dead: number
  blocks: number
}

const countsQuery = `{
  "followers": count(*[_type == "socialFollower"]),
  "dead": count(*[_type == "socialFollower" && defined(lastError)]),
  "blocks": count(*[_type == "socialBlock"])
}`
/** Any change to these documents is a reason to count again. */
const countsListen = '*[_type in ["socialFollower", "socialBlock"]]'

const counted = (title: string, count: number) => `${title} (${count})`

function readOnlyList(
  S: StructureBuilder,
  id: string,
  title: string,
  type: string,
  filter: string,
  ordering: {field: string; direction: 'asc' | 'desc'}[],
) {
  return S.listItem()
    .id(id)
    .title(title)
    .schemaType(type)
    .child(
      S.documentList()
        .id(`${id}-list`)
        .title(title)
        .schemaType(type)
        .apiVersion(apiVersion)
        .filter(filter)
        .params({type})
        .defaultOrdering(ordering)
        .menuItems([])
        .canHandleIntent((intent, params) => intent === 'edit' && params.type === type)
        // Last: every other builder call clones the list and re-infers the "create" templates.
        .initialValueTemplates([]),
    )
}

function socialList(S: StructureBuilder, counts: SocialCounts) {
  const newest = [{field: 'followedAt', direction: 'desc' as const}]
  return S.list()
    .id('social-lists')
    .title('Social web')
    .items([
      readOnlyList(
        S,
        'followers-all',
        counted('Followers', counts.followers),
        followerType,
        '_type == $type',
        newest,
      ),
      readOnlyList(
        S,
        'followers-dead',
        counted('Dead inboxes', counts.dead),
        followerType,
        '_type == $type && defined(lastError)',
        newest,
      ),
      readOnlyList(
        S,
        'social-blocks',
        counted('Blocks', counts.blocks),
        blockType,
        '_type == $type',
        [{field: 'blockedAt', direction: 'desc'}],
      ),
    ])
}

/**
 * The social web's followers, read-only like the newsletter's subscribers (the server writes
 * them when a `Follow` arrives), each list's title its count, kept live; the followers whose
 * inbox was given up on; and the blocks. A follower's document menu removes it (Delete) or blocks
 * the account or its instance (followerActions.tsx); a block's Delete lifts it.
 */
export function followersListItem(S: StructureBuilder, context: StructureResolverContext) {
  return S.listItem()
    .id('social-web')
    .title('Social web')
    .child(
      context.documentStore
        .listenQuery(
          {fetch: countsQuery, listen: countsListen},
          {},
          {apiVersion, tag: 'social.counts', throttleTime: 1000},
        )
        .pipe(map((counts: SocialCounts) => socialList(S, counts))),
    )
}
