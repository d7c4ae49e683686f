import type {PostSource} from '../postSource.ts'
import {bullet, h2, h3, p, quote} from '../richText.ts'

/**
 * One long post with several levels of heading: it shows the reading comforts a long read gets
 * (reading time, table of contents, heading anchors; web/reading/) and is what the browser
 * tests open for them (e2e/site.reading.test.ts).
 */
export const longformPosts: PostSource[] = [
  {
    title: 'Writing a Mountain: Notes from a Season of Field Journals',
    slug: 'writing-a-mountain-field-journals',
    date: '2024-09-18',
    category: 'Mountaineering',
    excerpt:
      'How I keep a field journal above the tree line, and how those cold, smudged pages become an essay a reader can walk through: gear, habits, drafts and the edit.',
    body: [
      p(
        'Every summer I come down from the high pastures with the same thing in my pack: a notebook swollen with damp, its pages stiff with pencil and the occasional pressed flower of an unplanned stop. By October it has become an essay, or two, or nothing at all. This post is about the path between the two: how I keep a journal in the mountains, and how I turn it into writing that a reader who has never been there can follow step by step.',
      ),
      p(
        'None of it is a method in the strict sense. It is a set of habits, each of which I arrived at by getting something wrong first. I write them down here because clients who write memoir and travel ask me about them, and because writing them down is the best way I know to find out which of them I actually keep.',
      ),
      h2('Why keep a journal at all'),
      p(
        'Memory is a generous editor and a poor witness. A week after a hard day on a ridge, I remember the view from the top and the relief at the bottom; I do not remember that my left boot rubbed from the second hour, that the guide sang the same three lines of a song all morning, or that the light on the scree turned green for a moment before the storm. Those are the details that make a reader believe you were there. They are also the first to go.',
      ),
      p(
        'A journal is not a diary. It does not have to be reflective, complete or kind. It only has to be specific, and written close enough to the moment that the moment is still in it. Everything else can be fixed at a desk.',
      ),
      h3('What the page is for'),
      p(
        'I think of each page as evidence for a future essay, not a draft of it. Evidence can be ugly. It can contradict itself. A line that reads *wind, cold, bad mood, then the lake* is worth more to me in October than a polished paragraph written in the tent, because the polished paragraph has already decided what the day meant.',
      ),
      h3('What it is not for'),
      p(
        'It is not for the route description. Routes are better recorded by a GPS watch and a photograph of the map than by a tired hand. I note only what the instruments cannot: who said what, what I was afraid of, what I got wrong about the weather.',
      ),
      h2('The kit'),
      p(
        'Writers love stationery more than is good for them, and I am no exception. Above four thousand metres, though, the choice narrows quickly, and most of the beautiful things stay at home.',
      ),
      bullet(
        'A **pencil**, two in fact, sharpened at both ends. Ink freezes, smears and runs; graphite does none of these.',
      ),
      bullet(
        'A notebook with a **waterproof cover** and sewn binding, no larger than a hand. Spiral bindings catch on everything and open in the wind.',
      ),
      bullet(
        'A zip bag the notebook lives in when it is not in my hand. It has saved a season of notes more than once.',
      ),
      bullet(
        'A small clip to hold the page open against the wind, which otherwise turns the pages faster than I can write.',
      ),
      p(
        'That is all. A phone records voice memos well enough on a rest stop, but I rarely play them back: talking to a phone at altitude produces breathless sentences that sound like someone else.',
      ),
      h2('Habits on the trail'),
      p(
        'The hardest part of keeping a journal in the mountains is not the cold or the wind but the tiredness. At the end of a long day, the last thing I want to do is write. So the habits that last are the ones that ask almost nothing.',
      ),
      h3('Three lines at every stop'),
      p(
        'At each rest, before food or water, I write three lines: where I am, what I see, and one thing that surprised me. Three lines is short enough that I never skip it, and the surprise line is where most of the essays begin. *The shepherd’s dog followed us for an hour and then simply turned round* became, two years later, the opening of a whole piece about leaving.',
      ),
      h3('Names and numbers'),
      p(
        'I write down every name I hear: of people, of streams, of the flowers the horsemen point at. I write down times and heights when I have them. Names and numbers are the details that fact-checkers ask for and memory refuses to keep, and a reader can feel their presence even when they never see them on the page.',
      ),
      h3('The evening page'),
      p(
        'If there is light and warmth enough, I write one longer page in the evening. I do not try to summarise the day. I pick one moment from the three-line notes and write it out in full, in the present tense, with everything I can recall of what I heard and smelt and felt. One moment a day, done properly, adds up to an essay by the end of a week.',
      ),
      quote(
        'Write down what you saw, not what it meant. The meaning will still be there in October; the colour of the water will not.',
      ),
      h2('From journal to draft'),
      p(
        'Back at my desk, the notebook goes into a drawer for at least two weeks. I need to forget the day enough to read the page as a stranger would. Then I type everything up, without editing, into one long file. Typing is slow and boring, and that is the point: it forces me to read every word again.',
      ),
      h3('Finding the spine'),
      p(
        'A journal is chronological; an essay rarely is. Reading the typed file, I look for the one question the trip kept asking, often without my noticing. On Harmukh it was whether turning back is a failure; on the lakes it was what it means to walk somewhere slowly on purpose. Once I can name the question, I know which notes belong in the essay and which are just a good day out.',
      ),
      h3('Cutting the route'),
      p(
        'The first draft always has too much route in it. *Then we crossed the stream, then we climbed to the pass, then we descended to the lake.* A reader does not need the itinerary; they need the moments where something changed. I cut every sentence that only moves us forward in space and keep the ones that move us forward in understanding.',
      ),
      h3('Keeping the evidence visible'),
      p(
        'The small, specific details from the trail are what make a draft feel true, and they are also what an over-eager edit removes first. When I revise, I mark each concrete detail from the journal and check that it survives. If a paragraph has lost all of them, it has usually become an opinion, and it can go.',
      ),
      h2('The edit'),
      p(
        'I edit my own travel writing the way I edit a client’s memoir: in passes, from far to near. The first pass asks only whether the essay answers the question it set itself. The second works paragraph by paragraph on order and pace. Only the third looks at sentences, and only the last, after a night away from it, at commas.',
      ),
      p(
        'It helps to read the piece aloud. Mountain writing tends towards the breathless and the solemn; read aloud, both are easy to hear, and easy to fix with a shorter sentence or a joke at my own expense. The mountains are serious enough without my help.',
      ),
      h3('A checklist for the last pass'),
      bullet('Does the first paragraph put the reader somewhere specific?'),
      bullet('Is every name spelled the way the people who live there spell it?'),
      bullet('Have I explained every local word once, and only once?'),
      bullet('Does the ending answer the question, or at least admit that it cannot?'),
      h2('What this means for your own writing'),
      p(
        'You do not need a mountain for any of this. The same habits work for a family history, a year of teaching, a long illness: three honest lines a day, names and numbers, one moment written out in full, a drawer, and then a patient edit. If you have a box of notebooks and no idea what is in them, that is often the most interesting place to start, and it is a kind of project I love to help with.',
      ),
      p(
        'If you would like a second pair of eyes on pages you have already written, send me a few of them. I will tell you what I see, and what I think the notebook was trying to say all along.',
      ),
    ],
  },
]
