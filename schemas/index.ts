import {contactMessage} from './documents/contactMessage.ts'
import {newsletterIssue} from './documents/newsletterIssue.ts'
import {post} from './documents/post.ts'
import {subscriber} from './documents/subscriber.ts'
import {blockContent} from './objects/blockContent.ts'

/** Every schema type, shared by the Studio and the site. */
export const schemaTypes = [post, blockContent, contactMessage, subscriber, newsletterIssue]
