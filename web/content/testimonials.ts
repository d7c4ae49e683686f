/** The Testimonials page's copy (requirements §2): edited book titles and three client cards. */
export const editedBooks = [
  'The Saffron Ledger',
  'Letters from Gulmarg',
  'Thin Air, Thick Ice',
  'The Houseboat Keeper',
  'Roads Beyond Zojila',
  'A Grammar of Snow',
  'Chinar Season',
  'The Last Ferry to Dal',
]

export const testimonials = [
  {
    quote:
      'She found the story hiding inside my draft and gave it back to me in my own voice. The edit was thorough, kind and fast.',
    author: 'Aamir K., novelist',
  },
  {
    quote:
      'Our website finally sounds like us. Clear brief, clear agreement, delivered two days early.',
    author: 'Mehreen S., founder of a travel studio',
  },
  {
    quote:
      'The free sample edit convinced me in ten minutes. The full line edit made my memoir publishable.',
    author: 'Rohan D., memoirist',
  },
]
