import styled from 'styled-components'
import blot from '../assets/stains/blot.svg'
import drops from '../assets/stains/drops.svg'
import ring from '../assets/stains/ring.svg'
import splash from '../assets/stains/splash.svg'
import wash from '../assets/stains/wash.svg'

interface Placement {
  src: string
  width: number
  height: number
  /** CSS offsets inside the page frame. */
  at: string
}

/** Shared layout: four corners and the centre (spec §2). */
const sitePlacements: Placement[] = [
  {src: ring, width: 180, height: 180, at: 'top: 4.5rem; left: -3rem;'},
  {src: blot, width: 160, height: 160, at: 'top: 5rem; right: -2.5rem;'},
  // Anchored in rem, not %: the page growing (lazy sections) must not move it (layout shift).
  {src: wash, width: 300, height: 200, at: 'top: 30rem; left: calc(50% - 150px);'},
  {src: splash, width: 170, height: 170, at: 'bottom: 3rem; left: -2rem;'},
  {src: drops, width: 140, height: 140, at: 'bottom: 4rem; right: -1.5rem;'},
]

/** The post page's own decorative layout: three stains. */
const postPlacements: Placement[] = [
  {src: splash, width: 170, height: 170, at: 'top: 4rem; right: -3rem;'},
  {src: wash, width: 260, height: 173, at: 'top: 26rem; left: -6rem;'},
  {src: ring, width: 160, height: 160, at: 'bottom: 2rem; right: 1rem;'},
]

// Absolutely positioned with fixed sizes: they can never push content around (no layout shift).
const Img = styled.img<{$at: string}>`
  position: absolute;
  ${(props) => props.$at}
  pointer-events: none;
  user-select: none;
  z-index: 0;
  max-width: 45vw;
  height: auto;
`

/** Decorative stain images (original SVG art): hidden from assistive technology. */
export function Stains({variant}: {variant: 'site' | 'post'}) {
  const placements = variant === 'site' ? sitePlacements : postPlacements
  return (
    <div aria-hidden="true">
      {placements.map((p) => (
        <Img key={p.at} $at={p.at} src={p.src} width={p.width} height={p.height} alt="" decoding="async" fetchPriority="low" />
      ))}
    </div>
  )
}
