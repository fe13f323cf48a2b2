import { analyzeSentiment, type SentimentResult } from '../suggestions/sentiment.js';

/** Made-up but plausible feedback for a café-restaurant-shop kind of business. */

const TOPICS = [
  'the coffee',
  'the oat milk latte',
  'the breakfast menu',
  'the lunch specials',
  'the terrace',
  'the Wi-Fi',
  'the mobile app',
  'the checkout',
  'the loyalty card',
  'the parking',
  'the opening hours',
  'the music',
  'the restrooms',
  'home delivery',
  'the prices',
  'the seating',
  'the vegan options',
  'table service',
  'the website',
  'the queue at lunch',
  'the pastries',
  'the playground',
  'the self-service kiosk',
  'the gift cards',
];

const PRAISE = [
  'the staff were friendly and helpful',
  'everything was fresh',
  'it made my morning',
  'best in town',
  'my kids enjoyed it',
  'quick and easy',
  'worth every penny',
];

const COMPLAINTS = [
  'we waited forty minutes',
  'it keeps crashing',
  'the order was wrong twice',
  'nobody answered the phone',
  'the tables were dirty',
  'the card payment failed',
  'it is far too expensive for what it is',
];

const REQUESTS = [
  'more seats',
  'a second card reader',
  'decaf options',
  'a water station',
  'bike racks',
  'a quiet corner',
  'larger cups',
  'a reservation system',
];

const PLACES = ['the entrance', 'the window', 'the back room', 'the counter', 'the car park'];

const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

type Template = (topic: string, detail: string) => string;

const POSITIVE: Template[] = [
  (t, d) => `I love ${t}, ${d}.`,
  (t) => `${capitalise(t)} is excellent, thank you!`,
  (t, d) => `Great job on ${t}: ${d}.`,
  (t, d) => `${capitalise(t)} has been amazing lately, ${d}.`,
  (t) => `Really happy with ${t}. Keep it up!`,
];

const NEGATIVE: Template[] = [
  (t, d) => `${capitalise(t)} is terrible, ${d}.`,
  (t, d) => `Very disappointed with ${t}: ${d}.`,
  (t, d) => `${capitalise(t)} was awful today, ${d}.`,
  (t, d) => `I hate how ${t} works now, ${d}.`,
  (t, d) => `Bad experience with ${t}; ${d}.`,
];

const MIXED: Template[] = [(t, d) => `I like ${t} but ${d}.`, (t, d) => `${capitalise(t)} is fine, although ${d}.`];

function requests(): string[] {
  const texts: string[] = [];
  for (const topic of TOPICS) {
    for (const request of REQUESTS) texts.push(`Could you offer ${request} for ${topic}?`);
    for (const place of PLACES) texts.push(`Please consider moving ${topic} closer to ${place}.`);
  }
  for (const request of REQUESTS) for (const place of PLACES) texts.push(`Please add ${request} near ${place}.`);
  return texts;
}

const expand = (templates: Template[], details: string[]) => [
  ...new Set(templates.flatMap((template) => TOPICS.flatMap((topic) => details.map((d) => template(topic, d))))),
];

export interface SeedText extends SentimentResult {
  text: string;
}

/** Every text with the sentiment the service itself would compute for it (the same lexicon). */
const analysed = (texts: string[]): SeedText[] => texts.map((text) => ({ text, ...analyzeSentiment(text, 'en') }));

let pools: Record<'praise' | 'complaint' | 'mixed' | 'request', SeedText[]> | undefined;

/** Suggestion texts in four moods, analysed once per process (a few thousand texts, ~100 ms). */
export function suggestionTexts() {
  pools ??= {
    praise: analysed(expand(POSITIVE, PRAISE)),
    complaint: analysed(expand(NEGATIVE, COMPLAINTS)),
    mixed: analysed(expand(MIXED, COMPLAINTS)),
    request: analysed(requests()),
  };
  return pools;
}

export const FIRST_NAMES = [
  'Ada',
  'Grace',
  'Alan',
  'Linus',
  'Margaret',
  'Edsger',
  'Barbara',
  'Ken',
  'Frances',
  'Hedy',
  'Katherine',
  'Radia',
  'Sophie',
  'Yuki',
  'Amara',
  'Mateo',
  'Priya',
  'Omar',
  'Chen',
  'Lucía',
  'Noah',
  'Zoé',
  'Inês',
  'Kwame',
  'Olga',
  'Ravi',
  'Sara',
  'Tomás',
];

export const LAST_NAMES = [
  'Lovelace',
  'Hopper',
  'Turing',
  'Hamilton',
  'Dijkstra',
  'Liskov',
  'Thompson',
  'Allen',
  'Lamarr',
  'Johnson',
  'Perlman',
  'Tanaka',
  'Okafor',
  'García',
  'Patel',
  'Haddad',
  'Wei',
  'Fernández',
  'Müller',
  'Smith',
  'Silva',
  'Mensah',
  'Ivanova',
  'Kumar',
  'Nielsen',
  'Rossi',
];

/** Example domains (RFC 2606): never a real mailbox. */
export const EMAIL_DOMAINS = ['example.com', 'example.org', 'example.net'];

export const ISSUE_TITLES = [
  'Card reader rejects contactless payments',
  'Coffee machine is leaking',
  'Wi-Fi down in the back room',
  'Broken chair on the terrace',
  'App crashes at checkout',
  'Heating not working',
  'Fridge temperature too high',
  'Receipt printer jammed',
  'Wrong prices on the menu board',
  'Door handle loose',
  'Music too loud in the evening',
  'Loyalty points not credited',
  'Online order never arrived',
  'Spill near the entrance',
  'Light flickering above the counter',
  'Toilet out of order',
];

export const ISSUE_DETAILS = [
  'Reported by a customer at the counter.',
  'Happened twice this week.',
  'Staff noticed it while opening.',
  'Customers have been complaining since Monday.',
  'It only happens during the lunch rush.',
  'Photo sent to the manager.',
  'The supplier has been called.',
  'Temporary sign put up.',
];

export const COMMENTS = [
  'Thanks, we are looking into it.',
  'Passed on to the kitchen team.',
  'Fixed this morning, thank you for reporting.',
  'We will discuss this at the next team meeting.',
  'A technician is coming on Monday.',
  'Could you tell us which location?',
  'Good idea, we are trying it next month.',
  'Sorry about that, a refund is on its way.',
  'Closing this: it is a duplicate.',
  'Update: the part has been ordered.',
];
