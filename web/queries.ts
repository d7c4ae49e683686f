/**
 * Every GROQ query the site runs (requirements §7), defined in shared/siteQueries.ts so that the
 * server's discovery files (sitemap, feeds) take them from below both, not from the site.
 */
export * from '../shared/siteQueries.ts'
