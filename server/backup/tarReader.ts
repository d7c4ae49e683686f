import {BackupError} from './errors.ts'
import {blockSize, headerChecksum} from './tarWriter.ts'

export interface TarEntryHeader {
  path: string
  type: 'file' | 'directory'
  size: number
}

/** Where an entry's data goes: `write` for each chunk in order, then `end`. */
export interface EntrySink {
  write(chunk: Buffer): Promise<void>
  end(): Promise<void>
}

function text(header: Buffer, offset: number, length: number): string {
  const raw = header.subarray(offset, offset + length)
  const end = raw.indexOf(0)
  return raw.subarray(0, end < 0 ? length : end).toString('utf8')
}

function octalField(header: Buffer, offset: number, length: number, what: string): number {
  const value = text(header, offset, length).trim()
  if (!/^[0-7]{1,12}$/.test(value))
    throw new BackupError(`the archive is corrupt (bad ${what} field)`)
  return parseInt(value, 8)
}

function parseHeader(header: Buffer): TarEntryHeader {
  if (octalField(header, 148, 8, 'checksum') !== headerChecksum(header))
    throw new BackupError('the archive is corrupt (a header checksum does not match)')
  if (text(header, 257, 6) !== 'ustar')
    throw new BackupError('the archive is not in the ustar format a backup is written in')
  const flag = String.fromCharCode(header[156])
  const prefix = text(header, 345, 155)
  const name = text(header, 0, 100)
  const path = prefix ? `${prefix}/${name}` : name
  if (flag === '0' || flag === '\0')
    return {path, type: 'file', size: octalField(header, 124, 12, 'size')}
  if (flag === '5') return {path, type: 'directory', size: 0}
  throw new BackupError(`the archive holds an entry of a kind a backup never has: ${path}`)
}

const isZero = (block: Buffer) => block.every((byte) => byte === 0)

/**
 * Reads a ustar stream (the inverse of tarStream), handing each entry to `visit`, which decides
 * where its data goes. Throws a BackupError on anything a backup would not contain, and when
 * the stream ends before the end-of-archive blocks (a truncated file).
 */
export async function readTar(
  source: AsyncIterable<Buffer>,
  visit: (entry: TarEntryHeader) => Promise<EntrySink>,
): Promise<void> {
  let pending: Buffer = Buffer.alloc(0)
  let body: {sink: EntrySink; remaining: number; padding: number} | undefined
  let zeroBlocks = 0
  for await (const chunk of source) {
    pending = pending.length > 0 ? Buffer.concat([pending, chunk]) : chunk
    for (;;) {
      if (zeroBlocks === 2) {
        // Readers pad archives to a record size with zeros; anything else is not ours.
        if (!isZero(pending)) throw new BackupError('the archive has data after its end')
        pending = Buffer.alloc(0)
        break
      }
      if (body && body.remaining > 0) {
        if (pending.length === 0) break
        const take = pending.subarray(0, Math.min(body.remaining, pending.length))
        await body.sink.write(take)
        body.remaining -= take.length
        pending = pending.subarray(take.length)
        continue
      }
      if (body) {
        if (pending.length < body.padding) break
        pending = pending.subarray(body.padding)
        await body.sink.end()
        body = undefined
        continue
      }
      if (pending.length < blockSize) break
      const block = pending.subarray(0, blockSize)
      pending = pending.subarray(blockSize)
      if (isZero(block)) {
        zeroBlocks++
        continue
      }
      if (zeroBlocks > 0)
        throw new BackupError('the archive is corrupt (an entry after an empty block)')
      const entry = parseHeader(block)
      const sink = await visit(entry)
      body = {
        sink,
        remaining: entry.size,
        padding: (blockSize - (entry.size % blockSize)) % blockSize,
      }
    }
  }
  if (zeroBlocks < 2 || body) throw new BackupError('the archive ends early (it is truncated)')
}
