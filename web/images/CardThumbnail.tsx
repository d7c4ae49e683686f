import styled from 'styled-components'
import {ResponsiveImg} from './ResponsiveImg.tsx'
import {thumbnailAspect, thumbnailDefaultWidth, type ShownImage} from '../../shared/imageUrl.ts'

/** Cards are one column on phones and at most about 20rem wide in the grids (PostList, Home). */
const cardSizes = '(max-width: 36rem) calc(100vw - 5rem), 20rem'

const Img = styled(ResponsiveImg)`
  display: block;
  order: -1;
  width: 100%;
  height: auto;
  aspect-ratio: 16 / 9;
  margin-bottom: 0.4rem;
  border-radius: 6px;
`

/**
 * A post card's cover (every thumbnail has one shape, so cards in a row line up): lazy, but
 * for `priority` (the first card of /blog: on a phone the largest element of the first screen,
 * which Lighthouse wants fetched at once, PostList.tsx); cropped to 16:9 around the hotspot,
 * sized by its attributes and `aspect-ratio` so the card never shifts when it arrives. Placed
 * first in the card by CSS `order`, after the title in the document, so the title link stays
 * the card's first content.
 */
export function CardThumbnail({image, priority}: {image: ShownImage; priority?: boolean}) {
  return (
    <Img
      image={image}
      sizes={cardSizes}
      defaultWidth={thumbnailDefaultWidth}
      aspect={thumbnailAspect}
      priority={priority}
    />
  )
}
