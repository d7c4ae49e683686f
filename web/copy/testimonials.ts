import type {TestimonialsPageQueryResult} from '../../shared/sanity.types.ts'
import {isShown, type ShownImage} from '../../shared/imageUrl.ts'

type RawTestimonial = TestimonialsPageQueryResult['testimonials'][number]

/** A testimonial as a card shows it: the quote, "name, role" and the photo if there is one. */
export interface TestimonialCard {
  key: string
  /** Its document's id (the preview's click-to-edit); none for today's built-in cards. */
  id?: string
  quote: string
  author: string
  /** Unset, or its asset deleted: the card shows no photo. */
  photo?: ShownImage
}

/** The testimonials that can be shown: a quote and a name each (a half-written one is skipped). */
export function testimonialCards(raw: RawTestimonial[] | null | undefined): TestimonialCard[] {
  return (raw ?? []).flatMap((t) =>
    t.quote?.trim() && t.name?.trim()
      ? [
          {
            key: t._id,
            id: t._id,
            quote: t.quote,
            author: t.role?.trim() ? `${t.name}, ${t.role}` : t.name,
            ...(isShown(t.photo) ? {photo: t.photo} : {}),
          },
        ]
      : [],
  )
}
