/**
 * The floor under our server: bare node:http answering each page's HTML from memory, with the
 * headers a static server sends. Started by floor.ts with a JSON file of {path: html}; prints
 * "listening <port>" once it listens on loopback.
 */
import {readFileSync} from 'node:fs'
import {createServer} from 'node:http'
import type {AddressInfo} from 'node:net'

const pages = new Map<string, Buffer>()
const file = process.argv[2]
if (!file) throw new Error('usage: node bench/floor.child.ts <pages.json>')
const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'))
for (const [path, html] of Object.entries(parsed as Record<string, string>))
  pages.set(path, Buffer.from(html))

const server = createServer((req, res) => {
  const body = pages.get(req.url ?? '/')
  if (!body) {
    res.writeHead(404).end()
    return
  }
  res
    .writeHead(200, {'content-type': 'text/html; charset=utf-8', 'content-length': body.length})
    .end(body)
})
server.listen(0, '127.0.0.1', () =>
  console.log(`listening ${(server.address() as AddressInfo).port}`),
)
process.once('SIGTERM', () => server.close(() => process.exit(0)))
