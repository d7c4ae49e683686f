/** The Services page's copy (requirements §1). */
export const writingServices = [
  'Ghostwriting',
  'Creative pieces',
  'Guest posts',
  'Website content',
  'Blog posts',
]

export const editingServices = [
  'Developmental editing',
  'Line editing',
  'Copy editing',
  'Proofreading',
]

export const modusOperandi = [
  'A service agreement is signed before every project.',
  'A free sample write-up or edit is offered for an excerpt of 500–1000 words.',
  'I reply within two business days, and within up to five business days for samples.',
]

/** Blog posts that show the kind of writing on offer (by tab, so they always resolve). */
export const blogSamples = [
  {label: 'Fiction samples', category: 'Fiction'},
  {label: 'Mountaineering stories', category: 'Mountaineering'},
  {label: 'Motorcycle journeys', category: 'Motorcycles'},
  {label: 'Writing about Kashmir', category: 'Kashmir'},
] as const
