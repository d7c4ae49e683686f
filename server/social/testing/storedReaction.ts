/** A like or boost as the social web stores it (server/social/reactions.ts), from account `id`. */
export function storedReaction(postId: string, id: string, kind: 'like' | 'boost') {
  return {
    _id: `reaction.${id}`,
    _type: 'socialReaction',
    kind,
    postId,
    actor: `https://social.example/users/${id}`,
  }
}
