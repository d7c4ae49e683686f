import type {PostSource} from '../postSource.ts'
import {bullet, h2, h3, h6, numbered, p, quote} from '../richText.ts'

export const fictionPosts: PostSource[] = [
  {
    title: 'The Boatman’s Daughter',
    slug: 'the-boatmans-daughter',
    date: '2019-06-21',
    category: 'Fiction',
    excerpt:
      'Her father rowed the Dal for thirty-one years and never once fell in. Mehjabeen fell in on her first morning alone. A short piece of fiction.',
    body: [
      p(
        'Her father rowed tourists across the Dal for thirty-one years, and in all that time he never once fell in. Mehjabeen fell in on her first morning alone with the shikara, in front of two Dutch backpackers and a man selling saffron from a boat painted like a peacock.',
      ),
      p(
        'The water in May was colder than she had imagined. She came up gasping, her dupatta wrapped around her face, and heard the backpackers applauding as if she had done it on purpose. The saffron seller fished out her paddle with a hook. “Your father would have lost the customers,” he said. “You have only lost your dignity. It grows back.”',
      ),
      p(
        'She climbed in over the stern, the way her father had shown her and she had never bothered to practise. Her clothes streamed. The backpackers were still there, still smiling, still needing to reach Char Chinari by nine. “Forty rupees more,” Mehjabeen said, “for the entertainment.”',
      ),
      p(
        'They paid it. That evening she told her father the whole story, and he laughed until he had to sit down on the ghat steps, and then he stopped laughing and looked at her hands on the paddle, at the way she held it now: loosely, like something that belonged to her.',
      ),
      h6('Author’s note'),
      p(
        'This piece began as a line in my notebook, *the first day alone is the day you fall in*, and took three years to find its story. It was first read aloud at a small gathering of writers in Srinagar.',
      ),
    ],
  },
  {
    title: 'Writing Dialogue in Three Languages',
    slug: 'writing-dialogue-in-three-languages',
    date: '2021-02-09',
    category: 'Fiction',
    excerpt:
      'My characters speak Kashmiri at home, Urdu at work and English when they are angry. The page is in English. Three rules for dialogue across languages.',
    body: [
      p(
        'The people in my stories do not speak English. They speak Kashmiri at home, Urdu in the office and on the news, and English when they want to sound educated or angry. The page, meanwhile, is in English. Every line of dialogue I write is a translation, and every translation is a decision.',
      ),
      h2('Three rules I keep'),
      numbered(
        '**Do not italicise every foreign word.** Italics tell the reader a word is strange. To my characters, *pheran* and *kangri* are not strange; they are Tuesday. I italicise only what the point-of-view character would feel as foreign.',
      ),
      numbered(
        '**Let the rhythm carry the language.** Kashmiri leans on honorifics and repetition that English does not. A mother saying “eat, eat, my life, eat” tells you more about the language she is speaking than any borrowed word could.',
      ),
      numbered(
        '**Gloss once, or not at all.** If the reader needs a meaning, give it in the sentence that follows, through action, and never through a glossary at the back.',
      ),
      p(
        'None of this is new. Writers from [Agha Shahid Ali](https://en.wikipedia.org/wiki/Agha_Shahid_Ali) onwards have been making these choices for decades. But every writer has to make them again, for every book, and the only test is the one my first reader applied to my first story: *does it sound like people talking?*',
      ),
    ],
  },
  {
    title: 'The Letter Carrier of Gurez',
    slug: 'the-letter-carrier-of-gurez',
    date: '2022-08-16',
    category: 'Fiction',
    excerpt:
      'For six months a year the snow closes the pass, and Ghulam Rasool carries the mail on foot. A short story about the one letter he never delivered.',
    body: [
      p(
        'In Gurez the snow closes the pass for six months, and for six months Ghulam Rasool carried the mail on foot. That was the story everyone told about him, anyway. The truth, he liked to say, was smaller and colder.',
      ),
      p(
        'The letters came in by helicopter when the weather allowed, a sack at a time, dropped at Dawar with the rations. Ghulam Rasool sorted them on his kitchen floor and walked them out to the villages along the Kishanganga, as far as Tulail if the snow allowed. He knew every name, and from the handwriting he knew most of the news before anyone opened an envelope.',
      ),
      p(
        'There was one letter he never delivered. It came in the winter of his eleventh year, addressed to a woman in Tulail who had died in the autumn, from a son in Delhi who had not heard. Ghulam Rasool carried it in his coat for a week, then a month, and in the spring, when the pass opened and the son came home, he gave it back to him unopened.',
      ),
      quote(
        '“You should read it,” he said. “You wrote it to the one person who would have forgiven every word.”',
      ),
      p(
        'The son read it on the bridge, in the wind, and then let the river have it. Ghulam Rasool never told anyone what was in it, because he never knew. He only knew the handwriting, and that it had shaken.',
      ),
    ],
  },
  {
    title: 'Why My First Novel Lives in a Drawer',
    slug: 'why-my-first-novel-lives-in-a-drawer',
    date: '2024-03-11',
    category: 'Fiction',
    excerpt:
      'Four hundred and twelve pages, a houseboat on the Nigeen, and a very good storm in the middle. It will never be published, and that is not a failure.',
    body: [
      p(
        'My first novel is four hundred and twelve pages long, set on a houseboat on the Nigeen, and it will never be published. I finished it in 2016. I have not opened the folder since 2018, and I think about it at least once a week.',
      ),
      p(
        'It is not a bad book, exactly. It has a good first chapter and a very good storm in the middle. What it does not have is a reason to exist beyond my wanting to have written a novel. Every scene is there because I thought a novel ought to have a scene like that.',
      ),
      h3('What the drawer taught me'),
      bullet(
        '**Finishing is a skill of its own**, separate from writing well, and you learn it only by finishing something.',
      ),
      bullet('A book needs a question it cannot answer without you. Mine had ~~a theme~~ a mood.'),
      bullet(
        'The second book is easier to start and harder to finish, because now you know what finishing costs.',
      ),
      p(
        'I tell this to every first-time novelist who sends me a manuscript, not to discourage them but because they deserve the truth: the drawer is not a failure. It is where most of us learned the trade. Some of the books I edit will go to agents and some will go to drawers, and I try to make both kinds of ending feel like a beginning.',
      ),
    ],
  },
]
