import type {StructureBuilder, StructureResolverContext} from 'sanity/structure'
import {counted, liveCountsItem} from './liveCounts.ts'
import {readOnlyList} from './readOnlyList.ts'

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

function socialList(S: StructureBuilder, counts: SocialCounts) {
  const newest = [{field: 'followedAt', direction: 'desc' as const}]
  return S.list()
    .id('social-lists')
    .title('Social web')
    .items([
      readOnlyList(S, {
        id: 'followers-all',
        title: counted('Followers', counts.followers),
        type: followerType,
        filter: '_type == $type',
        ordering: newest,
      }),
      readOnlyList(S, {
        id: 'followers-dead',
        title: counted('Dead inboxes', counts.dead),
        type: followerType,
        filter: '_type == $type && defined(lastError)',
        ordering: newest,
      }),
      readOnlyList(S, {
        id: 'social-blocks',
        title: counted('Blocks', counts.blocks),
        type: blockType,
        filter: '_type == $type',
        ordering: [{field: 'blockedAt', direction: 'desc'}],
      }),
    ])
}

/**
 * The social web's followers, read-only like the newsletter's subscribers (the server writes
 * them when a `Follow` arrives), each list's title its count, kept live; the followers whose
 * inbox was given up on; and the blocks. A follower's document menu removes it (Delete) or blocks
 * the account or its instance (followerActions.tsx); a block's Delete lifts it.
 */
export function followersListItem(S: StructureBuilder, context: StructureResolverContext) {
  return liveCountsItem(S, context, {
    id: 'social-web',
    title: 'Social web',
    tag: 'social.counts',
    countsQuery,
    listen: countsListen,
    list: (counts: SocialCounts) => socialList(S, counts),
  })
}
