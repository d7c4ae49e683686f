/**
 * A comment as the social web stores it (server/social/inbox: `comment.<id>`, pending until the
 * owner approves it), from one remote reader, for the tests that moderate comments: in process
 * (server/social/comments.test.ts) and in the browser (e2e/site.comments.test.ts).
 */
export function storedComment(
  postId: string,
  id: string,
  content: string,
  extra: Record<string, unknown> = {},
) {
  return {
    _id: `comment.${id}`,
    _type: 'socialComment',
    postId,
    status: 'pending',
    noteId: `https://social.example/notes/${id}`,
    url: `https://social.example/@ada/${id}`,
    author: {
      actor: 'https://social.example/users/ada',
      name: 'Ada Reader',
      handle: '@ada@social.example',
      profile: 'https://social.example/@ada',
      avatar: 'https://social.example/avatars/ada.png',
    },
    content,
    published: '2026-11-20T10:00:00.000Z',
    ...extra,
  }
}
