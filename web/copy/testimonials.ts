import type {TestimonialsPageQueryResult} from '../../shared/sanity.types.ts'

type RawTestimonial = TestimonialsPageQueryResult['testimonials'][number]

/** A testimonial as a card shows it: the quote and "name, role". */
export interface TestimonialCard {
  key: string
  quote: string
  author: string
}

/** The testimonials that can be shown: a quote and a name each (a half-written one is skipped). */
export function testimonialCards(raw: RawTestimonial[] | null | undefined): TestimonialCard[] {
  return (raw ?? []).flatMap((t) =>
    t.quote?.trim() && t.name?.trim()
      ? [
          {
            key: t._id,
            quote: t.quote,
            author: t.role?.trim() ? `${t.name}, ${t.role}` : t.name,
          },
        ]
      : [],
  )
}
