import type {PostSource} from '../postSource.ts'
import {bullet, h1, h2, h3, numbered, p, quote} from '../richText.ts'

export const generalPosts: PostSource[] = [
  {
    title: 'What a Line Edit Is (and What It Isn’t)',
    slug: 'what-a-line-edit-is',
    date: '2020-03-24',
    category: 'General',
    excerpt:
      'Developmental editing, line editing, copy editing and proofreading are four different jobs. What a line edit does for your sentences, and what it cannot do.',
    body: [
      p(
        'Clients often ask me for “a quick edit”, and my first job is to find out which of four very different things they mean. Developmental editing, line editing, copy editing and proofreading are not four names for one service. They are four passes, in a particular order, each looking at the text from a different distance.',
      ),
      h2('What a line edit is'),
      p(
        'A line edit works sentence by sentence on **voice, rhythm and clarity**. It asks whether a sentence says what you mean, whether it sounds like you, and whether the reader is still with you at the end of it. A line editor will rewrite a clumsy sentence, suggest a stronger verb, cut a paragraph that repeats the one before, and flag the place where your narrator suddenly sounds like a tax form.',
      ),
      h2('What it isn’t'),
      p(
        'A line edit is not a structural edit: if the middle of your novel sags or your argument is in the wrong order, a line edit will only make the sag read more smoothly. Nor is it a proofread. Typos get caught along the way, but a final proofread of the final text is still a separate job. Questions of style, such as serial commas, spellings and capitals, I settle against a style sheet and a reference such as [The Chicago Manual of Style](https://www.chicagomanualofstyle.org/).',
      ),
      quote(
        'Developmental editing asks whether you are writing the right book. Line editing asks whether you are writing the book right.',
      ),
      p(
        'If you are not sure which you need, send me a few pages. I will tell you honestly, even if the answer is that you need less editing than you think.',
      ),
    ],
  },
  {
    title: 'How My Free Sample Edit Works',
    slug: 'how-my-free-sample-edit-works',
    date: '2021-12-02',
    category: 'General',
    excerpt:
      'Before we sign anything, I write or edit a 500–1,000 word excerpt for free, so you can see how I work. Here is exactly how that goes, step by step.',
    body: [
      p(
        'Before we sign anything, I offer every prospective client a free sample: I will write or edit an excerpt of **500 to 1,000 words**, so that you can see how I work before you spend anything. Here is exactly how that goes.',
      ),
      numbered(
        'You send the excerpt through the contact page or [by email](mailto:hello@example.com?subject=Free%20sample), with a few lines about the whole project: what it is, who it is for, and what you hope to get from it.',
      ),
      numbered(
        'I reply within two business days to confirm, and return the sample within five. Edits come back with tracked changes and comments that explain the bigger choices, not just the corrections.',
      ),
      numbered(
        'If you like what you see, we agree the scope, the fee and the dates, and we both sign a service agreement. __The agreement is signed before every project__, however small, so that neither of us is ever guessing.',
      ),
      p(
        'There is no obligation at any point. Plenty of writers take the sample, thank me and go their own way, and that is fine: a good sample should be useful to you either way. All I ask in return is an honest excerpt, a passage you are genuinely unsure about rather than the one you have already polished twelve times. That is where I can show you what an editor is for.',
      ),
    ],
  },
  {
    title: 'The Seven Words I Search For in Every Manuscript',
    slug: 'seven-words-i-search-for',
    date: '2023-05-25',
    category: 'General',
    excerpt:
      'Before I read a manuscript properly, I run a few searches. Five minutes, seven words, and a surprisingly accurate map of a writer’s habits.',
    body: [
      p(
        'Before I read a manuscript properly, I run a handful of searches. They take five minutes and tell me a surprising amount about a writer’s habits. None of these words is wrong. Each one, used often enough, becomes a tic.',
      ),
      bullet(
        '`just` and `really`: intensifiers that usually weaken. Cut most of them and the sentences stand up straighter.',
      ),
      bullet(
        '`very`: almost always a sign that a stronger word is waiting. ~~Very tired.~~ Exhausted.',
      ),
      bullet(
        '`suddenly`: if it is sudden, the sentence will show it. Nothing makes an event feel less sudden than announcing it.',
      ),
      bullet(
        '`began to` and `started to`: characters who begin to do things rarely finish them. Let them simply do it.',
      ),
      bullet(
        '`that`: often removable, sometimes essential. I test each one by reading the sentence without it.',
      ),
      p(
        'I send the counts to the client along with the edit, not as a scolding but as a map. A writer who knows they reach for *suddenly* whenever a scene flags can fix the scene, which is much better than having me fix the word forty times.',
      ),
    ],
  },
  {
    title: 'Headings Are Promises',
    slug: 'headings-are-promises',
    date: '2024-11-12',
    category: 'General',
    excerpt:
      'A heading tells the reader what follows. Break that promise and they stop trusting your headings. How to structure web content so the outline holds.',
    body: [
      p(
        'A heading is a promise to the reader: what follows is about this. Break that promise and the reader stops trusting your headings, then stops using them, then stops reading. Most of the web content I edit has too many headings, at too many levels, making promises the text does not keep.',
      ),
      h1('The title makes the first promise'),
      p(
        'One page, one title. On a website that is the single top-level heading, and everything else sits beneath it. If you find yourself wanting two, you have two pages.',
      ),
      h2('Sections keep it'),
      p(
        'Each second-level heading should name one part of the title’s promise, in words a reader would actually search for. “Pricing” beats “Our Philosophy of Value”.',
      ),
      h3('Subsections are the fine print'),
      p(
        'Go down to a third level only when a section is long enough that a reader would want to skip around inside it. Below that you are usually writing a list and calling it an outline. Test every page by reading its headings alone, in order, like a table of contents: if that skeleton makes sense on its own, the page will too.',
      ),
    ],
  },
  {
    title: 'Ghostwriting Without Losing Your Voice, or Theirs',
    slug: 'ghostwriting-without-losing-your-voice',
    date: '2026-06-30',
    category: 'General',
    excerpt:
      'If I do a ghostwriting job well, nobody will ever know I was there. It takes more listening than writing. How I find a client’s voice and keep mine apart.',
    body: [
      p(
        'The oddest thing about ghostwriting is that success is invisible. If I do the job well, nobody will ever know I was there, sometimes not even the client’s own family. The book sounds like them because it is theirs; I have only held the pen.',
      ),
      p(
        'That takes more listening than writing. Before I draft a word I record long conversations, about the subject but also about nothing in particular, and listen for how the client talks: the phrases they repeat, the jokes they make, the words they would never use. A retired surgeon does not say “utilise”. A schoolteacher from Sopore does not say “awesome”. Those small refusals are half of a voice.',
      ),
      h3('How a ghostwriting project runs'),
      bullet('Interviews first, recorded and transcribed, usually six to ten hours in all.'),
      bullet(
        'A sample chapter, which we revise together until the client reads it and hears themselves.',
      ),
      bullet('The full draft in stages, with the client’s comments shaping each one.'),
      p(
        'And my own voice? It lives here, on this blog, and in my fiction. Keeping the two apart is part of the discipline. The best compliment I have had came from a client reading her finished memoir aloud last spring: *I don’t remember writing this, but it’s exactly what I meant.*',
      ),
    ],
  },
]
