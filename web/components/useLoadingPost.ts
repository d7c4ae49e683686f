import {useNavigation} from 'react-router-dom'

/** True while the router loads a post page on client-side navigation (spec: 'Loading...'). */
export function useLoadingPost(): boolean {
  const navigation = useNavigation()
  return navigation.state === 'loading' && /^\/blog\/[^/]+\/?$/.test(navigation.location.pathname)
}
