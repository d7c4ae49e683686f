import {escapeHtml} from '../html.ts'
import {site} from '../../shared/siteIdentity.ts'

/**
 * The text and HTML of the newsletter's mails: plain, readable with images off, no tracking
 * pixel and no rewritten link (docs/newsletter.md).
 */
export interface MailBody {
  subject: string
  text: string
  html: string
}

function htmlMail(title: string, paragraphs: string[], unsubscribeUrl: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>
<body style="font-family:Georgia,serif;line-height:1.6;color:#2b2520;max-width:36rem;margin:0 auto;padding:1rem">
${paragraphs.join('\n')}
<p style="font-size:0.9em;color:#5b4f45">You get this because you subscribed to ${escapeHtml(site.blogTitle)}. <a href="${escapeHtml(unsubscribeUrl)}">Unsubscribe</a></p>
</body></html>
`
}

function textFooter(unsubscribeUrl: string): string {
  return `--\nYou get this because you subscribed to ${site.blogTitle}.\nUnsubscribe: ${unsubscribeUrl}\n`
}

export function confirmationMail(confirmUrl: string, unsubscribeUrl: string): MailBody {
  const subject = `Confirm your subscription to ${site.blogTitle}`
  return {
    subject,
    text: `Please confirm that you want new posts from ${site.blogTitle} by email:\n\n${confirmUrl}\n\nThe link works for 48 hours. If you did not ask for this, ignore this mail: nothing more will be sent.\n\n${textFooter(unsubscribeUrl)}`,
    html: htmlMail(
      subject,
      [
        `<p>Please confirm that you want new posts from ${escapeHtml(site.blogTitle)} by email.</p>`,
        `<p><a href="${escapeHtml(confirmUrl)}">Confirm my subscription</a></p>`,
        `<p>The link works for 48 hours. If you did not ask for this, ignore this mail: nothing more will be sent.</p>`,
      ],
      unsubscribeUrl,
    ),
  }
}

export function alreadySubscribedMail(siteUrl: string, unsubscribeUrl: string): MailBody {
  const subject = `You are subscribed to ${site.blogTitle}`
  return {
    subject,
    text: `Someone (probably you) asked to subscribe this address to ${site.blogTitle}. It already is: nothing has changed.\n\n${siteUrl}\n\n${textFooter(unsubscribeUrl)}`,
    html: htmlMail(
      subject,
      [
        `<p>Someone (probably you) asked to subscribe this address to <a href="${escapeHtml(siteUrl)}">${escapeHtml(site.blogTitle)}</a>. It already is: nothing has changed.</p>`,
      ],
      unsubscribeUrl,
    ),
  }
}

export interface PostForMail {
  title: string
  excerpt: string
  url: string
  /** An absolute image address, shown above the excerpt with its alt text. */
  cover?: {url: string; alt: string}
}

export function newPostMail(post: PostForMail, unsubscribeUrl: string): MailBody {
  const subject = `New post: ${post.title.replace(/\s+/g, ' ')}`
  return {
    subject,
    text: `${post.title}\n\n${post.excerpt}\n\nRead it: ${post.url}\n\n${textFooter(unsubscribeUrl)}`,
    html: htmlMail(
      subject,
      [
        `<h1 style="font-size:1.5em"><a href="${escapeHtml(post.url)}">${escapeHtml(post.title)}</a></h1>`,
        ...(post.cover
          ? [
              `<p><img src="${escapeHtml(post.cover.url)}" alt="${escapeHtml(post.cover.alt)}" width="560" style="max-width:100%;height:auto"></p>`,
            ]
          : []),
        `<p>${escapeHtml(post.excerpt)}</p>`,
        `<p><a href="${escapeHtml(post.url)}">Read the post</a></p>`,
      ],
      unsubscribeUrl,
    ),
  }
}
