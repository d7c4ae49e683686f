import {Button} from '@sanity/ui'
import {useToast} from '@sanity/ui/toast'
import {useState} from 'react'
import {downloadCsv} from './csvDownload.ts'
import {useStatsRequest} from './statsRequest.ts'

/** Downloads one table of the period as the server's CSV (`/api/stats/<table>.csv?days=N`). */
export function CsvButton({table, days, title}: {table: string; days: number; title?: string}) {
  const request = useStatsRequest()
  const toast = useToast()
  const [busy, setBusy] = useState(false)
  const path = `${table}.csv?days=${days}`
  const save = () => {
    setBusy(true)
    request(path)
      .then((response) => downloadCsv(response, `${table}-${days}d.csv`))
      .catch((error: unknown) =>
        toast.push({
          status: 'error',
          title: 'The CSV could not be downloaded',
          description: error instanceof Error ? error.message : String(error),
        }),
      )
      .finally(() => setBusy(false))
  }
  return (
    <Button
      mode="ghost"
      fontSize={1}
      padding={2}
      text="CSV"
      aria-label={`Download ${title ?? table} as CSV`}
      data-csv={path}
      loading={busy}
      onClick={save}
    />
  )
}
