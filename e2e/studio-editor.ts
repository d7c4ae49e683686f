import type {Page} from 'playwright-core'

/** The spec's block styles as the Studio's style menu names them, with the stored value. */
export const styles = [
  ['Heading 1', 'h1'], ['Heading 2', 'h2'], ['Heading 3', 'h3'], ['Heading 4', 'h4'],
  ['Heading 5', 'h5'], ['Heading 6', 'h6'], ['Quote', 'blockquote'], ['Normal', 'normal'],
] as const

/** Toolbar button labels of the spec's decorators, with the stored mark. */
export const decorators = [
  ['Strong', 'strong'], ['Emphasis', 'em'], ['Code', 'code'], ['Underline', 'underline'], ['Strike', 'strike-through'],
] as const

const toolbar = (page: Page) => page.getByTestId('pt-editor__toolbar-card')
const button = (page: Page, label: string) => toolbar(page).getByRole('button', {name: label, exact: true})

async function toEnd(page: Page): Promise<void> {
  // Click just inside the bottom-left corner (the last block), never the middle: that may be the
  // link, and a click on a link opens its popover, which then swallows the keys meant for the text.
  const editable = page.getByTestId('field-body').locator('[contenteditable="true"]').first()
  const box = await editable.boundingBox()
  await editable.click({position: {x: 4, y: Math.max(4, (box?.height ?? 8) - 4)}})
  await page.keyboard.press('Control+End')
}

async function setStyle(page: Page, name: string): Promise<void> {
  await toolbar(page).getByRole('button', {name: /^(Normal|Heading \d|Quote|No style)$/}).click()
  await page.getByRole('menuitem').filter({hasText: name}).click()
  await toEnd(page)
}

/**
 * Types a body through the Portable Text editor's own controls: one block per style, a paragraph
 * with every decorator and a link, then a bullet and a numbered list item. `linkStored` resolves
 * once the lake holds the link's href.
 */
export async function typeRichBody(page: Page, label: string, href: string, linkStored: () => Promise<unknown>): Promise<void> {
  await toEnd(page)
  for (const [index, [name]] of styles.entries()) {
    if (index > 0) await page.keyboard.press('Enter')
    await page.keyboard.type(`${name} of ${label}`)
    await setStyle(page, name)
  }
  await page.keyboard.type(' with ')
  for (const [name] of decorators) {
    await button(page, name).click()
    await page.keyboard.type(name.toLowerCase())
    await button(page, name).click()
    await page.keyboard.type(' ')
  }
  await page.keyboard.type('a link')
  for (let i = 0; i < 'a link'.length; i++) await page.keyboard.press('Shift+ArrowLeft')
  await button(page, 'Link').click()
  const popover = page.locator('[data-ui="Popover__wrapper"]').filter({hasText: 'Edit Link'})
  await popover.locator('input').first().click()
  await page.keyboard.type(href)
  // Closing the popover before the href is saved drops the (then empty) annotation.
  await linkStored()
  await page.getByTestId('close-popover-edit-dialog-button').click()
  await toEnd(page)
  await page.keyboard.press('Enter')
  await button(page, 'Bullet').click()
  await page.keyboard.type(`A bullet of ${label}`)
  await page.keyboard.press('Enter')
  await button(page, 'Numbered').click()
  await page.keyboard.type(`A numbered item of ${label}`)
}
