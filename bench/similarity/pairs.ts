/**
 * A labelled set of short feedback pairs, for choosing how the likely-duplicate finder compares texts
 * (docs/decisions.md, "Similar suggestions: which measure"). The first text of a pair is what a visitor
 * types (or a suggestion being triaged), the second one already on the page.
 *
 * Where the labels come from: written and labelled by hand for issue 42, after the kind of feedback a
 * café, shop or gym receives (the seed's themes, src/seed/seed.text.ts, and the issue's own example).
 * `duplicate` means a team would merge the two: the same request or complaint in other words (short
 * paraphrases, plurals, typos, reordered words, a different level of detail). `unrelated` pairs are
 * different requests, many of them chosen to share words with each other ("More vegan options" and
 * "More parking spaces"), because those are the ones a loose measure wrongly offers.
 */
export interface LabelledPair {
  a: string;
  b: string;
  duplicate: boolean;
}

const dup = (a: string, b: string): LabelledPair => ({ a, b, duplicate: true });
const other = (a: string, b: string): LabelledPair => ({ a, b, duplicate: false });

export const PAIRS: LabelledPair[] = [
  // Duplicates: the same request in other words.
  dup('More vegan options', 'Vegan food please'),
  dup('Oat milk please', 'Could you add oat milk for the flat whites?'),
  dup('Please add oat milk', 'Oat milk option for coffee'),
  dup('The music is too loud', 'Music way too loud in the evenings'),
  dup('Turn the music down', 'The music is too loud'),
  dup('Wifi keeps dropping', 'The wifi is unreliable'),
  dup('Free wifi please', 'Please offer free wi-fi'),
  dup('More seats on the terrace', 'Add more terrace seating'),
  dup('Open earlier on weekends', 'Weekend opening hours should start earlier'),
  dup('Open on Sundays', 'Please open Sunday'),
  dup('Gluten free bread', 'Gluten-free bread options please'),
  dup('Card payments please', 'Accept card payment'),
  dup('Contactless payment', 'Add contactless payments'),
  dup('Too cold inside', 'It is always cold inside in winter'),
  dup('The toilets are dirty', 'Dirty toilets'),
  dup('Clean the bathrooms more often', 'Bathrooms need cleaning more often'),
  dup('Bike parking', 'Add bike racks for parking bikes'),
  dup('Loyalty card', 'A loyalty card with a free tenth coffee'),
  dup('Decaf coffee please', 'Offer decaf'),
  dup('Longer opening hours', 'Extend opening hours'),
  dup('Dog friendly terrace', 'Allow dogs on the terrace'),
  dup('Kids menu', 'A menu for kids please'),
  dup('More power outlets', 'Need more power sockets for laptops'),
  dup('Cheaper coffee', 'Coffee is too expensive'),
  dup('Service is slow at lunch', 'Slow service at lunchtime'),
  dup('Online ordering', 'Let us order online'),
  dup('Reusable cups discount', 'Discount for bringing a reusable cup'),
  dup('Vegetarian sandwiches', 'More vegetarian sandwich choices'),
  dup('Sugar free syrups', 'Sugar-free syrup options'),
  dup('Plant based milk', 'More plant-based milks'),
  dup('Almond croissants', 'Bring back the almond croissant'),
  dup('Air conditioning', 'Install air conditioning, too hot in summer'),
  dup('Bigger portions', 'The portions are too small'),
  dup('Quieter area for working', 'A quiet zone for people working'),
  dup('Table service', 'Serve at the table'),
  dup('Fix the wobbly tables', 'Tables are wobbly'),
  dup('Parking is hard to find', 'More parking spaces'),
  dup('Longer gym hours', 'Gym should open longer'),
  dup('More squat racks', 'Add another squat rack'),
  dup('Towel service', 'Provide towels'),
  dup('Clean the changing rooms', 'Changing rooms are dirty'),
  dup('Delivery', 'Home delivery please'),
  // Unrelated: different requests, often with words in common.
  other('More vegan options', 'More parking spaces'),
  other('More vegan options', 'More payment options'),
  other('Vegan food please', 'Faster food please'),
  other('Oat milk please', 'Oat cookies'),
  other('The music is too loud', 'The coffee is too hot'),
  other('Turn the music down', 'Turn the heating up'),
  other('Wifi keeps dropping', 'Prices keep going up'),
  other('Free wifi please', 'Free refills please'),
  other('More seats on the terrace', 'More plants on the terrace'),
  other('Open earlier on weekends', 'Live music on weekends'),
  other('Open on Sundays', 'Brunch on Sundays'),
  other('Gluten free bread', 'Free bread with soup'),
  other('Card payments please', 'Birthday cards for sale'),
  other('Too cold inside', 'Cold brew coffee'),
  other('The toilets are dirty', 'The windows are dirty'),
  other('Clean the bathrooms more often', 'Change the menu more often'),
  other('Bike parking', 'Car parking is too expensive'),
  other('Loyalty card', 'Gift card'),
  other('Decaf coffee please', 'Iced coffee please'),
  other('Longer opening hours', 'Shorter queues'),
  other('Dog friendly terrace', 'Heaters on the terrace'),
  other('Kids menu', 'Menu in English'),
  other('More power outlets', 'More staff at lunch'),
  other('Cheaper coffee', 'Stronger coffee'),
  other('Service is slow at lunch', 'Soup at lunch'),
  other('Online ordering', 'Online booking for tables'),
  other('Reusable cups discount', 'Student discount'),
  other('Vegetarian sandwiches', 'Toasted sandwiches'),
  other('Sugar free syrups', 'Sugar on the tables'),
  other('Plant based milk', 'Milkshakes'),
  other('Almond croissants', 'Chocolate croissants'),
  other('Air conditioning', 'Air fryer snacks'),
  other('Bigger portions', 'Bigger mugs'),
  other('Quieter area for working', 'Play area for kids'),
  other('Table service', 'Outdoor table tennis'),
  other('Fix the wobbly tables', 'Fix the door handle'),
  other('Longer gym hours', 'Gym classes for seniors'),
  other('More squat racks', 'More yoga classes'),
  other('Towel service', 'Towel hooks in the showers'),
  other('Clean the changing rooms', 'Bigger changing rooms'),
  other('Delivery', 'Deli counter'),
  other('The staff are lovely', 'The cake is stale'),
  other('Great atmosphere', 'Great playlist'),
  other('Please add oat milk', 'Please add more chairs'),
];
