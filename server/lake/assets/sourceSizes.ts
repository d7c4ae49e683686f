import sharp from 'sharp'

/** Source sizes remembered (read from the file header once per file); cleared when full. */
const maxKnownSizes = 1000

export interface Size {
  width: number
  height: number
}

/** The size a transform starts from: EXIF orientations 5–8 swap width and height (`rotate()`). */
async function orientedSize(path: string): Promise<Size> {
  const meta = await sharp(path).metadata()
  const width = meta.width ?? 1
  const height = meta.height ?? 1
  return (meta.orientation ?? 1) >= 5 ? {width: height, height: width} : {width, height}
}

/**
 * Each source image's size as a transform starts from it: bounding a request (imageParams.ts)
 * needs it before any cache is asked, so it is read from the file's header once, not per request.
 */
export class SourceSizes {
  private readonly known = new Map<string, Size>()

  /** The oriented size of the asset file `file`, stored at `path`. */
  async of(file: string, path: string): Promise<Size> {
    const known = this.known.get(file)
    if (known) return known
    const size = await orientedSize(path)
    if (this.known.size >= maxKnownSizes) this.known.clear()
    this.known.set(file, size)
    return size
  }
}
