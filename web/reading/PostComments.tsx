import styled from 'styled-components'
import {PostDate} from '../components/PostDate.tsx'
import {theme} from '../components/theme.ts'
import type {PostSocialQueryResult} from '../../shared/sanity.types.ts'

type Thread = NonNullable<PostSocialQueryResult>
type Shown = NonNullable<Thread['comments']>[number]
type Reply = NonNullable<Shown['replies']>[number]

const Section = styled.section`
  margin-top: 3rem;
  border-top: 1px solid currentColor;
  padding-top: 1rem;
`
const Counts = styled.p`
  color: ${theme.muted};
`
const List = styled.ol`
  list-style: none;
  margin: 0;
  padding: 0;
  ol {
    margin-left: 1.5rem;
  }
`
const Item = styled.li`
  margin: 1.25rem 0;
`
const Byline = styled.p`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: 0 0.5rem;
  margin: 0;
  color: ${theme.muted};
`
const Initials = styled.span`
  display: inline-grid;
  place-items: center;
  width: 2rem;
  height: 2rem;
  border-radius: 50%;
  border: 1px solid currentColor;
  font-size: 0.8rem;
`

/** "3 likes", "1 boost": the numbers with their words. */
function countWords(n: number, word: 'like' | 'boost'): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`
}

/**
 * The author's initials in place of their avatar: remote images are never loaded by readers'
 * browsers (the author's server would learn who reads the post).
 */
function initials(name: string): string {
  const letters = name
    .split(/\s+/)
    .map((word) => [...word.replace(/^@/, '')][0] ?? '')
    .filter(Boolean)
  return letters.slice(0, 2).join('').toUpperCase() || '?'
}

function Comment({comment, children}: {comment: Shown | Reply; children?: React.ReactNode}) {
  const name = comment.authorName ?? comment.authorHandle ?? 'Someone'
  const author = comment.authorProfile ? (
    <a href={comment.authorProfile} rel="nofollow ugc noopener">
      {name}
    </a>
  ) : (
    <span>{name}</span>
  )
  return (
    <Item>
      <article>
        <Byline>
          <Initials aria-hidden="true">{initials(name)}</Initials>
          <strong>{author}</strong>
          {comment.authorHandle && comment.authorHandle !== name && (
            <span>{comment.authorHandle}</span>
          )}
          {comment.published &&
            (comment.url ? (
              <a href={comment.url} rel="nofollow ugc noopener">
                <PostDate date={comment.published} />
              </a>
            ) : (
              <PostDate date={comment.published} />
            ))}
        </Byline>
        {comment.summary && <p>Content warning: {comment.summary}</p>}
        {/* Sanitized on the server with an allow-list (server/social/remoteHtml.ts, threads.ts). */}
        <div dangerouslySetInnerHTML={{__html: comment.content ?? ''}} />
      </article>
      {children}
    </Item>
  )
}

/**
 * Under a post: what the social web said about it (issue #39). The approved replies, each with
 * its author linked (`nofollow ugc`: the site does not vouch for them), a reply's replies nested
 * one level, and the likes and boosts counted. Plain server-rendered HTML, no script.
 */
export function PostComments({thread}: {thread: Thread}) {
  const comments = thread.comments ?? []
  const likes = thread.likes ?? 0
  const boosts = thread.boosts ?? 0
  return (
    <Section aria-labelledby="comments-heading">
      <h2 id="comments-heading">Comments</h2>
      {(likes > 0 || boosts > 0) && (
        <Counts>
          {countWords(likes, 'like')} · {countWords(boosts, 'boost')} on the social web
        </Counts>
      )}
      {comments.length > 0 ? (
        <List>
          {comments.map((comment) => (
            <Comment key={comment._key} comment={comment}>
              {comment.replies && comment.replies.length > 0 && (
                <List>
                  {comment.replies.map((reply) => (
                    <Comment key={reply._key} comment={reply} />
                  ))}
                </List>
              )}
            </Comment>
          ))}
        </List>
      ) : (
        <p>No comments yet. Reply to this post from Mastodon or any fediverse account.</p>
      )}
    </Section>
  )
}
