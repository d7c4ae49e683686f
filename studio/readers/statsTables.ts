/**
 * The reader-statistics tables the server serves (`GET /api/stats/<table>.{csv,json}?days=N`,
 * docs/reader-statistics.md), as the Readers tool shows them. The Studio bundle imports nothing
 * of the server, so the names are repeated here; the browser test opens every one.
 */
export interface StatsTable {
  columns: string[]
  rows: Array<Array<string | number>>
}

/** The ranked tables below the chart, in the order shown, with their headings. */
export const rankedTables = [
  {name: 'pages', title: 'Top pages'},
  {name: 'referrers', title: 'Referrers'},
  {name: 'campaigns', title: 'Campaigns'},
  {name: 'devices', title: 'Devices'},
  {name: 'browsers', title: 'Browsers'},
  {name: 'notfound', title: 'Not found'},
  {name: 'feeds', title: 'Feed readers'},
] as const

/** The periods of the switch, in days. */
export const periods = [7, 30, 90] as const
export type Period = (typeof periods)[number]
