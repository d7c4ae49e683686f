/**
 * Speculation rules (https://developer.chrome.com/docs/web-platform/prerender-pages): before the
 * app has hydrated, a link is a full page load; Chromium prerenders a same-origin page the
 * visitor is about to open (hovering it for 200 ms, or pressing it on a touch screen), so the tap
 * shows a page that is already rendered. Not the relay, the Studio, feeds or files, and not links
 * that open a new tab. Once the app hydrates, it removes them (entry.client.tsx): React Router
 * navigates in the page and a prerender would only compete with it.
 */
const rules = {
  prerender: [
    {
      where: {
        and: [
          {href_matches: '/*'},
          {not: {href_matches: ['/api/*', '/studio', '/studio/*', '/assets/*', '/*.xml']}},
          {not: {selector_matches: '[target="_blank"], [download]'}},
        ],
      },
      eagerness: 'moderate',
    },
  ],
}

/** The exact text of the rules' inline <script>: the server hashes it for the CSP. */
export function speculationRulesSource(): string {
  return JSON.stringify(rules)
}

export function speculationRulesScript(): string {
  return `<script type="speculationrules">${speculationRulesSource()}</script>`
}
