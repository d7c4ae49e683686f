import styled from 'styled-components'
import {theme} from '../components/theme.ts'
import {ResponsiveImg} from './ResponsiveImg.tsx'
import {columnDefaultWidth, type ShownImage} from '../../shared/imageUrl.ts'

/** The post column: 42rem, less the page's side padding on narrow screens (Frame.tsx). */
export const columnSizes = '(max-width: 44.5rem) calc(100vw - 2.5rem), 42rem'

const Figure = styled.figure`
  margin: 1.75rem 0;
  img {
    display: block;
    width: 100%;
    height: auto;
    border-radius: 6px;
  }
  figcaption {
    margin-top: 0.5rem;
    color: ${theme.muted};
    font-size: 0.95rem;
  }
`

/** An image in a post's body: lazy, full column width, with its caption below. */
export function BodyFigure({image}: {image: ShownImage}) {
  return (
    <Figure>
      <ResponsiveImg image={image} sizes={columnSizes} defaultWidth={columnDefaultWidth} />
      {image.caption ? <figcaption>{image.caption}</figcaption> : null}
    </Figure>
  )
}
