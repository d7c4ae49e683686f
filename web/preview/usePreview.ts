import {use} from 'react'
import {PreviewContext} from './previewContext.ts'

export function usePreview(): boolean {
  return use(PreviewContext)
}
