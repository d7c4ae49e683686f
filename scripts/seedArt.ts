import {mkdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import sharp from 'sharp'

/**
 * Renders the seed's images (content/images/): generated art the project owns, licensed with
 * the repository. Run `node scripts/seedArt.ts` once and commit the files; content/build-seed.ts
 * reads them. Each is drawn as SVG and encoded by sharp, small on purpose (smooth shapes, JPEG
 * quality 70). Two are there to exercise the image pipeline: a JPEG stored sideways with EXIF
 * orientation 6 (as phones write portrait photos) and a PNG with transparency.
 */

export const seedImagesDir = join(import.meta.dirname, '..', 'content', 'images')

/** A seeded pseudo-random sequence, so a re-run draws the same picture. */
function random(seed: number): () => number {
  let state = seed
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648
    return state / 2147483648
  }
}

const svg = (width: number, height: number, body: string) =>
  Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">${body}</svg>`,
  )

const gradient = (id: string, stops: string[], vertical = true) =>
  `<linearGradient id="${id}" x1="0" y1="0" x2="${vertical ? 0 : 1}" y2="${vertical ? 1 : 0}">${stops
    .map((colour, i) => `<stop offset="${i / (stops.length - 1)}" stop-color="${colour}"/>`)
    .join('')}</linearGradient>`

/** A mountain skyline as a polygon across the width. */
function ridge(width: number, base: number, amplitude: number, seed: number, fill: string) {
  const next = random(seed)
  const points = [`0,${base}`]
  for (let x = 0; x <= width; x += width / 24)
    points.push(`${Math.round(x)},${Math.round(base - next() * amplitude)}`)
  points.push(`${width},10000`, `0,10000`)
  return `<polygon points="${points.join(' ')}" fill="${fill}"/>`
}

function leaves(width: number, height: number, count: number, seed: number, colours: string[]) {
  const next = random(seed)
  let out = ''
  for (let i = 0; i < count; i++) {
    const x = Math.round(next() * width)
    const y = Math.round(next() * height)
    const r = Math.round(30 + next() * 90)
    const angle = Math.round(next() * 360)
    const colour = colours[i % colours.length]
    out += `<ellipse cx="${x}" cy="${y}" rx="${r}" ry="${Math.round(r * 0.55)}" transform="rotate(${angle} ${x} ${y})" fill="${colour}" opacity="0.85"/>`
  }
  return out
}

interface Art {
  file: string
  width: number
  height: number
  draw: (width: number, height: number) => string
}

const landscape = {width: 1600, height: 1000}

const arts: Art[] = [
  {
    file: 'chinar-leaves.jpg',
    ...landscape,
    draw: (w, h) =>
      `<defs>${gradient('sky', ['#f3c98b', '#c4532d'])}</defs><rect width="${w}" height="${h}" fill="url(#sky)"/>` +
      leaves(w, h, 70, 7, ['#8e1f12', '#b8361b', '#d9712c', '#6d160e', '#e49a3a']),
  },
  {
    file: 'dal-lake-dawn.jpg',
    ...landscape,
    draw: (w, h) =>
      `<defs>${gradient('sky', ['#d7dff0', '#f6d2b8'])}${gradient('water', ['#8fa6c2', '#3c5777'])}</defs>` +
      `<rect width="${w}" height="${h}" fill="url(#sky)"/>` +
      ridge(w, 520, 260, 3, '#9aa7bf') +
      ridge(w, 600, 180, 11, '#6f7f9b') +
      `<rect y="640" width="${w}" height="${h - 640}" fill="url(#water)"/>` +
      `<rect x="620" y="690" width="360" height="26" rx="13" fill="#2a2620"/>`,
  },
  {
    file: 'zoji-la-road.jpg',
    ...landscape,
    draw: (w, h) =>
      `<defs>${gradient('sky', ['#7fb2e5', '#e8f1f8'])}</defs><rect width="${w}" height="${h}" fill="url(#sky)"/>` +
      ridge(w, 420, 300, 5, '#e9edf2') +
      ridge(w, 620, 220, 17, '#8c7a66') +
      `<path d="M-20 980 C 400 880, 300 760, 800 720 S 1300 640, 1620 600" stroke="#3b3631" stroke-width="38" fill="none"/>` +
      `<path d="M-20 980 C 400 880, 300 760, 800 720 S 1300 640, 1620 600" stroke="#f2e6c9" stroke-width="4" stroke-dasharray="30 30" fill="none"/>`,
  },
  {
    file: 'ink-and-paper.jpg',
    ...landscape,
    draw: (w, h) =>
      `<rect width="${w}" height="${h}" fill="#efe6d6"/>` +
      Array.from(
        {length: 14},
        (_, i) =>
          `<line x1="180" y1="${170 + i * 50}" x2="${1100 - (i % 3) * 140}" y2="${170 + i * 50}" stroke="#2d3a55" stroke-width="5" stroke-linecap="round" opacity="0.7"/>`,
      ).join('') +
      `<circle cx="1290" cy="640" r="150" fill="#1d2436"/><ellipse cx="1290" cy="600" rx="110" ry="40" fill="#3a4868"/>`,
  },
  {
    file: 'red-pen.jpg',
    ...landscape,
    draw: (w, h) =>
      `<rect width="${w}" height="${h}" fill="#f7f2e8"/>` +
      Array.from(
        {length: 12},
        (_, i) =>
          `<line x1="160" y1="${160 + i * 60}" x2="${1300 - (i % 4) * 120}" y2="${160 + i * 60}" stroke="#444" stroke-width="6" opacity="0.55"/>`,
      ).join('') +
      `<path d="M300 400 q 60 -40 120 0 t 120 0" stroke="#c0392b" stroke-width="8" fill="none"/>` +
      `<rect x="980" y="520" width="520" height="60" rx="30" transform="rotate(-28 1240 550)" fill="#b3261e"/>`,
  },
  {
    // Upright it is a portrait; stored rotated a quarter turn with EXIF orientation 6.
    file: 'kolahoi-ridge.jpg',
    width: 1000,
    height: 1400,
    draw: (w, h) =>
      `<defs>${gradient('sky', ['#2f4f86', '#c8d8ee'])}</defs><rect width="${w}" height="${h}" fill="url(#sky)"/>` +
      `<polygon points="120,1400 520,240 640,420 760,300 1000,900 1000,1400" fill="#f4f6fa"/>` +
      `<polygon points="520,240 600,520 470,760 300,1400 120,1400" fill="#aab6c8"/>` +
      ridge(w, 1150, 160, 23, '#3f5a45'),
  },
]

/** The transparent one: a kangri (the wicker fire-pot) as a cut-out. */
const kangri = {
  file: 'kangri-cutout.png',
  width: 800,
  height: 800,
  draw: () =>
    `<path d="M200 420 h400 l-60 300 h-280 z" fill="#a6793f"/>` +
    Array.from(
      {length: 8},
      (_, i) =>
        `<line x1="${230 + i * 48}" y1="440" x2="${270 + i * 34}" y2="700" stroke="#7a5426" stroke-width="6"/>`,
    ).join('') +
    `<ellipse cx="400" cy="420" rx="200" ry="46" fill="#5a3a1c"/>` +
    `<ellipse cx="400" cy="412" rx="150" ry="26" fill="#e2572b"/>` +
    `<path d="M220 410 C 220 120, 580 120, 580 410" stroke="#7a5426" stroke-width="18" fill="none"/>`,
}

export async function renderSeedArt(dir = seedImagesDir): Promise<string[]> {
  mkdirSync(dir, {recursive: true})
  const written: string[] = []
  for (const art of arts) {
    let image = sharp(svg(art.width, art.height, art.draw(art.width, art.height)))
    // Orientation 6 means "turn 90° clockwise to show": store the picture turned back.
    if (art.file === 'kolahoi-ridge.jpg') image = sharp(await image.png().toBuffer()).rotate(270)
    const jpeg = image.jpeg({quality: 70, mozjpeg: true})
    const bytes = await (
      art.file === 'kolahoi-ridge.jpg' ? jpeg.withMetadata({orientation: 6}) : jpeg
    ).toBuffer()
    writeFileSync(join(dir, art.file), bytes)
    written.push(art.file)
  }
  const png = await sharp(svg(kangri.width, kangri.height, kangri.draw()))
    .png({compressionLevel: 9, palette: true})
    .toBuffer()
  writeFileSync(join(dir, kangri.file), png)
  written.push(kangri.file)
  return written
}

if (process.argv[1] === import.meta.filename) {
  for (const file of await renderSeedArt()) console.log(`[seedArt] wrote content/images/${file}`)
}
