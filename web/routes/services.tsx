import {Link, useLoaderData} from 'react-router-dom'
import styled from 'styled-components'
import {PageMeta} from '../components/PageMeta.tsx'
import {theme} from '../components/theme.ts'
import {useSiteConfig} from '../components/useSiteConfig.ts'
import {useSettings} from '../copy/useSettings.ts'
import {resolveServices} from '../copy/services.ts'
import {tabHref} from '../blogTabs.ts'
import type {servicesLoader} from './services.loader.ts'
import {useSanityNode} from '../preview/useSanityNode.ts'

const Columns = styled.div`
  display: grid;
  grid-template-columns: repeat(auto-fit, minmax(16rem, 1fr));
  gap: 0 2rem;
`

const Panel = styled.section`
  position: relative;
  z-index: 1;
  ul {
    padding-left: 1.2rem;
  }
  li {
    margin: 0.3rem 0;
  }
`

const Note = styled.p`
  color: ${theme.muted};
`

/** Services: writing, editing, modus operandi, samples (requirements §1–2). Canonical: /services. */
export function Services() {
  const {editingSamplesUrl: samplesDefault} = useSiteConfig()
  const {copy} = useLoaderData<typeof servicesLoader>()
  const {writingServices, editingServices, howIWork, blogSamples} = resolveServices(copy)
  const editingSamplesUrl = useSettings().editingSamplesUrl ?? samplesDefault
  // In preview: each list opens its field of the Services document in the Studio.
  const node = useSanityNode('servicesPage')
  const field = (path: string) => node('servicesPage', path)
  return (
    <>
      <PageMeta
        title="Services"
        description="Writing (ghostwriting, creative pieces, guest posts, website content, blog posts) and editing (developmental, line, copy editing, proofreading), with a free sample edit."
        canonicalPath="/services"
        owner
      />
      <h1>Services</h1>
      <Columns>
        <Panel aria-labelledby="writing-services">
          <h2 id="writing-services">Writing services</h2>
          <ul {...field('writingServices')}>
            {writingServices.map((s) => (
              <li key={s}>{s}</li>
            ))}
          </ul>
        </Panel>
        <Panel aria-labelledby="editing-services">
          <h2 id="editing-services">Editing services</h2>
          <ul {...field('editingServices')}>
            {editingServices.map((s) => (
              <li key={s}>{s}</li>
            ))}
          </ul>
        </Panel>
      </Columns>
      <Panel aria-labelledby="modus-operandi">
        <h2 id="modus-operandi">Modus operandi</h2>
        <ul {...field('howIWork')}>
          {howIWork.map((s) => (
            <li key={s}>{s}</li>
          ))}
        </ul>
      </Panel>
      <Panel aria-labelledby="samples">
        <h2 id="samples">Samples</h2>
        <p>Writing samples live on the blog:</p>
        <ul {...field('blogSamples')}>
          {blogSamples.map((s) => (
            <li key={s.key}>
              <Link to={tabHref(s.category)}>{s.label}</Link>
            </li>
          ))}
        </ul>
        <p>
          Editing samples (before and after):{' '}
          <a href={editingSamplesUrl} target="_blank" rel="noopener noreferrer">
            editing samples document<span className="visually-hidden"> (opens in a new tab)</span>
          </a>
        </p>
        <Note>
          Ready to start? <Link to="/contact">Get in touch</Link>.
        </Note>
      </Panel>
    </>
  )
}
