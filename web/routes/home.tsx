import {lazy} from 'react'
import {Link, useLoaderData} from 'react-router-dom'
import styled from 'styled-components'
import {SubscribeForm} from '../newsletter/SubscribeForm.tsx'
import {LazySection} from '../components/LazySection.tsx'
import {PageMeta} from '../components/PageMeta.tsx'
import {SocialWebLinks} from '../seo/SocialWebLinks.tsx'
import {theme} from '../components/theme.ts'
import {resolveHome} from '../copy/home.ts'
import {useSettings} from '../copy/useSettings.ts'
import {PersonPhoto} from '../images/PersonPhoto.tsx'
import {useSanityNode} from '../preview/useSanityNode.ts'
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

const Heading = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: 1rem 1.5rem;
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
  const {latest, copy} = useLoaderData<typeof homeLoader>()
  const settings = useSettings()
  const home = resolveHome(copy)
  // In preview, each word here opens its field in the Studio (docs/site-editing.md).
  const settingsNode = useSanityNode('siteSettings')
  const homeNode = useSanityNode('homePage')
  return (
    <>
      <PageMeta description={settings.description} canonicalPath="/" owner />
      <SocialWebLinks />
      <Hero>
        <Heading>
          {settings.portrait && (
            <span {...settingsNode('siteSettings', 'portrait')}>
              <PersonPhoto image={settings.portrait} alt={settings.portraitAlt} size={112} eager />
            </span>
          )}
          <div>
            <h1 {...settingsNode('siteSettings', 'ownerName')}>{settings.ownerName}</h1>
            <Role {...settingsNode('siteSettings', 'ownerTitle')}>{settings.ownerTitle}</Role>
          </div>
        </Heading>
        <p {...homeNode('homePage', 'intro')}>{home.intro}</p>
        <Button to="/blog" {...homeNode('homePage', 'blogButton')}>
          {home.blogButton}
        </Button>
      </Hero>
      {home.showLatest && (
        <LazySection label={home.latestHeading} minHeight="24rem">
          <LatestWriting
            heading={home.latestHeading}
            headingNode={homeNode('homePage', 'latestHeading')}
            posts={latest}
          />
        </LazySection>
      )}
      {home.showVoices && (
        <LazySection label={home.voicesHeading} minHeight="18rem">
          <ClientVoices
            heading={home.voicesHeading}
            headingNode={homeNode('homePage', 'voicesHeading')}
            voices={home.voices}
          />
        </LazySection>
      )}
      {home.showSubscribe && <SubscribeForm />}
    </>
  )
}
