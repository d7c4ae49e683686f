import type {HomePageQueryResult} from '../../shared/sanity.types.ts'
import {homeIntro} from '../content/site.ts'
import {testimonials} from '../content/testimonials.ts'
import {testimonialCards, type TestimonialCard} from './testimonials.ts'

/** Home's words and sections as the page shows them: today's copy for whatever is missing. */
export interface HomeCopy {
  intro: string
  blogButton: string
  latestHeading: string
  showLatest: boolean
  voicesHeading: string
  showVoices: boolean
  showSubscribe: boolean
  voices: TestimonialCard[]
}

const text = (value: string | null | undefined, fallback: string) =>
  typeof value === 'string' && value.trim() !== '' ? value : fallback

/**
 * The home document with fallbacks: no intro (a required field left empty) shows today's; a
 * switched-off section is hidden; no testimonial left hides nothing but shows today's two.
 */
export function resolveHome(raw: HomePageQueryResult | undefined): HomeCopy {
  const home = raw?.home
  const voices = testimonialCards(raw?.voices)
  return {
    intro: text(home?.intro, homeIntro),
    blogButton: text(home?.blogButton, 'Read the blog'),
    latestHeading: text(home?.latestHeading, 'Latest writing'),
    showLatest: home?.showLatest !== false,
    voicesHeading: text(home?.voicesHeading, 'What clients say'),
    showVoices: home?.showVoices !== false,
    showSubscribe: home?.showSubscribe !== false,
    voices: voices.length > 0 ? voices : todaysCards().slice(0, 2),
  }
}

/** Today's testimonials as cards (web/content/testimonials.ts). */
export function todaysCards(): TestimonialCard[] {
  return testimonials.map((t, i) => ({key: `today-${i}`, quote: t.quote, author: t.author}))
}
