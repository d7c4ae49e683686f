import type {PostSource} from '../postSource.ts'
import {bullet, h4, h5, h6, numbered, p, quote} from '../richText.ts'

export const mountaineeringPosts: PostSource[] = [
  {
    title: 'Kolahoi, the Goddess of Light',
    slug: 'kolahoi-the-goddess-of-light',
    date: '2019-08-27',
    category: 'Mountaineering',
    excerpt:
      'Locals call Kolahoi the goddess of light, because it catches the sun before the valley does. I walked to its foot from Aru, and the goddess kept her light.',
    body: [
      p(
        'Kolahoi is the highest peak in the Kashmir valley proper, a pyramid of rock and ice above the Lidder, and from Aru on a clear morning it looks close enough to touch. Locals call it *Gwashbrari*, the goddess of light, because it catches the sun long before the valley does.',
      ),
      p(
        'We walked up the Lidder from Aru through meadows where Gujjar and Bakarwal families had brought their flocks for the summer. Every camp came with an invitation to tea and a long conversation about the weather, which is the only conversation that matters in the mountains.',
      ),
      p(
        'I did not reach the summit. We turned back below the glacier when the weather closed in, and the goddess kept her light to herself. I was disappointed for about a day. Then I began to understand that the walk had given me most of what I came for: a week without screens, the sound of meltwater, and a guide who knew the name of every flower.',
      ),
      quote('The mountain does not owe you a summit. You are lucky if it lets you see it.'),
      p(
        'If you are planning a trip, read the [Himalayan Club](https://www.himalayanclub.org/) notes, hire local, and carry out every scrap of what you carry in. The Kolahoi glacier is retreating fast; the least we can do is not leave it our wrappers as well.',
      ),
      h6('A note on the name'),
      p(
        'Spellings vary: Kolahoi, Kolhoi, Gwashbrari, Gwash Brari. I have used the ones my guide used.',
      ),
    ],
  },
  {
    title: 'Seven Things I Carry Above 4,000 Metres',
    slug: 'seven-things-i-carry-above-4000-metres',
    date: '2021-09-05',
    category: 'Mountaineering',
    excerpt:
      'Most kit lists are written by people selling kit. This one is not: the seven things I have carried on every high trek for ten years, and why.',
    body: [
      p(
        'Lists of essential kit are everywhere, and most of them are written by people selling kit. This one is not. These are the seven things I have carried on every high trek of the last ten years, from the Great Lakes to Ladakh, and the reasons I keep carrying them.',
      ),
      numbered(
        '**A proper shell jacket.** Weather above four thousand metres turns in minutes. A good shell is the difference between a bad afternoon and a dangerous one.',
      ),
      numbered(
        '**A head torch and spare batteries.** Every summit day starts in the dark, and batteries die in the cold.',
      ),
      numbered(
        '**Sun protection, taken seriously.** Glacier glasses, a wide hat and high-factor cream. The sun at altitude is brutal, and snow blindness is no joke.',
      ),
      numbered(
        '**Water treatment.** Streams look clean. Shepherds and their flocks have been upstream all summer.',
      ),
      numbered(
        '**A small first-aid kit I know how to use**, with blister plasters and whatever my doctor advises for altitude. Read up on [altitude sickness](https://en.wikipedia.org/wiki/Altitude_sickness) before you go, not at camp.',
      ),
      numbered(
        '**A notebook and a pencil.** Pens freeze. I write every evening, even if it is only three lines.',
      ),
      numbered(
        '**Patience.** Acclimatise slowly, climb high and sleep low, and never be the person who pushes the group past a sensible turnaround time.',
      ),
    ],
  },
  {
    title: 'Turning Back on Harmukh',
    slug: 'turning-back-on-harmukh',
    date: '2023-07-19',
    category: 'Mountaineering',
    excerpt:
      'Two hundred metres below the ridge, with the snow going soft, our guide stopped and looked at each of us in turn. On the best decision I never wanted to make.',
    body: [
      p(
        'We left the Gangabal camp at three in the morning, four of us and a guide from Naranag, with Harmukh a black shape against a sky full of stars. By seven we were on the snow. By ten we were turning around, two hundred metres below the ridge, and I have never been so certain of a decision in my life.',
      ),
      p(
        'The snow had gone soft far earlier than we expected. Every step sank to the knee, and the slope above us had the heavy, wet look that avalanche courses teach you to fear. Our guide, Bashir, stopped, looked up for a long minute, and then looked at each of us in turn.',
      ),
      quote('“The mountain will be here next year,” he said. “I want all of you to be here too.”'),
      h4('What I have learned about turning back'),
      bullet(
        'Set the turnaround time **before** the climb, when you are rested and rational, and keep to it.',
      ),
      bullet(
        'Trust the person whose life is spent on that mountain over the person whose holiday is.',
      ),
      bullet(
        'Write down what you saw and felt that day. It turns a failed summit into a story you understand.',
      ),
      p(
        'We walked back down to Gangabal in the afternoon sun, ate rice and rajma by the lake, and laughed more than we had on the way up. Harmukh is still there. So are we.',
      ),
    ],
  },
  {
    title: 'The Great Lakes Trek, Slowly',
    slug: 'the-great-lakes-trek-slowly',
    date: '2025-08-03',
    category: 'Mountaineering',
    excerpt:
      'The Kashmir Great Lakes trek is sold as seven days from Sonamarg to Naranag. We took ten, and I recommend it. Notes on slowness, passes and alpine lakes.',
    body: [
      p(
        'The Kashmir Great Lakes trek is usually sold as seven days from Sonamarg to Naranag: seven alpine lakes, three high passes and a great many photographs. We took ten. I recommend it.',
      ),
      p(
        'The extra days were not rest days, exactly. They were days for staying: sitting by Vishansar while the light changed, walking to the edge of Gadsar where the ice floats well into summer, waiting out an afternoon storm in a shepherd’s hut with a family who had made the same crossing every year for forty years.',
      ),
      h5('Day three: over Nichnai'),
      p(
        'The first of the passes is a long, steady climb out of the Shekdur meadows. Go slowly. At the top the Vishansar valley opens out below you, green and impossibly wide, and you will want as much breath left as possible to say nothing at all.',
      ),
      h5('Day eight: Gangabal'),
      p(
        'Gangabal and its smaller twin, Nundkol, sit at the foot of Harmukh, and for Kashmiri Pandits the lake is a place of pilgrimage. Camp above the water, not beside it, and leave the shore as you found it. The principles of [Leave No Trace](https://en.wikipedia.org/wiki/Leave_No_Trace) were written for places like this.',
      ),
      p(
        'Ten days, seven lakes, no summit, and the best walk of my life. Slowness, it turns out, is not what you give up in order to see more. It is how you see anything at all.',
      ),
    ],
  },
]
