import type {PostSource} from '../postSource.ts'
import {bullet, h2, h3, h4, numbered, p, quote} from '../richText.ts'

export const kashmirPosts: PostSource[] = [
  {
    title: 'Chinar Season',
    slug: 'chinar-season',
    date: '2019-11-18',
    category: 'Kashmir',
    excerpt:
      'Every November the chinars of Srinagar turn the colour of embers, and for three weeks the whole city walks with its head tilted back.',
    body: [
      p(
        'Every November the chinars of Srinagar catch fire without a single flame. The great plane trees along the Boulevard and in Naseem Bagh turn from green to rust to a red so deep it looks wet, and for about three weeks the whole city walks around with its head tilted back.',
      ),
      p(
        'The chinar, *Platanus orientalis*, came to the valley centuries ago, and the Mughals planted them by the hundred; the oldest surviving trees are older than most of the buildings around them. My grandmother used to say a chinar takes a hundred years to grow and one careless winter to lose, and she meant it as a warning about more than trees.',
      ),
      h2('What the leaves are for'),
      p(
        'The fallen leaves do not go to waste. Children rake them into hills taller than themselves; older men burn them slowly in the lanes and sift the embers into charcoal for the **kangri**, the wicker fire-pot we carry under our pherans all winter. The smell of smouldering chinar is, for me, the smell of the year turning.',
      ),
      quote(
        'A chinar leaf is shaped like an open hand. In November the whole city is waving goodbye to something.',
      ),
      p(
        'If you are visiting, go early, before the light flattens. Sit under the old trees of Naseem Bagh, on the campus of [the University of Kashmir](https://en.wikipedia.org/wiki/University_of_Kashmir), where the Mughal garden still stands. Bring nothing but time. The leaves will do the rest.',
      ),
    ],
  },
  {
    title: 'Forty Days of Chillai Kalan',
    slug: 'forty-days-of-chillai-kalan',
    date: '2020-01-12',
    category: 'Kashmir',
    excerpt:
      'From the twenty-first of December, Kashmir lives through forty days of hard cold. Harisa before dawn, a kangri under every pheran, and nobody leaves the warm room.',
    body: [
      p(
        'Chillai Kalan begins on the twenty-first of December and ends forty days later, and for those forty days Kashmir is a different country. Taps freeze overnight. The Dal grows a skin of ice at the edges. The sun, when it appears at all, is a pale coin that warms nothing.',
      ),
      p(
        'We live differently in these weeks. Breakfast moves earlier and gets heavier: in the old city the *harisa* shops open before dawn, and men queue in the dark for a plate of mutton slow-cooked with rice until it is almost a paste, finished with hot oil and eaten with a warm *girda* from the baker next door. It is not a dish for the timid, or for anyone with a meeting before noon.',
      ),
      h3('How the house keeps warm'),
      bullet('A **kangri** under every pheran, refilled with embers twice a day.'),
      bullet(
        'The *hamam*, in the houses lucky enough to have one: a stone floor heated from below by a wood fire, the warmest room in the valley.',
      ),
      bullet(
        'Quilts, more quilts, and the unspoken rule that nobody leaves the room where the heater is.',
      ),
      p(
        'After Chillai Kalan come twenty days of *Chillai Khurd*, the small cold, and then ten of *Chillai Bachha*, the baby cold, as if winter were a family that leaves in order of size. By then the first willows along the Jhelum show a haze of green, and we start, cautiously, to complain about the heat.',
      ),
    ],
  },
  {
    title: 'Saffron Mornings in Pampore',
    slug: 'saffron-mornings-in-pampore',
    date: '2020-10-30',
    category: 'Kashmir',
    excerpt:
      'For a few weeks each autumn the fields of Pampore turn violet. A morning with a saffron-farming family, and why the threads cost what they do.',
    body: [
      p(
        'For two or three weeks around the end of October, the karewa plateaus of Pampore turn violet. The saffron crocus flowers overnight, and by first light whole families are out in the fields, bent double, pinching off the blooms before the sun opens them too wide.',
      ),
      p(
        'I went with a friend whose family has farmed the same plots for four generations. Her father does not hurry. He picks with both hands, drops the flowers into a willow basket, and talks the whole time about rain: how much fell in August, how little in September, how the corms remember a bad year. The harvest, he says, has been thinning for two decades.',
      ),
      h2('From flower to thread'),
      numbered('Pick the flowers at dawn, while they are still half closed.'),
      numbered(
        'Spread them on a cloth in the shade and separate the three red stigmas from each bloom by hand. **This is the slow part.**',
      ),
      numbered('Dry the threads gently, away from direct sun, until they snap rather than bend.'),
      p(
        'It takes something like a hundred and fifty flowers to make a single gram. When someone offers you cheap saffron, now you know what question to ask. And if you are ever in Pampore in late October, go early, ask permission, and keep to the edges of the fields. The flowers are not scenery. They are somebody’s year.',
      ),
    ],
  },
  {
    title: 'Dal Lake Before the Tourists Wake',
    slug: 'dal-lake-before-the-tourists-wake',
    date: '2021-06-07',
    category: 'Kashmir',
    excerpt:
      'The floating vegetable market on the Dal is over before most houseboat guests think of breakfast. A shikara, a thermos of noon chai, and a city whispering.',
    body: [
      p(
        'The floating vegetable market on the Dal starts before five, and it is over by the time most houseboat guests are thinking about breakfast. If you want to see it, you need a shikara, a boatman who does not mind the hour, and a thermos of *noon chai* to hold against your chest.',
      ),
      p(
        'The market is not really a market. It is a few dozen boats drifting together in a wide channel of the inner lake, loaded with lotus stem, turnips, collard greens and tomatoes grown on the floating gardens. The growers sell to traders, the traders row away, and the whole thing is conducted in low voices, as if nobody wants to wake the city.',
      ),
      quote(
        '“You photograph, I sell,” one grower told me, laughing, when I asked if I could take a picture. “Both of us are working.”',
      ),
      p(
        'What struck me most was the silence after. By six the boats had scattered and the water was flat and empty, mist lifting off it in slow sheets, the Zabarwan hills going from grey to green. A kingfisher worked the reeds. Somewhere a radio played an old Rafi song.',
      ),
      p(
        'I have lived in Srinagar most of my life and had somehow never done this. If you are visiting, do it once. Read up on [Dal Lake](https://en.wikipedia.org/wiki/Dal_Lake) first, tip your boatman well, and buy something, even just a bunch of *haakh*, so that you are a customer and not only a spectator.',
      ),
    ],
  },
  {
    title: 'The Poets Who Taught Me to Edit',
    slug: 'the-poets-who-taught-me-to-edit',
    date: '2022-04-03',
    category: 'Kashmir',
    excerpt:
      'Lal Ded taught me to cut; Habba Khatoon taught me when not to. What two Kashmiri poets, six centuries apart from us, know about editing.',
    body: [
      p(
        'Kashmiri literature begins, for most of us, with two women. [Lal Ded](https://en.wikipedia.org/wiki/Lal_Ded), the fourteenth-century mystic we also call Lalleshwari, wandered the valley composing *vakhs*, four-line sayings so compressed they read like riddles. Two centuries later [Habba Khatoon](https://en.wikipedia.org/wiki/Habba_Khatoon), a village girl who became a queen, sang of longing in songs that women still sing at weddings and in the paddy.',
      ),
      p(
        'I came to them as a reader. I stayed with them as an editor, because between them they taught me most of what I know about cutting.',
      ),
      h2('What Lal Ded teaches'),
      p(
        'A vakh has no room for throat-clearing. Every word carries weight or it goes. When I edit a paragraph that begins “It is important to note that”, I think of a woman who could say everything she knew about the self in four lines, and I reach for the delete key.',
      ),
      h2('What Habba Khatoon teaches'),
      p(
        'Habba Khatoon teaches the opposite lesson: that repetition, used deliberately, is not padding but music. Her refrains return because the feeling returns. When a client’s draft repeats a phrase, my job is to ask which kind of repetition it is, the *tired* kind or the *singing* kind, and to keep the second.',
      ),
      quote('Cut what the reader already knows. Keep what the reader needs to hear again.'),
    ],
  },
  {
    title: 'Noon Chai: A Recipe, and an Argument',
    slug: 'noon-chai-a-recipe-and-an-argument',
    date: '2023-02-14',
    category: 'Kashmir',
    excerpt:
      'Every Kashmiri household makes noon chai differently and is certain the others are wrong. This is my mother’s pink, salty version. It is correct.',
    body: [
      p(
        'Every Kashmiri household makes *noon chai* slightly differently, and every household is certain the others are wrong. This is my mother’s version. It is pink, it is salty, and it is correct.',
      ),
      p(
        'The colour comes from chemistry, not dye: green tea leaves boiled hard with a pinch of baking soda turn the liquor a deep red, and milk turns the red to pink. The salt is not a mistake. Drink it in the afternoon with a *kulcha* and you will stop asking why.',
      ),
      h4('For four cups'),
      numbered(
        'Boil two teaspoons of Kashmiri green tea leaves in three cups of water with a small pinch of baking soda for about fifteen minutes, until the liquor is dark red and reduced by half.',
      ),
      numbered(
        'Add a cup of cold water and aerate hard: lift ladlefuls high and pour them back, over and over, for five minutes. This is what brings out the colour. Skip it and you will have ~~pink tea~~ brown tea and an apology.',
      ),
      numbered(
        'Add two cups of milk, salt to taste and a crushed cardamom pod, and simmer until it blushes. Serve hot, with a spoonful of cream on top if you have it.',
      ),
      p(
        'My aunt adds crushed almonds and pistachios. My neighbour swears by a star anise. Both are welcome at my table, and both are, respectfully, wrong.',
      ),
    ],
  },
  {
    title: 'Walking Downtown: Notes from the Old City',
    slug: 'walking-downtown-srinagar',
    date: '2024-09-22',
    category: 'Kashmir',
    excerpt:
      'Most visitors see Srinagar from the water. To see it from the inside, walk Downtown: old bridges, carved shrines and lanes too narrow for secrets.',
    body: [
      p(
        'Most visitors see Srinagar from the water. To see the city from the inside, you have to walk Downtown, the old city that climbs along both banks of the Jhelum, where houses lean together across lanes so narrow that neighbours could pass a cup of tea from window to window.',
      ),
      p(
        'I start at Zaina Kadal, one of the old bridges that stitch the two banks together, and follow the river to the Khanqah-e-Moula, the shrine whose carved and painted wooden facade is among the loveliest things in the valley. Nobody hurries here. The walk takes an hour if you are disciplined and a morning if you are not.',
      ),
      h3('Things to look for'),
      bullet(
        'The *pinjrakari* windows: wooden lattices carved into geometric patterns so fine they look like lace.',
      ),
      bullet(
        'Papier-mâché workshops, where artists still paint with brushes of a few hairs and colours they grind themselves.',
      ),
      bullet(
        'The copper shops in the lanes behind the river, where *samovars* are still beaten into shape one blow at a time.',
      ),
      p(
        'Ask before you photograph people, and take your shoes off when you should. If you want a guide, hire one from the neighbourhood: the stories they tell are not in any book, and the money stays where it belongs.',
      ),
    ],
  },
  {
    title: 'Writing Through a Srinagar Winter',
    slug: 'writing-through-a-srinagar-winter',
    date: '2025-12-28',
    category: 'Kashmir',
    excerpt:
      'When the power goes in January, the oldest writing technology takes over: a notebook, a pen, and the light from the window. Why I now plan for dark days.',
    body: [
      p(
        'Every winter, at some point, the power goes. Sometimes for an hour, sometimes for most of a day. The laptop battery drains, the router blinks out, and I am left with the oldest writing technology there is: a notebook, a pen, and whatever light comes through the window.',
      ),
      p(
        'For years I treated these days as lost. Now I plan for them. I keep a stack of printed drafts by the window, a red pen and a blue one, and a list of the jobs that need no screen at all: reading a manuscript aloud, marking structure in the margins, rewriting an opening by hand until it sounds right.',
      ),
      quote(
        'Handwriting is slow, and slowness is an editor’s friend. You cannot skim a sentence you are copying out.',
      ),
      p(
        'Some of my best editing has happened by a kangri under a quilt, with the snow coming down and the whole city gone quiet. When the power returns I type up what I have marked, and the typing is a second pass of its own. For clients, nothing changes: the deadline holds, and the pages come back cleaner than they went out. If you have a manuscript that needs that kind of attention this winter, [write to me](mailto:hello@example.com?subject=Winter%20manuscript).',
      ),
    ],
  },
]
