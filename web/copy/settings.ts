import type {SiteSettingsQueryResult} from '../../shared/sanity.types.ts'
import {isShown, type ShownImage} from '../../shared/imageUrl.ts'
import {footerModals, owner, siteDescription, siteName} from '../content/site.ts'

export type FooterModalName = 'me' | 'privacy' | 'client'

export interface FooterModalCopy {
  label: string
  title: string
  paragraphs: string[]
}

/** The site settings as the pages use them: every field filled, from today's copy if need be. */
export interface SiteSettings {
  siteName: string
  ownerName: string
  ownerTitle: string
  place: string
  description: string
  footerModals: Record<FooterModalName, FooterModalCopy>
  socialLinks: {key: string; label: string; url: string}[]
  /** Empty: the server's EDITING_SAMPLES_URL (shared/siteConfig.ts). */
  editingSamplesUrl: string | null
  /** Unset (or its asset gone): none; the JSON-LD then has no portrait. */
  portrait?: ShownImage
  /** The portrait's alt text: the owner's, or "Portrait of <her name>" when she wrote none. */
  portraitAlt: string
  /** Unset: the built-in share card (/share.png). */
  shareImage?: ShownImage
}

const text = (value: string | null | undefined, fallback: string) =>
  typeof value === 'string' && value.trim() !== '' ? value : fallback

type RawModal = NonNullable<NonNullable<SiteSettingsQueryResult>['footerModals']>['me']

function modal(raw: RawModal | undefined, name: FooterModalName): FooterModalCopy {
  const today = footerModals[name]
  const paragraphs = (raw?.paragraphs ?? []).filter((p): p is string => !!p && p.trim() !== '')
  return {
    label: text(raw?.label, today.label),
    title: text(raw?.title, today.title),
    paragraphs: paragraphs.length > 0 ? paragraphs : [...today.paragraphs],
  }
}

/** Only links a page may print: http(s) and mailto (the schema's rule, checked again here). */
const printable = (url: string | null) => !!url && /^(https?:\/\/|mailto:)/i.test(url)

/**
 * The settings document as the pages show it: an empty field, a missing document or a lake that
 * could not answer all read as today's copy (web/content/site.ts), never as an error.
 */
export function resolveSettings(raw: SiteSettingsQueryResult | undefined): SiteSettings {
  const ownerName = text(raw?.ownerName, owner.name)
  return {
    siteName: text(raw?.siteName, siteName),
    ownerName,
    portraitAlt: text(raw?.portrait?.alt, `Portrait of ${ownerName}`),
    ownerTitle: text(raw?.ownerTitle, owner.title),
    place: text(raw?.place, owner.place),
    description: text(raw?.description, siteDescription),
    footerModals: {
      me: modal(raw?.footerModals?.me, 'me'),
      privacy: modal(raw?.footerModals?.privacy, 'privacy'),
      client: modal(raw?.footerModals?.client, 'client'),
    },
    socialLinks: (raw?.socialLinks ?? []).flatMap((link) =>
      link.label && link.url && printable(link.url)
        ? [{key: link._key, label: link.label, url: link.url}]
        : [],
    ),
    editingSamplesUrl: printable(raw?.editingSamplesUrl ?? null)
      ? (raw?.editingSamplesUrl ?? null)
      : null,
    ...(isShown(raw?.portrait) ? {portrait: raw.portrait} : {}),
    ...(isShown(raw?.shareImage) ? {shareImage: raw.shareImage} : {}),
  }
}
