import {useToast} from '@sanity/ui/toast'
import {useEffect} from 'react'
import type {AssetSource, AssetSourceComponentProps} from 'sanity'

/**
 * The Studio (sanity 6.16) answers every failed upload with the same toast, "Upload failed. See
 * the console for more information.", and logs the error: the reason the lake (or sanity.io)
 * gave is only in the console. The lake refuses in Sanity's error shape
 * (`{error: {type, description}}`), which @sanity/client turns into the error's `message`
 * (server/lake/errors.ts), so that message is what the owner needs to see: a 200-megapixel
 * limit, a 25 MiB limit, a corrupt file, an SVG with script (issue 35 §4).
 *
 * This wraps an asset source's component: while it uploads (the Studio renders it with
 * `action: 'upload'` and the `uploader` it drives), each file that ends in an error shows a
 * second toast with that file's name and the reason. Nothing else of the source changes.
 */
export function withUploadReasons(source: AssetSource): AssetSource {
  const Inner = source.component
  function WithUploadReasons(props: AssetSourceComponentProps) {
    const {push} = useToast()
    const {uploader} = props
    useEffect(
      () =>
        uploader?.subscribe((event) => {
          if (event.type !== 'status' || event.status !== 'error' || !event.file.error) return
          push({
            id: `upload-refused-${event.file.id}`,
            status: 'error',
            title: `${event.file.file.name} was not uploaded`,
            description: event.file.error.message,
            closable: true,
            duration: 30_000,
          })
        }),
      [uploader, push],
    )
    return <Inner {...props} />
  }
  return {...source, component: WithUploadReasons}
}
