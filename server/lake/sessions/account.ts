import type {Context, Hono} from 'hono'
import {owner} from '../auth.ts'
import {notFound} from '../errors.ts'
import {identify, requireIdentity} from '../http/request.ts'
import type {Lake} from '../lake.ts'

/** `/users/me` as the Studio reads it (it only requires a string `id`). */
export const currentUser = {
  id: owner.id,
  name: owner.name,
  email: owner.email,
  profileImage: null,
  role: owner.role,
  roles: [{name: 'administrator', title: 'Administrator'}],
  provider: 'local',
}

/** `/users/{ids}` entries, as the Studio's user store and presence avatars read them. */
const publicOwner = {
  id: owner.id,
  displayName: owner.name,
  familyName: null,
  givenName: null,
  imageUrl: null,
  isCurrentUser: true,
}

/** One owner with every permission on every document (the Studio evaluates `filter` per document). */
export const ownerAcl = [
  {filter: '_id in path("**")', permissions: ['history', 'read', 'update', 'create', 'manage']},
]

const grant = (names: string[]) => [{grants: names.map((name) => ({name, params: {}})), config: {}}]

function checkProject(c: Context, lake: Lake): void {
  const id = c.req.param('projectId')
  if (id !== lake.projectId) throw notFound(`Project "${id}" not found`)
}

/** The current user, the project, its one dataset and the owner's grants. */
export function registerAccount(app: Hono, lake: Lake): void {
  registerUsers(app, lake)
  registerProject(app, lake)
  registerDatasets(app, lake)
}

/** The project as the Studio's project store reads it: one member, the owner. */
function project(lake: Lake) {
  return {
    id: lake.projectId,
    displayName: 'Scriptorium',
    studioHost: null,
    isBlocked: false,
    isDisabled: false,
    isDisabledByUser: false,
    organizationId: null,
    metadata: {color: null, externalStudioHost: null},
    members: [
      {
        id: owner.id,
        createdAt: '2024-01-01T00:00:00Z',
        isCurrentUser: true,
        isRobot: false,
        role: 'administrator',
        roles: currentUser.roles,
      },
    ],
    features: [],
    pendingInvites: 0,
  }
}

function registerUsers(app: Hono, lake: Lake): void {
  app.get('/:version/users/me', (c) => {
    // Anonymous: `{}` with 200 as api.sanity.io answers (the Studio then shows its login screen);
    // a 401 would be logged by the browser as a console error on every visit.
    const identity = identify(c, lake)
    return c.json(identity ? currentUser : {}, 200, {'cache-control': 'private, no-store'})
  })
  app.get('/:version/users/:ids', (c) => {
    requireIdentity(c, lake)
    const ids = c.req.param('ids').split(',')
    const users = ids.map((id) => (id === owner.id || id === 'me' ? publicOwner : null))
    // One id is answered as an object, several as an array (as the real API does).
    return c.json(ids.length === 1 ? (users[0] ?? {}) : users)
  })
}

function registerProject(app: Hono, lake: Lake): void {
  app.get('/:version/projects/:projectId', (c) => {
    checkProject(c, lake)
    requireIdentity(c, lake)
    return c.json(project(lake))
  })
  app.get('/:version/projects/:projectId/grants', (c) => {
    checkProject(c, lake)
    requireIdentity(c, lake)
    return c.json({
      'sanity.project': grant(['read', 'update', 'create', 'delete', 'manage']),
      'sanity.document.filter.mode': grant(['read', 'update', 'create', 'history', 'manage']),
      'sanity.project.datasets': grant(['read', 'update', 'create', 'delete', 'manage']),
    })
  })
  app.get('/:version/projects/:projectId/user-applications', (c) => {
    checkProject(c, lake)
    return c.json([])
  })
}

function registerDatasets(app: Hono, lake: Lake): void {
  app.get('/:version/projects/:projectId/datasets', (c) => {
    checkProject(c, lake)
    // Add-on datasets (comments) do not exist locally: the Studio asks even with comments off.
    if (c.req.query('datasetProfile') || c.req.query('addonFor')) return c.json([])
    return c.json(datasets(lake))
  })
  const acl = (c: Context) => {
    if (c.req.param('projectId') !== undefined) checkProject(c, lake)
    requireIdentity(c, lake)
    if (c.req.param('dataset') !== lake.dataset)
      throw notFound(`Dataset "${c.req.param('dataset')}" not found`)
    return c.json(ownerAcl, 200, {'cache-control': 'private, no-store'})
  }
  app.get('/:version/projects/:projectId/datasets/:dataset/acl', acl)
  app.get('/:version/datasets/:dataset/acl', acl)
  app.get('/:version/datasets', (c) => c.json(datasets(lake)))
}

function datasets(lake: Lake) {
  return [
    {
      name: lake.dataset,
      aclMode: 'public',
      addonFor: null,
      datasetProfile: 'content',
      features: [],
      tags: [],
    },
  ]
}
