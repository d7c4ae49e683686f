import type {Page} from 'playwright-core'

/** The spec's block styles as the Studio's style menu names them, with the stored value. */
export const styles = [
  ['Heading 1', 'h1'],
  ['Heading 2', 'h2'],
  ['Heading 3', 'h3'],
  ['Heading 4', 'h4'],
  ['Heading 5', 'h5'],
  ['Heading 6', 'h6'],
  ['Quote', 'blockquote'],
  ['Normal', 'normal'],
] as const

/** Toolbar button labels of the spec's decorators, with the stored mark. */
export const decorators = [
  ['Strong', 'strong'],
  ['Emphasis', 'em'],
  ['Code', 'code'],
  ['Underline', 'underline'],
  ['Strike', 'strike-through'],
] as const

const toolbar = (page: Page) => page.getByTestId('pt-editor__toolbar-card')
const button = (page: Page, label: string) =>
  toolbar(page).getByRole('button', {name: label, exact: true})
const editable = (page: Page) =>
  page.getByTestId('field-body').locator('[contenteditable="true"]').first()

/**
 * Clicks the toolbar's `label` tool. The body's image block (issue 22) puts an "Image" insert
 * button in the toolbar, and the tools that no longer fit (Numbered, Link) move into its "…"
 * menu (the form's width is capped, so a wider window does not bring them back): there they are
 * chosen from the menu, which leaves the focus on its button. A tool chosen there acts on the
 * editor's own selection; `refocus` then puts the caret back at the end of the text.
 */
async function tool(page: Page, label: string, refocus = true): Promise<void> {
  const direct = button(page, label)
  if (await direct.isVisible()) return direct.click()
  await toolbar(page).getByTestId('action-menu-button').click()
  await page.getByRole('menuitem', {name: label, exact: true}).click()
  // Link opens its own popover, which holds the focus.
  if (!refocus) return
  await page.getByRole('menu').waitFor({state: 'detached'})
  await backToEnd(page)
}

/**
 * Puts the focus back in the editor with the caret at the very end of the text, where the
 * editor's own selection already is. The editor learns of a caret the browser moved (a click,
 * Ctrl+End) only from a throttled selectionchange handler (~100 ms later): a key pressed before
 * that lands at the editor's old selection. So click exactly at the end, never elsewhere first.
 */
async function backToEnd(page: Page): Promise<void> {
  const block = editable(page).locator('[data-testid^="text-style--"]').last()
  const position = await block.evaluate((element) => {
    let last: Text | null = null
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT)
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (node.textContent?.replace(/\uFEFF/g, '')) last = node as Text
    }
    if (!last) throw new Error('the last block has no text')
    const range = document.createRange()
    range.setStart(last, last.length)
    const rects = range.getClientRects()
    const end = rects[rects.length - 1] ?? range.getBoundingClientRect()
    const box = element.getBoundingClientRect()
    return {x: end.right - box.left + 2, y: end.top - box.top + end.height / 2}
  })
  // Just right of the last character, on the block: Playwright scrolls it into view and clicks
  // only once nothing (the pane's footer) covers that point.
  await block.click({position})
}

async function setStyle(page: Page, name: string): Promise<void> {
  await toolbar(page)
    .getByRole('button', {name: /^(Normal|Heading \d|Quote|No style)$/})
    .click()
  await page.getByRole('menuitem').filter({hasText: name}).click()
  // The menu leaves the focus on its button, not in the text.
  await page.getByRole('menu').waitFor({state: 'detached'})
  await backToEnd(page)
}

/**
 * Types a body through the Portable Text editor's own controls: one block per style, a paragraph
 * with every decorator and a link, then a bullet and a numbered list item. Text is inserted in one
 * input event per string (like a paste), keys and buttons are the editor's. `linkStored`
 * resolves once the lake holds the link's href.
 */
export async function typeRichBody(
  page: Page,
  label: string,
  href: string,
  linkStored: () => Promise<unknown>,
): Promise<void> {
  await editable(page).click()
  for (const [index, [name]] of styles.entries()) {
    if (index > 0) await page.keyboard.press('Enter')
    await page.keyboard.insertText(`${name} of ${label}`)
    await setStyle(page, name)
  }
  await page.keyboard.insertText(' with ')
  for (const [name] of decorators) {
    await tool(page, name)
    await page.keyboard.insertText(name.toLowerCase())
    await tool(page, name)
    await page.keyboard.insertText(' ')
  }
  // With the caret at the end of a word, Link annotates that word ("link"): the editor picks it
  // from its own selection, where a Shift+Arrow selection would reach it only ~100 ms later.
  await page.keyboard.insertText('a link')
  await tool(page, 'Link', false)
  const popover = page.locator('[data-ui="Popover__wrapper"]').filter({hasText: 'Edit Link'})
  await popover.locator('input').first().click()
  await page.keyboard.insertText(href)
  // Closing the popover before the href is saved drops the (then empty) annotation.
  await linkStored()
  await page.getByTestId('close-popover-edit-dialog-button').click()
  // Closing gives the focus back to the text with "link" still selected, or (Link chosen from the
  // "…" menu) with the caret before it. The editor itself handles ArrowRight (no browser caret
  // move to wait for): a selection collapses to its end, a caret moves one character, and at the
  // end of the text (the last block) it stays. So one press per letter reaches the end either way.
  await page.waitForFunction(
    () =>
      document.activeElement?.closest('[data-testid="field-body"] [contenteditable="true"]') !=
      null,
  )
  for (let letter = 0; letter < 'link'.length; letter++) await page.keyboard.press('ArrowRight')
  await page.keyboard.press('Enter')
  await tool(page, 'Bullet')
  await page.keyboard.insertText(`A bullet of ${label}`)
  await page.keyboard.press('Enter')
  // Text first, then the list kind, as for the styles: "Numbered" may come from the "…" menu,
  // and the caret is put back only at the end of text (see backToEnd).
  await page.keyboard.insertText(`A numbered item of ${label}`)
  await tool(page, 'Numbered')
}

/**
 * The same body as `typeRichBody`, pasted as HTML in one paste event (what Ctrl+V of a rich
 * document delivers): the editor converts it to blocks, styles, marks, the link and list items.
 */
export async function pasteRichBody(page: Page, label: string, href: string): Promise<void> {
  // Every stored style but 'normal' is also its HTML tag (h1…h6, blockquote).
  const headings = styles
    .filter(([, tag]) => tag !== 'normal')
    .map(([name, tag]) => `<${tag}>${name} of ${label}</${tag}>`)
  const marks = [
    ['strong', 'strong'],
    ['em', 'emphasis'],
    ['code', 'code'],
    ['u', 'underline'],
    ['s', 'strike'],
  ]
  const paragraph = `<p>Normal of ${label} with ${marks.map(([tag, text]) => `<${tag}>${text}</${tag}> `).join('')}a <a href="${href}">link</a></p>`
  const lists = `<ul><li>A bullet of ${label}</li></ul><ol><li>A numbered item of ${label}</li></ol>`
  await editable(page).click()
  await editable(page).evaluate(
    (element, html) => {
      const data = new DataTransfer()
      data.setData('text/html', html)
      data.setData(
        'text/plain',
        element.ownerDocument.createRange().createContextualFragment(html).textContent ?? '',
      )
      element.dispatchEvent(
        new ClipboardEvent('paste', {clipboardData: data, bubbles: true, cancelable: true}),
      )
    },
    headings.join('') + paragraph + lists,
  )
}
