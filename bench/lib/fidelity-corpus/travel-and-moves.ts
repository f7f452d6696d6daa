// Plans away from the desk: a trip, a move to another city and a family event, with the
// bookings, dates and people they involve.
import { assistant, call, user, type LabelledConversation } from './labelled';

export const TRAVEL_AND_MOVES: LabelledConversation[] = [
	{
		id: 'trip-lisbon-porto',
		domain: 'travel planning',
		turns: [
			user(
				`I'm planning a trip to [[name|Portugal]] with my partner from [[number|3 to 12 October]]. We fly into [[name|Lisbon]] and out of [[name|Porto]]. Budget is about [[number|€2,800]] for everything except flights. [[instruction|No hostels, and we don't want to rent a car]].`
			),
			assistant(
				`That's a good route without a car: [[name|Lisbon]] and [[name|Porto]] are linked by the [[name|Alfa Pendular]] train in about [[number|2 h 50 min]]. A split of [[number|5 nights]] in [[name|Lisbon]] (with a day trip to [[name|Sintra]]) and [[number|4 nights]] in [[name|Porto]] works well. Would you like a day in the [[name|Douro Valley]]?`
			),
			user(
				`Yes, one day in the [[name|Douro]]. My partner [[name|Hannah]] is vegetarian and has a [[instruction|strict no-seafood rule, so always check restaurants for vegetarian options]]. We land on flight [[number|TP 1351]] at [[number|10:40]].`
			),
			call(
				'search_hotels',
				{ city: 'Lisbon', checkin: '2025-10-03', checkout: '2025-10-08', max_price: 180 },
				`1. [[name|Casa do Príncipe Real]] — [[number|€165/night]], [[number|9.1 rating]], [[name|Príncipe Real]]
2. [[name|Hotel Alfama Terrace]] — [[number|€142/night]], [[number|8.7 rating]], [[name|Alfama]]
3. [[name|Lumiares Bairro Alto]] — [[number|€210/night]], [[number|9.3 rating]], [[name|Bairro Alto]]`
			),
			assistant(
				`For [[number|5 nights]] in [[name|Lisbon]] under [[number|€180]] a night, two options fit: [[name|Casa do Príncipe Real]] at [[number|€165/night]] (rated [[number|9.1]]) and [[name|Hotel Alfama Terrace]] at [[number|€142/night]] (rated [[number|8.7]]). [[name|Lumiares Bairro Alto]] is [[number|€210/night]], over the limit. [[name|Príncipe Real]] is quieter and close to several vegetarian places, such as [[name|Ao 26 Vegan Food Project]].`
			),
			user(
				`[[instruction|Book [[name|Casa do Príncipe Real]]]]. [[instruction|The confirmation should go to [[email|l.moreau.travel@gmail.com]]]]. [[instruction|For [[name|Porto]], find something near [[name|Ribeira]] under [[number|€150]]]].`
			),
			assistant(
				`I'll request [[name|Casa do Príncipe Real]] for [[number|3–8 October]], [[number|5 nights]] at [[number|€165]], total [[number|€825]], confirmation to [[email|l.moreau.travel@gmail.com]]. That leaves about [[number|€1,975]] of the budget. For [[name|Porto]] I'll search near [[name|Ribeira]] for [[number|8–12 October]] under [[number|€150]] a night, and book the [[name|Douro]] tour for [[number|10 October]].`
			),
			user(`Perfect. [[instruction|Keep the train on the [[number|8th]] in the morning, before [[number|11:00]], so we have the afternoon in [[name|Porto]]]].`)
		]
	},
	{
		id: 'move-munich-to-hamburg',
		domain: 'home move',
		turns: [
			user(
				`We're moving from [[name|Munich]] to [[name|Hamburg]] at the end of [[number|August 2025]]. Our new flat is at [[name|Eppendorfer Weg 214]], [[number|4th floor]], no lift. Current flat is [[number|78 m²]], two adults, a child, and a piano.`
			),
			assistant(
				`A piano on a fourth floor without a lift needs a specialist mover; most general movers subcontract it. For [[number|78 m²]] expect roughly [[number|30–35 m³]] of goods. Do you have a date for the key handover?`
			),
			user(
				`Handover in [[name|Hamburg]] is [[number|29 August]], [[instruction|we must leave the [[name|Munich]] flat by [[number|31 August]]]]. I got two quotes: [[name|Umzüge Brandt]] for [[number|€4,350]] and [[name|Nordlicht Logistik]] for [[number|€3,980]]. [[instruction|Whatever we pick must include insurance for the piano]].`
			),
			assistant(
				`Check what each quote covers: [[name|Nordlicht Logistik]] is [[number|€370]] cheaper, but ask both whether piano transport and insurance are included, and for what value. A no-parking zone ([[name|Halteverbotszone]]) is needed at both addresses; in [[name|Hamburg]] you apply at the district office at least [[number|14 days]] ahead, in [[name|Munich]] at the [[name|Kreisverwaltungsreferat]].`
			),
			user(
				`[[name|Brandt]] includes the piano with insurance up to [[number|€15,000]], [[name|Nordlicht]] charges [[number|€600]] extra for it. So [[name|Brandt]] it is. Their contact is [[name|Sabine Kurz]], [[email|s.kurz@umzuege-brandt.de]], reference [[number|UB-2025-0873]].`
			),
			assistant(
				`With the [[number|€600]] added, [[name|Nordlicht]] would cost [[number|€4,580]], so [[name|Umzüge Brandt]] at [[number|€4,350]] is cheaper and already insures the piano to [[number|€15,000]]. Next steps: confirm with [[name|Sabine Kurz]] under [[number|UB-2025-0873]], apply for both no-parking zones by [[number|15 August]], register your address in [[name|Hamburg]] within [[number|2 weeks]] of moving in, and give notice on the [[name|Munich]] internet contract.`
			),
			user(
				`Also remind me: [[instruction|never schedule anything on [[number|30 August]], that's my daughter [[name|Mia]]'s birthday]]. And the school in [[name|Hamburg]] is [[name|Grundschule Eppendorf]], it starts on [[number|1 September]].`
			)
		]
	},
	{
		id: 'event-anniversary-dinner',
		domain: 'event planning',
		turns: [
			user(
				`My parents' [[number|40th anniversary]] is on [[number|Saturday 14 June]]. I want a dinner for [[number|24 guests]] in [[name|Edinburgh]], budget [[number|£2,500]]. My mum [[name|Eileen]] is coeliac, so [[instruction|the menu must be fully gluten-free]].`
			),
			assistant(
				`[[number|24 guests]] is a good size for a private dining room. Three places in [[name|Edinburgh]] with private rooms and a strong gluten-free kitchen: [[name|The Gardener's Cottage]], [[name|Dishoom Edinburgh]]'s private room, and [[name|Ondine]]. At [[number|£2,500]] that's about [[number|£104 a head]] including drinks.`
			),
			user(
				`[[name|Ondine]] is seafood heavy and Dad doesn't eat fish, so not that one. Let's ask [[name|The Gardener's Cottage]]. Their events person is [[name|Callum Reid]], [[email|events@gardenerscottage.co]], phone [[number|+44 131 558 1221]].`
			),
			assistant(
				`I'll draft the enquiry to [[name|Callum Reid]]: [[number|24 guests]], [[number|Saturday 14 June]], from [[number|7 pm]], fully gluten-free menu for everyone, no fish for one guest, budget [[number|£2,500]] including wine.`
			),
			user(
				`Good, but [[instruction|don't mention the budget in the first email]]. And it's a surprise, so [[instruction|never send anything to my parents' address]], use mine: [[name|12 Marchmont Crescent]], [[name|Edinburgh]] [[number|EH9 1HN]].`
			),
			assistant(
				`Understood: the first email leaves out the budget, and any post goes to [[name|12 Marchmont Crescent]], [[number|EH9 1HN]], not to your parents. I'll also suggest a cake from a dedicated gluten-free bakery; [[name|Mademoiselle Macaron]] in [[name|Edinburgh]] is fully gluten-free.`
			)
		]
	}
];
