import {request} from 'node:http'

export interface Answer {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: string
  /** Milliseconds from sending to the end of the body. */
  ms: number
}

/**
 * A GET from a given loopback address (127.0.0.2, 127.0.0.3, …), so that one test process can
 * act as several clients: the server keys its limits on the peer address.
 */
export function getFrom(
  url: string,
  localAddress: string,
  headers: Record<string, string> = {},
): Promise<Answer> {
  return sendFrom('GET', url, localAddress, headers)
}

/** A POST of `body` from a given loopback address, as getFrom. */
export function postFrom(
  url: string,
  localAddress: string,
  body: string,
  headers: Record<string, string> = {'content-type': 'application/json'},
): Promise<Answer> {
  return sendFrom('POST', url, localAddress, headers, body)
}

function sendFrom(
  method: string,
  url: string,
  localAddress: string,
  headers: Record<string, string>,
  body?: string,
): Promise<Answer> {
  const started = performance.now()
  return new Promise((resolve, reject) => {
    const req = request(url, {method, localAddress, headers, agent: false}, (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => (text += chunk))
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: text,
          ms: performance.now() - started,
        }),
      )
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end(body)
  })
}

/** The lake's query URL for `groq` with `$name` params, as @sanity/client sends a GET. */
export function queryUrl(
  origin: string,
  groq: string,
  params: Record<string, unknown> = {},
): string {
  const search = new URLSearchParams({query: groq})
  for (const [name, value] of Object.entries(params)) search.set(`$${name}`, JSON.stringify(value))
  return `${origin}/v2023-07-29/data/query/production?${search}`
}
