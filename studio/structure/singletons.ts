import type {DocumentActionComponent} from 'sanity'
import type {StructureBuilder} from 'sanity/structure'
import {singletonTypes} from '../../schemas/index.ts'

/**
 * The singletons (site settings, home, services): one document each, whose `_id` is its type.
 * The structure opens that document directly, so the owner never sees a list of them; the
 * config (sanity.config.ts) keeps them out of every "create" menu and leaves them only
 * publish and discard, so none is created twice, duplicated or deleted.
 */
const singletons = new Set(singletonTypes)

const titles: Record<string, string> = {
  siteSettings: 'Site settings',
  homePage: 'Home',
  servicesPage: 'Services',
}

/** The singletons' items, at the top of the desk. */
export function singletonListItems(S: StructureBuilder) {
  return singletonTypes.map((type) =>
    S.listItem()
      .id(type)
      .title(titles[type] ?? type)
      .schemaType(type)
      .child(
        S.document()
          .schemaType(type)
          .documentId(type)
          .title(titles[type] ?? type),
      ),
  )
}

/** True for a singleton's type. */
export const isSingleton = (type: string): boolean => singletons.has(type)

/** The document actions a singleton keeps: publish and discard changes. */
const singletonActions = new Set(['publish', 'discardChanges'])

/** For sanity.config.ts `document.actions`. */
export function singletonAwareActions(
  actions: DocumentActionComponent[],
  schemaType: string,
): DocumentActionComponent[] {
  if (!isSingleton(schemaType)) return actions
  return actions.filter(({action}) => action !== undefined && singletonActions.has(action))
}
