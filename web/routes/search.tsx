import {useLoaderData} from 'react-router-dom'
import styled from 'styled-components'
import {PageMeta} from '../components/PageMeta.tsx'
import {PostCard} from '../components/PostCard.tsx'
import {theme} from '../components/theme.ts'
import {blogPageSize} from '../queries.ts'
import {searchPath} from '../../shared/canonicalPaths.ts'
import {maxSearchLength} from '../searchTerms.ts'
import type {searchLoader} from './search.loader.ts'

const Form = styled.form`
  display: flex;
  flex-wrap: wrap;
  gap: 0.5rem;
  margin: 0 0 1.5rem;
  input {
    flex: 1 1 14rem;
    min-height: 44px;
    padding: 0.5rem 0.75rem;
    border: 2px solid ${theme.line};
    border-radius: 8px;
    font: inherit;
  }
  button {
    min-height: 44px;
    padding: 0.5rem 1.25rem;
    border: 2px solid ${theme.accent};
    border-radius: 999px;
    background: ${theme.card};
    color: ${theme.accent};
    font: inherit;
    font-weight: 600;
  }
`

const Results = styled.ol`
  display: grid;
  gap: 1rem;
  margin: 0;
  padding: 0;
  list-style: none;
  mark {
    background: ${theme.accent};
    color: ${theme.card};
    border-radius: 3px;
    padding: 0 0.15em;
  }
`

const More = styled.a`
  display: inline-block;
  min-height: 44px;
  margin: 1.75rem 0 0;
  padding: 0.7rem 1.6rem;
  border: 2px solid ${theme.accent};
  border-radius: 999px;
  color: ${theme.accent};
  font-weight: 600;
  text-decoration: none;
`

/** The reader's search (docs/search.md): a plain GET form, ranked cards with marked snippets. */
export function Search() {
  const {q, cut, count, total, posts, failed} = useLoaderData<typeof searchLoader>()
  const more = `/search?${new URLSearchParams({q, count: String(count + blogPageSize)}).toString()}`
  return (
    <>
      <PageMeta
        title={q ? `Search: ${q}` : 'Search'}
        description="Search the blog's posts."
        canonicalPath={searchPath}
      />
      <meta name="robots" content="noindex" />
      <h1>Search</h1>
      <Form role="search" method="get" action="/search">
        <label htmlFor="search-q" className="visually-hidden">
          Search the blog
        </label>
        <input
          id="search-q"
          type="search"
          name="q"
          defaultValue={q}
          maxLength={maxSearchLength}
          placeholder="Words, “a phrase”, -not, prefix*"
        />
        <button type="submit">Search</button>
      </Form>
      {cut && <p>Only the first words of your search were used.</p>}
      {failed ? (
        <p role="status">This search could not be run. Try fewer or shorter words.</p>
      ) : q === '' ? (
        <p>Type a few words from the post you remember.</p>
      ) : total === 0 ? (
        <p role="status">No posts match “{q}”.</p>
      ) : (
        <>
          <p role="status">
            {total === 1 ? '1 post matches' : `${total} posts match`} “{q}”.
          </p>
          <Results>
            {posts.map((post) => (
              <li key={post._id}>
                <PostCard post={post} newTab={false} />
                {post.snippet.length > 0 && (
                  <p>
                    {post.snippet.map((part, i) =>
                      part.marked ? <mark key={i}>{part.text}</mark> : part.text,
                    )}
                  </p>
                )}
              </li>
            ))}
          </Results>
          {posts.length < total && <More href={more}>More results</More>}
        </>
      )}
    </>
  )
}
