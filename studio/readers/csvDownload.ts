/**
 * Saves a table as the server's CSV (`/api/stats/<table>.csv?days=N`). A plain link cannot carry
 * the Studio session, which is a bearer token and not a cookie, so the file is fetched with it
 * and handed to the browser as a download of a blob: URL, with the server's file name.
 */
export async function downloadCsv(response: Response, fallbackName: string): Promise<void> {
  const disposition = response.headers.get('content-disposition') ?? ''
  const name = /filename="([^"]+)"/.exec(disposition)?.[1] ?? fallbackName
  const url = URL.createObjectURL(await response.blob())
  try {
    const link = document.createElement('a')
    link.href = url
    link.download = name
    link.click()
  } finally {
    // The click has started the download; the blob's memory can go.
    setTimeout(() => URL.revokeObjectURL(url), 0)
  }
}
