import styled from 'styled-components'
import {useSiteConfig} from '../components/useSiteConfig.ts'
import {theme} from '../components/theme.ts'
import {feedPaths} from '../../shared/siteIdentity.ts'

const FollowLink = styled.a`
  display: inline-flex;
  align-items: center;
  min-height: 44px;
  padding: 0.5rem 0.75rem;
  color: ${theme.accent};
`

/**
 * The footer's ways to follow the blog: Subscribe (to Home's form, when subscriptions are on)
 * and the RSS feed, which pages otherwise name only in `<link rel="alternate">`.
 */
export function FooterFollowLinks() {
  const {subscribeAction} = useSiteConfig()
  return (
    <>
      {subscribeAction && <FollowLink href="/#subscribe">Subscribe</FollowLink>}
      <FollowLink href={feedPaths.rss} type="application/rss+xml">
        RSS
      </FollowLink>
    </>
  )
}
