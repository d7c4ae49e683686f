import {Link} from 'react-router-dom'
import styled from 'styled-components'
import type {TestimonialCard} from '../copy/testimonials.ts'
import {PersonPhoto} from '../images/PersonPhoto.tsx'
import {useSanityNode, type SanityNodeProps} from '../preview/useSanityNode.ts'
import {theme} from './theme.ts'

const Quote = styled.blockquote`
  margin: 0 0 1rem;
  padding: 0.75rem 1rem;
  border-left: 4px solid ${theme.accent};
  background: ${theme.card};
  p {
    margin: 0 0 0.25rem;
    font-style: italic;
  }
  footer {
    display: flex;
    align-items: center;
    gap: 0.6rem;
    color: ${theme.muted};
  }
`

/** Home's lazily loaded 'What clients say' section. */
export default function ClientVoices({
  heading,
  headingNode,
  voices,
}: {
  heading: string
  /** In preview: the heading opens Home's field in the Studio. */
  headingNode?: SanityNodeProps
  voices: TestimonialCard[]
}) {
  const node = useSanityNode('testimonial')
  return (
    <>
      <h2 {...headingNode}>{heading}</h2>
      {voices.map((t) => (
        <Quote key={t.key}>
          <p {...node(t.id, 'quote')}>“{t.quote}”</p>
          <footer>
            {/* Without alt text the photo is decorative: the name is written beside it. */}
            {t.photo && <PersonPhoto image={t.photo} alt={t.photo.alt?.trim() ?? ''} size={40} />}
            <span {...node(t.id, 'name')}>— {t.author}</span>
          </footer>
        </Quote>
      ))}
      <p>
        <Link to="/testimonial">More testimonials</Link>
      </p>
    </>
  )
}
