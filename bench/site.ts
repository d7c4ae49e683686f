/** What the benchmarks ask of the running site: its routes, and a post to open. */
export const apiVersion = '2023-07-29'

/** The lake's query endpoint as @sanity/client calls it (GET, `$`-prefixed JSON params). */
export function queryUrl(
  origin: string,
  query: string,
  params: Record<string, unknown> = {},
): string {
  const search = new URLSearchParams({query})
  for (const [name, value] of Object.entries(params)) search.set(`$${name}`, JSON.stringify(value))
  search.set('returnQuery', 'false')
  return `${origin}/v${apiVersion}/data/query/production?${search}`
}

/** The slug of the newest post, as the blog list shows it first. */
export async function newestPostSlug(origin: string): Promise<string> {
  const url = queryUrl(
    origin,
    '*[_type == "post" && defined(slug.current)] | order(date desc, _id asc)[0].slug.current',
  )
  const response = await fetch(url)
  const body: unknown = await response.json()
  const slug = body && typeof body === 'object' && 'result' in body ? body.result : undefined
  if (typeof slug !== 'string') throw new Error(`no post found at ${origin} (${response.status})`)
  return slug
}

/** The six public routes of the spec, with one real post. */
export function publicRoutes(slug: string): string[] {
  return ['/', '/service', '/testimonial', '/blog', `/blog/${slug}`, '/contact']
}

/** Fetches a page and reports its status, so a benchmark can say which routes are not there yet. */
export async function fetchPage(url: string): Promise<{status: number; body: string; ms: number}> {
  const start = performance.now()
  const response = await fetch(url)
  const body = await response.text()
  return {status: response.status, body, ms: performance.now() - start}
}
