import {BackupError} from './errors.ts'

/**
 * The POSIX ustar format (IEEE Std 1003.1, "pax" chapter, ustar interchange format): 512-byte
 * headers, file data padded to 512 bytes, two zero blocks at the end. GNU tar, bsdtar and
 * busybox tar all read it, which is the point: an owner can open a backup with `tar -xzf`.
 * Written here (about 60 lines) rather than taken from node_modules, where tar packages are
 * only transitive dependencies of the build tools and could vanish with an update.
 */
export const blockSize = 512

/** ustar's size field holds 11 octal digits: files up to 8 GiB − 1. */
export const maxEntryBytes = 8 * 1024 ** 3 - 1

/** ustar's name field: 100 bytes; our paths (`assets/images/{sha1}-{w}x{h}.ext`) fit. */
const maxNameBytes = 100

export interface TarEntry {
  /** Relative path with `/` separators; directories end with `/`. */
  path: string
  type: 'file' | 'directory'
  mode: number
  size: number
  mtime: Date
  /** File data, exactly `size` bytes in total. */
  body?: () => AsyncIterable<Buffer>
}

function field(header: Buffer, offset: number, length: number, value: string): void {
  header.write(value, offset, length, 'ascii')
}

function octal(header: Buffer, offset: number, length: number, value: number): void {
  field(header, offset, length, `${value.toString(8).padStart(length - 1, '0')}\0`)
}

/** One ustar header block. */
export function tarHeader(entry: TarEntry): Buffer {
  const name = Buffer.from(entry.path, 'utf8')
  if (name.length > maxNameBytes)
    throw new BackupError(`Path too long for the archive: ${entry.path}`)
  if (entry.size > maxEntryBytes)
    throw new BackupError(`${entry.path} is over 8 GiB, more than a ustar archive entry holds`)
  const header = Buffer.alloc(blockSize)
  name.copy(header, 0)
  octal(header, 100, 8, entry.mode)
  octal(header, 108, 8, 0) // uid
  octal(header, 116, 8, 0) // gid
  octal(header, 124, 12, entry.type === 'file' ? entry.size : 0)
  octal(header, 136, 12, Math.floor(entry.mtime.getTime() / 1000))
  field(header, 148, 8, '        ') // the checksum is computed with its own field as spaces
  field(header, 156, 1, entry.type === 'file' ? '0' : '5')
  field(header, 257, 6, 'ustar\0')
  field(header, 263, 2, '00')
  field(header, 265, 32, 'scriptorium')
  field(header, 297, 32, 'scriptorium')
  octal(header, 148, 7, headerChecksum(header))
  header[155] = 0x20
  return header
}

/** The sum of the header's bytes, its checksum field counted as spaces. */
export function headerChecksum(header: Buffer): number {
  let sum = 0
  for (let i = 0; i < blockSize; i++) sum += i >= 148 && i < 156 ? 0x20 : header[i]
  return sum
}

/** The archive's bytes: each entry's header and padded data, then the end-of-archive blocks. */
export async function* tarStream(entries: Iterable<TarEntry>): AsyncGenerator<Buffer> {
  for (const entry of entries) {
    yield tarHeader(entry)
    if (entry.type !== 'file') continue
    let written = 0
    for await (const chunk of entry.body?.() ?? []) {
      written += chunk.length
      if (written > entry.size) break
      yield chunk
    }
    if (written !== entry.size)
      throw new BackupError(
        `${entry.path} changed while it was archived (${written} ≠ ${entry.size} bytes)`,
      )
    const padding = (blockSize - (entry.size % blockSize)) % blockSize
    if (padding > 0) yield Buffer.alloc(padding)
  }
  yield Buffer.alloc(2 * blockSize)
}
