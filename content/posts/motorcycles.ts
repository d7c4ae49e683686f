import type {PostSource} from '../postSource.ts'
import {bullet, h2, h3, h4, p, quote} from '../richText.ts'

export const motorcyclePosts: PostSource[] = [
  {
    title: 'Zoji La on a Borrowed Bike',
    slug: 'zoji-la-on-a-borrowed-bike',
    date: '2020-07-14',
    category: 'Motorcycles',
    excerpt:
      'Mud, meltwater, army convoys and my cousin’s motorcycle. What I learned riding the old road over Zoji La, and why the bike came back different.',
    body: [
      p(
        'The bike belonged to my cousin, who lent it to me on the strict understanding that it would come back in the same condition. It did not. But I came back, which I think he would agree was the more important half of the deal.',
      ),
      p(
        '[Zoji La](https://en.wikipedia.org/wiki/Zoji_La) is the pass that carries the Srinagar–Leh road from the green of Sonamarg to the bare brown of Drass. It is not the highest pass in the region, but it has a reputation, and it earns it: a narrow track of mud, loose stone and meltwater cut into the side of the mountain, shared with army convoys and trucks that slow down for no one.',
      ),
      p(
        'I learned three things on the way up. First, stand on the pegs in the mud and let the bike move under you. Second, the truck driver coming the other way can see the drop on his side better than you can see yours; when he waves you through, go. Third, no amount of reading prepares you for the water crossings in July, when the snowmelt comes down the road faster than you would believe.',
      ),
      quote(
        'At the top there is a tea stall, and at the tea stall there is always someone who has done it on a scooter.',
      ),
      p(
        'I came down the far side into Drass with a cracked indicator, a bent brake lever and a grin I could not get off my face. My cousin has since forgiven me. He has not, however, lent me the bike again. A tunnel will take the traffic off this road one day, and I am glad I rode the old one first.',
      ),
    ],
  },
  {
    title: 'The Pre-Ride Checklist I Actually Use',
    slug: 'the-pre-ride-checklist-i-actually-use',
    date: '2022-05-29',
    category: 'Motorcycles',
    excerpt:
      'Every rider has a pre-ride checklist and most never use it. Mine takes ten minutes, lives on my phone, and once found a family of sparrows in the air box.',
    body: [
      p(
        'Every rider I know has a pre-ride checklist, and most of them never use it. Mine lives on my phone in a note called `pre-ride.txt`, and I run through it every morning of a long trip, even when the hotel owner is watching and I feel faintly ridiculous.',
      ),
      h4('Before the engine starts'),
      bullet(
        '**Tyres**: pressures checked cold, and a look for cuts and embedded stones. Mountain roads eat tyres.',
      ),
      bullet(
        '**Chain**: tension and lube. A slack chain on a steep climb is how you learn new words.',
      ),
      bullet(
        '**Controls and lights**: brake levers, clutch play, horn, indicators, headlight on high and low. In a tunnel, you need all of them.',
      ),
      bullet(
        '**Fluids**: engine oil at the sight glass, brake fluid above the minimum, no drips under the bike overnight.',
      ),
      bullet(
        '**Papers**: licence, registration, insurance and permits in a dry bag, with photocopies somewhere else.',
      ),
      p(
        'It takes ten minutes. I have found a loose axle nut this way, and a brake pad worn to the metal, and once a family of sparrows in the air box. The list does not make me a better rider. It makes me a rider who gets home. If you ride in the mountains, steal it, change it, and above all __use it__.',
      ),
    ],
  },
  {
    title: 'Razdan Pass in the Rain',
    slug: 'razdan-pass-in-the-rain',
    date: '2023-10-08',
    category: 'Motorcycles',
    excerpt:
      'Riding to Gurez in October, just before the snow closes the pass: an hour in the cloud behind a supply truck, and then a valley of gold poplars.',
    body: [
      p(
        '[Gurez](https://en.wikipedia.org/wiki/Gurez) sits on the far side of the Razdan Pass, a day’s ride north of Srinagar by way of Bandipora, and for half the year the snow cuts it off completely. I rode there in early October, just before the pass closes, and it rained from Bandipora to the top.',
      ),
      p(
        'The road over Razdan climbs through forests of deodar and fir, then out onto open slopes where the cloud sat on us like a lid. Visibility dropped to a few metres. I rode in second gear for an hour with the visor up, following the tail-light of a supply truck whose driver, I like to think, knew I was there.',
      ),
      p(
        'And then, on the far side, the cloud simply ended. Below me the Kishanganga ran green through a valley of wooden houses and gold poplars, with the pyramid of Habba Khatoon peak standing over Dawar as if someone had placed it there for effect.',
      ),
      h3('If you go'),
      bullet(
        'Check that the pass is open before you leave; it can close early with the first heavy snow.',
      ),
      bullet('Carry fuel. Pumps on the far side are few and not always stocked.'),
      bullet('Keep your ID handy for the checkposts, and be patient with them.'),
      p(
        'Gurez is not a place to rush. Stay two nights at least, and ride on to Tulail if the weather holds. The road home will still be there.',
      ),
    ],
  },
  {
    title: 'What Riding Taught Me About Pacing a Story',
    slug: 'what-riding-taught-me-about-pacing',
    date: '2026-05-17',
    category: 'Motorcycles',
    excerpt:
      'Straights, hairpins and tea stalls: I learned more about pacing a story from the Srinagar–Leh highway than from any writing manual.',
    body: [
      p(
        'A long mountain ride has a rhythm: a stretch of straight road where you can breathe, a run of hairpins where you cannot, a tea stall where everything stops. A good story has the same rhythm, and I learned more about pacing from the Srinagar–Leh highway than from any writing manual.',
      ),
      h2('Straights and hairpins'),
      p(
        'On a straight you look far ahead; on a hairpin you look only at the exit. In a story, summary is the straight, where months can pass in a paragraph, and scene is the hairpin, every sentence a small correction. Stay too long on either and the reader is bored or exhausted. The art is in the shifting.',
      ),
      h2('The tea stall'),
      p(
        'Every long ride needs stops, and so does every long story. A quiet chapter after a crisis is not a sag; it is where the reader takes off the helmet and realises what just happened. When I edit a thriller that never lets up, my first note is often the same: *give them a tea stall*.',
      ),
      quote(
        'Speed is not the same as momentum. A story, like a bike, can go very fast in the wrong gear.',
      ),
      p(
        'I ride less than I used to. But every time I sit down with a manuscript I find myself listening for the engine: is it labouring, is it screaming, or is it running sweet? Most of what I call editing is learning to hear the difference.',
      ),
    ],
  },
]
