import {useMemo, type CSSProperties} from 'react'
import {useSiteConfig} from '../components/useSiteConfig.ts'
import {altOf, imageBuilder, responsiveImage, type ShownImage} from '../../shared/imageUrl.ts'

export interface ResponsiveImgProps {
  image: ShownImage
  /** The `sizes` attribute: how wide the image is drawn at each viewport width. */
  sizes: string
  /** The `src` width for browsers without `srcset` (and the width/height attributes' scale). */
  defaultWidth: number
  /** width / height to crop to around the hotspot; the Studio's crop as it is otherwise. */
  aspect?: number
  /** The page's largest image (the LCP): fetched first, never lazily. */
  priority?: boolean
  /** Without `priority`: 'eager' for a small image above the fold, fetched at once but not first. */
  loading?: 'lazy' | 'eager'
  className?: string
}

/**
 * One `<img>` with `srcset`, `sizes`, intrinsic `width`/`height` (so nothing shifts while it
 * loads) and the asset's blurred placeholder as its CSS background: a zero-JS LQIP that the
 * real image paints over. The placeholder is used only for opaque images, where nothing of it
 * shows through once the image is there.
 */
export function ResponsiveImg({
  image,
  sizes,
  defaultWidth,
  aspect,
  priority,
  loading = 'lazy',
  className,
}: ResponsiveImgProps) {
  const site = useSiteConfig()
  const built = useMemo(
    () => responsiveImage(imageBuilder(site), image, {aspect, defaultWidth}),
    [site, image, aspect, defaultWidth],
  )
  const lqip = image.asset.metadata?.isOpaque ? image.asset.metadata.lqip : undefined
  const style: CSSProperties | undefined = lqip
    ? {backgroundImage: `url("${lqip}")`, backgroundSize: 'cover'}
    : undefined
  return (
    <img
      className={className}
      src={built.src}
      srcSet={built.srcSet}
      sizes={sizes}
      width={built.width}
      height={built.height}
      alt={altOf(image)}
      loading={priority ? 'eager' : loading}
      fetchPriority={priority ? 'high' : undefined}
      decoding={priority ? 'sync' : 'async'}
      style={style}
    />
  )
}
