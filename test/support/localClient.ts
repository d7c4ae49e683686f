import {createClient, type ClientConfig, type SanityClient} from '@sanity/client'
import {apiVersion, defaultDataset, localProjectId} from '../../shared/constants.ts'

/**
 * @sanity/client against a lake on `url` as the Studio and the site build it for the local
 * project (its project and dataset, no project hostname), without the CDN unless asked; the
 * options add a token, another API version, or a client setting a test is about.
 */
export function localClient(url: string, options: ClientConfig = {}): SanityClient {
  return createClient({
    projectId: localProjectId,
    dataset: defaultDataset,
    apiVersion,
    apiHost: url,
    useProjectHostname: false,
    useCdn: false,
    ...options,
  })
}
