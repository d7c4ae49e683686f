import {Link} from 'react-router-dom'
import styled from 'styled-components'
import type {TestimonialCard} from '../copy/testimonials.ts'
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
    color: ${theme.muted};
  }
`

/** Home's lazily loaded 'What clients say' section. */
export default function ClientVoices({
  heading,
  voices,
}: {
  heading: string
  voices: TestimonialCard[]
}) {
  return (
    <>
      <h2>{heading}</h2>
      {voices.map((t) => (
        <Quote key={t.key}>
          <p>“{t.quote}”</p>
          <footer>— {t.author}</footer>
        </Quote>
      ))}
      <p>
        <Link to="/testimonial">More testimonials</Link>
      </p>
    </>
  )
}
