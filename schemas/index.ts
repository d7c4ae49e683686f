import {category} from './documents/category.ts'
import {contactMessage} from './documents/contactMessage.ts'
import {newsletterIssue} from './documents/newsletterIssue.ts'
import {post} from './documents/post.ts'
import {redirect} from './documents/redirect.ts'
import {socialBlock} from './documents/socialBlock.ts'
import {socialComment} from './documents/socialComment.ts'
import {socialFollower} from './documents/socialFollower.ts'
import {socialThread} from './documents/socialThread.ts'
import {subscriber} from './documents/subscriber.ts'
import {testimonial} from './documents/testimonial.ts'
import {blockContent} from './objects/blockContent.ts'
import {footerModal} from './objects/footerModal.ts'
import {socialLink} from './objects/socialLink.ts'
import {homePage} from './singletons/homePage.ts'
import {servicesPage} from './singletons/servicesPage.ts'
import {siteSettings} from './singletons/siteSettings.ts'

/** The singletons: one document each, its `_id` equal to its type (studio/structure/). */
export const singletonTypes: string[] = [siteSettings.name, homePage.name, servicesPage.name]

/** Every schema type, shared by the Studio and the site. */
export const schemaTypes = [
  siteSettings,
  homePage,
  servicesPage,
  post,
  category,
  testimonial,
  redirect,
  blockContent,
  footerModal,
  socialLink,
  contactMessage,
  subscriber,
  newsletterIssue,
  socialComment,
  socialThread,
  socialFollower,
  socialBlock,
]
