import {defineField, type ValidationContext} from 'sanity'

/**
 * The image formats a post accepts (issue 22): JPEG, PNG, WebP and AVIF. An SVG is never
 * offered by the Studio's file picker for a post, and the lake never transforms one.
 */
export const acceptedImageTypes = ['image/jpeg', 'image/png', 'image/webp', 'image/avif']

/** The longest caption the owner may write. */
export const maxCaptionLength = 200

/**
 * Alternative text is required as soon as an image is set, unless the owner marks it decorative
 * (then the site writes `alt=""`). An image field with no asset needs nothing.
 */
export function altRule(alt: unknown, context: ValidationContext): true | string {
  const image: unknown = context.parent
  if (typeof image !== 'object' || image === null) return true
  const hasAsset = 'asset' in image && typeof image.asset === 'object' && image.asset !== null
  const decorative = 'decorative' in image && image.decorative === true
  if (!hasAsset || decorative) return true
  return typeof alt === 'string' && alt.trim() !== ''
    ? true
    : 'Describe the image for readers who cannot see it, or mark it decorative'
}

/** The fields a post's images carry: the cover and the body's image blocks alike. */
export const postImageFields = [
  defineField({
    name: 'alt',
    title: 'Alternative text',
    type: 'string',
    description: 'What the image shows, for readers who cannot see it.',
    validation: (rule) => rule.custom(altRule),
  }),
  defineField({
    name: 'decorative',
    title: 'Decorative',
    type: 'boolean',
    // No initialValue: it would give every new post an image object without an asset.
    description: 'Adds nothing to the text: screen readers skip it.',
  }),
  defineField({
    name: 'caption',
    title: 'Caption',
    type: 'string',
    validation: (rule) => rule.max(maxCaptionLength),
  }),
]

/** Image options for a post: hotspot and crop on, only the accepted formats offered. */
export const postImageOptions = {hotspot: true, accept: acceptedImageTypes.join(',')}
