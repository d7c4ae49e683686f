import {useLoaderData, useLocation} from 'react-router-dom'
import {latestTab, tabHref} from '../blogTabs.ts'
import {BlogTabs} from '../components/BlogTabs.tsx'
import {PageMeta} from '../components/PageMeta.tsx'
import {PostList} from '../components/PostList.tsx'
import type {blogLoader} from './blog.loader.ts'

/** The blog list: title, category tabs, six cards, 'Load More' (requirements §2, §4). */
export function Blog() {
  const data = useLoaderData<typeof blogLoader>()
  // Every navigation, a tab link to the tab already shown too, starts again from the loader's
  // posts (six, requirements §4.1.4); 'Load More' keeps the entry and adds to them.
  const {key} = useLocation()
  return (
    <>
      <PageMeta
        title={data.tab === latestTab ? 'Blog' : `Blog: ${data.tabTitle}`}
        description="Stories, essays and notes on fiction, mountaineering, motorcycles and life in Kashmir, by a freelance writer and editor."
        canonicalPath={tabHref(data.tab)}
      />
      <h1>Blog</h1>
      <BlogTabs selected={data.tab} categories={data.categories} />
      <PostList key={key} tab={data.tab} first={data} />
    </>
  )
}
