import type {DefaultDocumentNodeResolver} from 'sanity/structure'
import {PostReaders} from './PostReaders.tsx'

/**
 * A post's document opens on its form, with a "Readers" view beside it: the post's own views of
 * the last 30 days (PostReaders.tsx). Other documents keep the form alone.
 */
export const postDocumentNode: DefaultDocumentNodeResolver = (S, {schemaType}) =>
  schemaType === 'post'
    ? S.document().views([
        S.view.form(),
        S.view.component(PostReaders).id('readers').title('Readers'),
      ])
    : S.document().views([S.view.form()])
