import {isbot} from 'isbot'
import {browserFamily, deviceClass, type DeviceClass} from './userAgent.ts'

/** What the counting needs to know of a user agent. */
export interface Agent {
  bot: boolean
  device: DeviceClass
  browser: string
}

/** User agents remembered: a site's readers use a few hundred; past it the memory starts over. */
const maxAgents = 1000
const known = new Map<string, Agent>()

/**
 * isbot's verdict, the device class and the browser family of a (clipped) user agent, worked out
 * once per distinct agent: readers send the same few agents over and over, and isbot's pattern
 * and the classifiers' are the larger part of counting a view. Bounded, and in memory only.
 */
export function agentOf(userAgent: string): Agent {
  let agent = known.get(userAgent)
  if (!agent) {
    if (known.size >= maxAgents) known.clear()
    agent = {
      bot: userAgent === '' || isbot(userAgent),
      device: deviceClass(userAgent),
      browser: browserFamily(userAgent),
    }
    known.set(userAgent, agent)
  }
  return agent
}
