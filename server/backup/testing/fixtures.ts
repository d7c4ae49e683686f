import type {SanityClient} from '@sanity/client'
import sharp from 'sharp'
import {localClient} from '../../../test/support/localClient.ts'
import {dataset, localProjectId} from '../../env.ts'
import {exportLines, Lake} from '../../lake/index.ts'

/** @sanity/client against a test server, as the Studio builds it. */
export function ownerClient(url: string, token: string): SanityClient {
  return localClient(url, {dataset, apiVersion: '2025-02-19', token})
}

/** A small real PNG, different for each `seed`. */
export function png(seed: number): Promise<Buffer> {
  return sharp({
    create: {width: 8, height: 8, channels: 3, background: {r: seed % 256, g: 80, b: 160}},
  })
    .png()
    .toBuffer()
}

/** The lake in `dataDir`, opened as the CLIs do; closed after `use`. */
export async function withLake<T>(
  dataDir: string,
  use: (lake: Lake) => T | Promise<T>,
): Promise<T> {
  const lake = new Lake({dataDir, projectId: localProjectId, dataset, token: 'x'.repeat(40)})
  try {
    return await use(lake)
  } finally {
    lake.close()
  }
}

/** `lake:export`'s output for the lake in `dataDir`. */
export const exportOf = (dataDir: string) =>
  withLake(dataDir, (lake) => [...exportLines(lake)].join(''))
