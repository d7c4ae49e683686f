import styled from 'styled-components'
import blot from '../assets/stains/blot.svg?raw'
import drops from '../assets/stains/drops.svg?raw'
import ring from '../assets/stains/ring.svg?raw'
import splash from '../assets/stains/splash.svg?raw'
import wash from '../assets/stains/wash.svg?raw'

interface Placement {
  /** The SVG document's markup. */
  svg: string
  width: number
  height: number
  /** CSS offsets inside the page frame. */
  at: string
}

/** Shared layout: four corners and the centre (requirements §2). */
const sitePlacements: Placement[] = [
  {svg: ring, width: 180, height: 180, at: 'top: 4.5rem; left: -3rem;'},
  {svg: blot, width: 160, height: 160, at: 'top: 5rem; right: -2.5rem;'},
  // Anchored in rem, not %: the page growing (lazy sections) must not move it (layout shift).
  {svg: wash, width: 300, height: 200, at: 'top: 30rem; left: calc(50% - 150px);'},
  {svg: splash, width: 170, height: 170, at: 'bottom: 3rem; left: -2rem;'},
  {svg: drops, width: 140, height: 140, at: 'bottom: 4rem; right: -1.5rem;'},
]

/** The post page's own decorative layout: three stains. */
const postPlacements: Placement[] = [
  {svg: splash, width: 170, height: 170, at: 'top: 4rem; right: -3rem;'},
  {svg: wash, width: 260, height: 173, at: 'top: 26rem; left: -6rem;'},
  {svg: ring, width: 160, height: 160, at: 'bottom: 2rem; right: 1rem;'},
]

// Absolutely positioned with fixed sizes: they can never push content around (no layout shift).
const Art = styled.span<{$at: string; $width: number; $height: number}>`
  position: absolute;
  ${(props) => props.$at}
  display: block;
  width: min(${(props) => props.$width}px, 45vw);
  aspect-ratio: ${(props) => props.$width} / ${(props) => props.$height};
  pointer-events: none;
  user-select: none;
  z-index: 0;
  svg {
    display: block;
    width: 100%;
    height: 100%;
  }
`

/**
 * Decorative stains (original SVG art), hidden from assistive technology. Inlined rather than
 * <img>: no requests, painted with the first HTML, and never the page's largest contentful paint
 * (an inline <svg> is no LCP candidate, an image is).
 */
export function Stains({variant}: {variant: 'site' | 'post'}) {
  const placements = variant === 'site' ? sitePlacements : postPlacements
  return (
    <div aria-hidden="true">
      {placements.map((p) => (
        <Art
          key={p.at}
          $at={p.at}
          $width={p.width}
          $height={p.height}
          dangerouslySetInnerHTML={{__html: p.svg}}
        />
      ))}
    </div>
  )
}
