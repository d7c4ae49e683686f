import styled from 'styled-components'
import {theme} from '../components/theme.ts'
import type {SanityNodeProps} from '../preview/useSanityNode.ts'
import {columnSizes} from './BodyFigure.tsx'
import {ResponsiveImg} from './ResponsiveImg.tsx'
import {columnDefaultWidth, type ShownImage} from '../../shared/imageUrl.ts'

const Figure = styled.figure`
  margin: 0 0 1.5rem;
  img {
    display: block;
    width: 100%;
    height: auto;
    border-radius: 8px;
  }
  figcaption {
    margin-top: 0.5rem;
    color: ${theme.muted};
    font-size: 0.95rem;
  }
`

/**
 * A post's cover, at the top of the post: the page's largest element, so it is fetched first
 * (`fetchpriority="high"`, not lazy) and named in the first HTML.
 */
export function CoverFigure({image, ...node}: {image: ShownImage} & SanityNodeProps) {
  return (
    <Figure {...node}>
      <ResponsiveImg image={image} sizes={columnSizes} defaultWidth={columnDefaultWidth} priority />
      {image.caption ? <figcaption>{image.caption}</figcaption> : null}
    </Figure>
  )
}
