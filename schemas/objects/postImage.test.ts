import type {ValidationContext} from 'sanity'
import {describe, expect, it} from 'vitest'
import {blockContent} from './blockContent.ts'
import {acceptedImageTypes, altRule, postImageOptions} from './postImage.ts'
import {post} from '../documents/post.ts'

const withParent = (parent: unknown) => ({parent}) as unknown as ValidationContext
const asset = {_ref: 'image-0123456789abcdef0123456789abcdef01234567-400x200-jpg'}

describe('a post image’s alternative text', () => {
  it('is required once an image is set', () => {
    expect(altRule(undefined, withParent({asset}))).toMatch(/Describe the image/)
    expect(altRule('   ', withParent({asset}))).toMatch(/Describe the image/)
    expect(altRule('A kettle on a stove', withParent({asset}))).toBe(true)
  })

  it('may be empty when the image is decorative or not set', () => {
    expect(altRule(undefined, withParent({asset, decorative: true}))).toBe(true)
    expect(altRule(undefined, withParent({}))).toBe(true)
    expect(altRule(undefined, withParent(undefined))).toBe(true)
  })
})

describe('the post schema', () => {
  it('gives the cover and body images hotspot, the fields and only JPEG, PNG, WebP and AVIF', () => {
    const cover = post.fields.find((field) => field.name === 'mainImage')
    const bodyImage = blockContent.of.find((member) => member.type === 'image')
    for (const image of [cover, bodyImage]) {
      expect(image).toMatchObject({type: 'image', options: postImageOptions})
      const fields = (image as {fields: {name: string}[]}).fields.map((field) => field.name)
      expect(fields).toEqual(['alt', 'decorative', 'caption'])
    }
    expect(postImageOptions.accept.split(',')).toEqual(acceptedImageTypes)
    expect(postImageOptions.accept).not.toContain('svg')
  })
})
