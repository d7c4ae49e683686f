/**
 * Renders the default share image (Open Graph / Twitter card), original art drawn in
 * share-image.svg, to the 1200×630 PNG that the site serves from web/public. Social networks
 * do not accept SVG previews, so the PNG is committed; run `node web/seo/renderShareImage.ts`
 * after editing the SVG.
 */
import {readFileSync} from 'node:fs'
import {fileURLToPath} from 'node:url'
import sharp from 'sharp'
import {shareImage} from '../../shared/siteIdentity.ts'

const svg = readFileSync(new URL('./share-image.svg', import.meta.url))
const output = fileURLToPath(new URL(`../public${shareImage.path}`, import.meta.url))

const info = await sharp(svg, {density: 72})
  .resize(shareImage.width, shareImage.height)
  .png({compressionLevel: 9, palette: true, quality: 90})
  .toFile(output)
console.log(`[share image] ${output}: ${info.width}×${info.height}, ${info.size} bytes`)
