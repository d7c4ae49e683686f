import {isbot} from 'isbot'
import {clip} from './dimensions.ts'
import {browserFamily, deviceClass, type DeviceClass} from './userAgent.ts'

/** What the counting needs to know of a user agent. */
export interface Agent {
  /** The header clipped and cleaned (dimensions.ts): what the visitor hash is made with. */
  userAgent: string
  bot: boolean
  device: DeviceClass
  browser: string
}

/** User agents remembered: a site's readers use a few hundred; past it the memory starts over. */
const maxAgents = 1000
/** Longer headers are worked out each time: no browser sends one, and they would weigh. */
const maxRememberedLength = 512
const known = new Map<string, Agent>()
let last: {raw: string | undefined; agent: Agent} = {
  raw: undefined,
  agent: {userAgent: '', bot: true, device: 'desktop', browser: 'Other'},
}

/**
 * isbot's verdict, the device class and the browser family of a `User-Agent` header, worked out
 * once per distinct agent: readers send the same few agents over and over, and isbot's pattern,
 * the clipping and the classifiers' are the larger part of counting a view. Bounded, and in
 * memory only.
 */
export function agentOf(header: string | undefined): Agent {
  const raw = header ?? ''
  // The previous view's agent first: comparing a header with the last one is cheaper than
  // hashing it for the map, and a reader's pages, or a popular browser's, come in runs.
  if (raw === last.raw) return last.agent
  let agent = known.get(raw)
  if (!agent) {
    const userAgent = clip(raw)
    agent = {
      userAgent,
      bot: userAgent === '' || isbot(userAgent),
      device: deviceClass(userAgent),
      browser: browserFamily(userAgent),
    }
    if (raw.length > maxRememberedLength) return agent
    if (known.size >= maxAgents) known.clear()
    known.set(raw, agent)
  }
  last = {raw, agent}
  return agent
}
