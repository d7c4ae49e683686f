import {lazy} from 'react'
import {Link, useLoaderData} from 'react-router-dom'
import styled from 'styled-components'
import {SubscribeForm} from '../newsletter/SubscribeForm.tsx'
import {LazySection} from '../components/LazySection.tsx'
import {PageMeta} from '../components/PageMeta.tsx'
import {theme} from '../components/theme.ts'
import {homeIntro, owner, siteDescription} from '../content/site.ts'
import type {homeLoader} from './home.loader.ts'

const LatestWriting = lazy(() => import('../components/LatestWriting.tsx'))
const ClientVoices = lazy(() => import('../components/ClientVoices.tsx'))

const Hero = styled.header`
  position: relative;
  z-index: 1;
  padding: 2rem 0 1rem;
  h1 {
    margin: 0;
    font-size: clamp(2.25rem, 7vw, 3.5rem);
  }
  p {
    max-width: 38rem;
  }
`

const Role = styled.p`
  margin: 0.25rem 0 1.25rem;
  color: ${theme.muted};
  font-family: ${theme.serif};
  font-size: 1.35rem;
  font-style: italic;
`

const Button = styled(Link)`
  display: inline-block;
  margin-top: 0.5rem;
  padding: 0.75rem 1.4rem;
  border-radius: 999px;
  background: ${theme.accent};
  color: ${theme.onAccent};
  font-weight: 600;
  text-decoration: none;
  &:hover {
    background: ${theme.accentDark};
    color: ${theme.onAccent};
  }
`

/** Home: hero, intro, a button to the blog, and two lazily loaded sections (requirements §2). */
export function Home() {
  const {latest} = useLoaderData<typeof homeLoader>()
  return (
    <>
      <PageMeta description={siteDescription} canonicalPath="/" owner />
      <Hero>
        <h1>{owner.name}</h1>
        <Role>{owner.title}</Role>
        <p>{homeIntro}</p>
        <Button to="/blog">Read the blog</Button>
      </Hero>
      <LazySection label="Latest writing" minHeight="24rem">
        <LatestWriting posts={latest} />
      </LazySection>
      <LazySection label="What clients say" minHeight="18rem">
        <ClientVoices />
      </LazySection>
      <SubscribeForm />
    </>
  )
}
