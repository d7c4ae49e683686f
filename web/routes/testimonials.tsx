import styled from 'styled-components'
import {PageMeta} from '../components/PageMeta.tsx'
import {theme} from '../components/theme.ts'
import {useLoaderData} from 'react-router-dom'
import {todaysCards} from '../copy/home.ts'
import {testimonialCards} from '../copy/testimonials.ts'
import {editedBooks as todaysBooks} from '../content/testimonials.ts'
import type {testimonialsLoader} from './testimonials.loader.ts'
import {PersonPhoto} from '../images/PersonPhoto.tsx'
import {useSanityNode} from '../preview/useSanityNode.ts'

const Collage = styled.ul`
  display: flex;
  flex-wrap: wrap;
  gap: 0.75rem;
  margin: 0 0 2rem;
  padding: 0;
  list-style: none;
  li {
    padding: 0.6rem 0.9rem;
    border: 1px solid ${theme.line};
    border-radius: 4px;
    background: ${theme.card};
    font-family: ${theme.serif};
    font-style: italic;
    box-shadow: 2px 3px 0 ${theme.line};
  }
  li:nth-child(odd) {
    transform: rotate(-1.5deg);
  }
  li:nth-child(even) {
    transform: rotate(1.2deg);
  }
`

const Cards = styled.div`
  display: grid;
  grid-template-columns: repeat(auto-fit, minmax(16rem, 1fr));
  gap: 1rem;
`

const Card = styled.figure`
  position: relative;
  z-index: 1;
  margin: 0;
  padding: 1.25rem;
  border: 1px solid ${theme.line};
  border-radius: 10px;
  background: ${theme.card};
  blockquote {
    margin: 0 0 0.75rem;
    font-style: italic;
  }
  figcaption {
    display: flex;
    align-items: center;
    gap: 0.6rem;
    color: ${theme.muted};
  }
`

/** Testimonials: a collage of edited book titles and three client cards (requirements §2). */
export function Testimonials() {
  const {copy} = useLoaderData<typeof testimonialsLoader>()
  const books = (copy?.books ?? []).filter((title): title is string => !!title?.trim())
  const editedBooks = books.length > 0 ? books : todaysBooks
  // In preview: the titles open the Services document's list, a card its testimonial.
  const servicesNode = useSanityNode('servicesPage')
  const node = useSanityNode('testimonial')
  // Every testimonial deleted or half-written: today's, rather than an empty page.
  const cards = testimonialCards(copy?.testimonials)
  const testimonials = cards.length > 0 ? cards : todaysCards()
  return (
    <>
      <PageMeta
        title="Testimonials"
        description="What authors and clients say about working with a freelance writer and editor based in Kashmir, and the books edited so far."
        canonicalPath="/testimonials"
      />
      <h1>Testimonials</h1>
      <h2>Books I have edited</h2>
      <Collage {...servicesNode('servicesPage', 'editedBooks')}>
        {editedBooks.map((title) => (
          <li key={title}>{title}</li>
        ))}
      </Collage>
      <h2>Clients</h2>
      <Cards>
        {testimonials.map((t) => (
          <Card key={t.key}>
            <blockquote>
              <p {...node(t.id, 'quote')}>“{t.quote}”</p>
            </blockquote>
            <figcaption>
              {/* Without alt text the photo is decorative: the name is written beside it. */}
              {t.photo && <PersonPhoto image={t.photo} alt={t.photo.alt?.trim() ?? ''} size={48} />}
              <span {...node(t.id, 'name')}>— {t.author}</span>
            </figcaption>
          </Card>
        ))}
      </Cards>
    </>
  )
}
