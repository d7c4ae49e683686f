import styled from 'styled-components'
import {ResponsiveImg} from './ResponsiveImg.tsx'
import type {ShownImage} from '../../shared/imageUrl.ts'

const Img = styled(ResponsiveImg)<{$size: number}>`
  display: block;
  flex: none;
  width: ${(p) => p.$size}px;
  height: ${(p) => p.$size}px;
  border-radius: 50%;
  object-fit: cover;
`

/**
 * A person's photo (the owner's portrait, a client's photo): square, cropped around the Studio's
 * hotspot, drawn round at `size` CSS px, with `width`/`height` so nothing shifts when it loads.
 * `alt` is given by the caller, who knows the fallback when the owner wrote none. Lazy unless
 * `eager` (above the fold, where a lazy image only starts late).
 */
export function PersonPhoto({
  image,
  alt,
  size,
  eager,
}: {
  image: ShownImage
  alt: string
  size: number
  eager?: boolean
}) {
  return (
    <Img
      $size={size}
      image={{...image, alt, decorative: alt === ''}}
      sizes={`${size}px`}
      defaultWidth={size * 2}
      aspect={1}
      loading={eager ? 'eager' : 'lazy'}
    />
  )
}
