import {request as httpRequest, type IncomingHttpHeaders, type IncomingMessage} from 'node:http'
import {request as httpsRequest} from 'node:https'

export interface NodeAnswer {
  status: number
  headers: IncomingHttpHeaders
  body: string
}

/**
 * One request through node:http(s), for what fetch will not do in tests: set Host, or trust the
 * server's self-signed certificate (the HTTPS listener). The whole body is read as text.
 */
export function nodeRequest(
  url: string,
  options: {method?: string; headers?: Record<string, string>} = {},
): Promise<NodeAnswer> {
  const secure = url.startsWith('https:')
  return new Promise((resolve, reject) => {
    const callback = (res: IncomingMessage) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => (body += chunk))
      res.on('end', () => resolve({status: res.statusCode ?? 0, headers: res.headers, body}))
    }
    const settings = {method: options.method ?? 'GET', headers: options.headers ?? {}}
    const req = secure
      ? httpsRequest(url, {...settings, rejectUnauthorized: false}, callback)
      : httpRequest(url, settings, callback)
    req.on('error', reject)
    req.end()
  })
}
